/**
 * One JSON envelope for every API answer: success is the payload; failure is
 * { errors: [{ code, message, field? }] } with the status of its code. Never HTML, never a redirect.
 */
import { AppError, isAppError, STATUS_OF, type ErrorCode } from '../utils/errors'

export function apiError(code: ErrorCode, message: string, extra: { field?: string; headers?: HeadersInit } = {}): Response {
  return Response.json({ errors: [{ code, message, ...(extra.field ? { field: extra.field } : {}) }] }, { status: STATUS_OF[code], headers: extra.headers })
}

/**
 * An AppError as the envelope: one entry per problem when its details list them (a record's field
 * errors, app/records/write.server.ts), else one entry, with the field its details name.
 */
export function appErrorResponse(e: AppError): Response {
  const d = e.details as { errors?: Array<{ field?: string; message: string }>; field?: string } | undefined
  const list = Array.isArray(d?.errors) && d.errors.length ? d.errors : [{ message: e.message, ...(typeof d?.field === 'string' ? { field: d.field } : {}) }]
  return Response.json({ errors: list.map((x) => ({ code: e.code, message: x.message, ...(x.field ? { field: x.field } : {}) })) }, { status: STATUS_OF[e.code] })
}

/** Reads a JSON body of at most `maxBytes`; a bad or oversized body is an AppError. */
export async function readJson(request: Request, maxBytes = 1_000_000): Promise<unknown> {
  const len = Number(request.headers.get('content-length') ?? 0)
  if (len > maxBytes) throw new AppError('TOO_LARGE', `the request body is larger than ${maxBytes} bytes`)
  const text = await request.text()
  if (Buffer.byteLength(text) > maxBytes) throw new AppError('TOO_LARGE', `the request body is larger than ${maxBytes} bytes`)
  try {
    return JSON.parse(text)
  } catch {
    throw new AppError('BAD_INPUT', 'the request body is not valid JSON')
  }
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
