/**
 * METRC's errors as one type (reference §1.8). Whatever the status, a body that is an array is a
 * list of per-row messages `[{row, message}]`, an object carries `Message` or `message`, anything
 * else is text. `rows` keep the index of the row in the caller's whole list (a batched write
 * shifts METRC's index by the batch's start).
 */
export interface RowMessage {
  row: number
  message: string
}

export type MetrcErrorKind =
  | 'rejected' // 400: the rows (or the query) are wrong; fix and resend
  | 'unauthorized' // 401: keys, license access, or a record outside the license
  | 'forbidden' // 403: the license type or the user's permissions
  | 'not_found' // 404
  | 'too_large' // 413: too many objects in one request
  | 'rate_limited' // 429, after the retries
  | 'unavailable' // 5xx, or no answer (down, refused, reset), after the retries
  | 'timeout' // no answer in time
  | 'ambiguous' // a write whose answer was lost: it may or may not have been applied

export class MetrcError extends Error {
  /** for a batched write: rows (of the caller's list) METRC had already taken before this refusal */
  applied?: number
  constructor(
    readonly kind: MetrcErrorKind,
    message: string,
    readonly status: number,
    readonly rows: RowMessage[] = [],
    readonly retryAfterMs?: number,
  ) {
    super(message)
    this.name = 'MetrcError'
  }
  /** worth another try later (the outbox keeps the item pending) */
  get transient(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable' || this.kind === 'timeout'
  }
}

const KIND: Record<number, MetrcErrorKind> = { 400: 'rejected', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 413: 'too_large', 429: 'rate_limited' }

/** Turns a refusal's status and body into a MetrcError; `rowOffset` shifts per-row indexes. */
export function metrcError(status: number, body: string, o: { rowOffset?: number; retryAfterMs?: number } = {}): MetrcError {
  const kind: MetrcErrorKind = KIND[status] ?? (status >= 500 ? 'unavailable' : 'rejected')
  const offset = o.rowOffset ?? 0
  let rows: RowMessage[] = []
  let message = ''
  let parsed: unknown
  try {
    parsed = body ? JSON.parse(body) : undefined
  } catch {
    parsed = undefined
  }
  if (Array.isArray(parsed)) {
    rows = parsed.map((r, i) => {
      const o = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>
      const row = typeof o.row === 'number' ? o.row : typeof o.Row === 'number' ? o.Row : i
      const m = o.message ?? o.Message ?? (typeof r === 'string' ? r : JSON.stringify(r))
      return { row: row + offset, message: String(m) }
    })
    message = rows.map((r) => r.message).join(' ')
  } else if (parsed && typeof parsed === 'object') {
    const o = parsed as Record<string, unknown>
    message = String(o.Message ?? o.message ?? JSON.stringify(o))
  } else {
    message = body.trim().slice(0, 500)
  }
  if (!message) message = `METRC answered ${status}`
  return new MetrcError(kind, message, status, rows, o.retryAfterMs)
}

/** Retry-After as milliseconds: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const s = header.trim()
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000)
  const at = Date.parse(s)
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined
}
