/**
 * One JSON envelope for every API answer: success is the payload; failure is
 * { errors: [{ code, message, field? }] } with the status of its code. Never HTML, never a redirect.
 */
import { AppError, isAppError, STATUS_OF, type ErrorCode } from '../utils/errors'

/** The body of a refusal; also written by the Express middleware (app/server/refuse.server.ts). */
export function errorEnvelope(code: ErrorCode, message: string, field?: string) {
  return { errors: [{ code, message, ...(field ? { field } : {}) }] }
}

export function apiError(code: ErrorCode, message: string, extra: { field?: string; headers?: HeadersInit } = {}): Response {
  return Response.json(errorEnvelope(code, message, extra.field), { status: STATUS_OF[code], headers: extra.headers })
}

/**
 * An AppError as the envelope: one entry per problem when its details list them (a record's field
 * errors, app/records/write.server.ts), else one entry, with the field its details name.
 */
export function appErrorResponse(e: AppError): Response {
  const d = e.details as { errors?: Array<{ field?: string; message: string }>; field?: string } | undefined
  const list = Array.isArray(d?.errors) && d.errors.length ? d.errors : [{ message: e.message, ...(typeof d?.field === 'string' ? { field: d.field } : {}) }]
  // a body refused part-way is still arriving: close the connection after the answer
  const headers = e.code === 'TOO_LARGE' ? { Connection: 'close' } : undefined
  return Response.json({ errors: list.map((x) => ({ code: e.code, message: x.message, ...(x.field ? { field: x.field } : {}) })) }, { status: STATUS_OF[e.code], headers })
}

/**
 * Reads a JSON body of at most `maxBytes`; a bad or oversized body is an AppError. A declared
 * length over the limit is refused unread; a body sent without one (chunked) is read only up to
 * the limit, then reading stops (the rest is never buffered).
 */
export async function readJson(request: Request, maxBytes = 1_000_000): Promise<unknown> {
  const tooLarge = () => new AppError('TOO_LARGE', `the request body is larger than ${maxBytes} bytes`)
  const len = Number(request.headers.get('content-length') ?? 0)
  if (len > maxBytes) throw tooLarge()
  const chunks: Uint8Array[] = []
  let size = 0
  if (request.body) {
    const reader = request.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBytes) {
        // stop reading, but no cancel(): that would destroy the socket before the 413 is written;
        // api() answers with Connection: close, so the rest of the body is never read
        reader.releaseLock()
        throw tooLarge()
      }
      chunks.push(value)
    }
  }
  const text = Buffer.concat(chunks).toString('utf8')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new AppError('BAD_INPUT', 'the request body is not valid JSON')
  }
  // PostgreSQL cannot store or compare NUL in text or jsonb: refused here, for every API body (issue 20 item 11)
  const at = nulAt(value)
  if (at !== null) throw new AppError('BAD_INPUT', `the request body contains a NUL character (\\u0000)${at ? ` at ${at}` : ''}, which Canopy cannot store or search for`)
  return value
}

/** Where a NUL character is in a parsed JSON value (a key or a string), as a dotted path; null when nowhere. */
export function nulAt(v: unknown, path = '', depth = 0): string | null {
  if (typeof v === 'string') return v.includes('\u0000') ? path : null
  if (!v || typeof v !== 'object' || depth > 64) return null
  for (const [k, x] of Object.entries(v)) {
    const here = path ? `${path}.${k}` : k
    if (k.includes('\u0000')) return here.split('\u0000').join('\\u0000')
    const found = nulAt(x, here, depth + 1)
    if (found !== null) return found
  }
  return null
}

/** Runs an API handler and turns any thrown AppError (or anything else) into the envelope. */
export async function api(fn: () => Promise<Response>, log?: { error: (o: object, m: string) => void }): Promise<Response> {
  try {
    return await fn()
  } catch (e) {
    if (isAppError(e)) return appErrorResponse(e)
    if (e instanceof Response) return e
    log?.error({ err: e }, 'API request failed')
    return apiError('UNAVAILABLE', 'the server could not answer; try again later')
  }
}
