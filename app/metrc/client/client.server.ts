/**
 * The METRC client (issue 9; reference §1 and §6): one instance per set of keys (vendor key +
 * a user's key), talking to METRC's host for a state or to the emulator.
 *
 *   reads   Basic auth, `licenseNumber` on facility calls; v2 lists paged at 20 (the first page
 *           says how many there are, the rest go out together within the GET limits) or a bare
 *           array taken whole; `listModified` walks lastModified windows of 24 h forward, oldest
 *           first; GETs wait for the shared throttle (50/s and 10 in flight per facility, 150/s
 *           and 30 per vendor key); 429 and 5xx and lost connections are retried with backoff,
 *           honouring Retry-After; 400, 401, 403, 404 and 413 are not.
 *   writes  bodies are arrays, sent in batches of at most 10 objects, in order; a 429 or a refused
 *           connection (nothing reached METRC) is retried; a 5xx other than 503, a timeout or a
 *           reset after sending may or may not have been applied, so it is not retried here: the
 *           error is `ambiguous` and the outbox decides (it checks METRC before sending again).
 *           A 400's per-row messages are numbered in the caller's whole list.
 */
import type { Logger } from 'pino'
import { MetrcError, metrcError, retryAfterMs } from './errors'
import { sharedGetThrottle, type GetThrottle } from './limits'
import { isoParam, windows, DAY_MS } from './windows'

export type Query = Record<string, string | number | boolean | undefined>

export interface MetrcClientOptions {
  baseUrl: string
  vendorKey: string
  userKey: string
  fetch?: typeof fetch
  /** per request (default 30 s) */
  timeoutMs?: number
  /** tries of one request before giving up on a transient failure (default 6) */
  attempts?: number
  /** first backoff and its ceiling (default 500 ms, 30 s); doubled each try, with jitter */
  backoff?: { baseMs: number; maxMs: number }
  /** the longest Retry-After honoured as given (default 120 s); longer is cut to it */
  maxRetryAfterMs?: number
  throttle?: GetThrottle
  /** objects per write request (METRC: 10) */
  batchSize?: number
  /** rows per page (METRC: at most 20) */
  pageSize?: number
  logger?: Logger
  /** told of every HTTP exchange (counting requests for the bench and the sync progress); `rows`: how many a list answer held */
  onRequest?: (r: { method: string; path: string; status: number; ms: number; rows?: number }) => void
  sleep?: (ms: number) => Promise<void>
}

export interface WriteResult {
  ids: number[]
  warnings: string[]
  requests: number
}

interface Paged<T> {
  Data: T[]
  Total?: number
  TotalRecords?: number
  PageSize?: number
  Page?: number
  CurrentPage?: number
  TotalPages?: number
}

const isPaged = (x: unknown): x is Paged<unknown> => !!x && typeof x === 'object' && !Array.isArray(x) && Array.isArray((x as Paged<unknown>).Data)

/** network failures where the request surely never reached the server */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

export class MetrcClient {
  private readonly o: Required<Omit<MetrcClientOptions, 'logger' | 'onRequest'>> & Pick<MetrcClientOptions, 'logger' | 'onRequest'>
  private readonly auth: string

  constructor(o: MetrcClientOptions) {
    if (!o.vendorKey || !o.userKey) throw new Error('METRC needs a vendor key and a user key')
    this.o = {
      fetch: globalThis.fetch,
      timeoutMs: 30_000,
      attempts: 6,
      backoff: { baseMs: 500, maxMs: 30_000 },
      maxRetryAfterMs: 120_000,
      throttle: sharedGetThrottle,
      batchSize: 10,
      pageSize: 20,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      ...o,
      baseUrl: o.baseUrl.replace(/\/+$/, ''),
    }
    this.auth = 'Basic ' + Buffer.from(`${o.vendorKey}:${o.userKey}`).toString('base64')
  }

  /** One GET; the parsed JSON as METRC gives it (object, wrapper or array). */
  get<T = unknown>(path: string, o: { license?: string; query?: Query } = {}): Promise<T> {
    return this.o.throttle.run(this.o.vendorKey, o.license, () => this.send<T>('GET', path, o.license, o.query)) as Promise<T>
  }

  /**
   * Every row of a list: a bare array as it comes, a v2 wrapper page by page (20 a page; after
   * the first page, the others are asked for together and the throttle paces them).
   */
  async list<T = unknown>(path: string, o: { license?: string; query?: Query } = {}): Promise<T[]> {
    const first = await this.get<unknown>(path, { ...o, query: { ...o.query, pageNumber: 1, pageSize: this.o.pageSize } })
    if (Array.isArray(first)) return first as T[]
    if (!isPaged(first)) throw new MetrcError('rejected', `${path}: METRC answered neither a list nor a page`, 200)
    const pages = Math.max(1, first.TotalPages ?? 1)
    const rest = await Promise.all(
      Array.from({ length: pages - 1 }, (_, i) => this.get<Paged<T>>(path, { ...o, query: { ...o.query, pageNumber: i + 2, pageSize: this.o.pageSize } })),
    )
    const out = [...(first.Data as T[])]
    for (const p of rest) if (isPaged(p)) out.push(...(p.Data as T[]))
    return out
  }

  /**
   * Rows modified in [from, to), window by window (24 h at most each), oldest first. `onWindow`
   * sees each window's rows as soon as it is read, so a sync can store them and remember how far
   * it got; a failure in a later window leaves the earlier ones done.
   */
  async listModified<T = unknown>(
    path: string,
    o: { license: string; from: Date; to: Date; query?: Query; windowMs?: number; onWindow?: (rows: T[], w: { start: Date; end: Date }) => unknown },
  ): Promise<T[]> {
    const all: T[] = []
    for (const w of windows(o.from, o.to, Math.min(o.windowMs ?? DAY_MS, DAY_MS))) {
      const rows = await this.list<T>(path, { license: o.license, query: { ...o.query, lastModifiedStart: isoParam(w.start), lastModifiedEnd: isoParam(w.end) } })
      await o.onWindow?.(rows, w)
      all.push(...rows)
    }
    return all
  }

  /**
   * A write (POST, PUT, or a DELETE with a body as METRC's destroys take, an array body, in batches of 10 in order). Answers every batch's
   * Ids. A refusal throws a MetrcError whose rows are numbered in `rows`, with `applied` the rows
   * of the batches METRC had already taken.
   */
  async write(method: 'POST' | 'PUT' | 'DELETE', path: string, rows: unknown[], o: { license?: string; query?: Query } = {}): Promise<WriteResult> {
    if (!Array.isArray(rows) || rows.length === 0) throw new MetrcError('rejected', 'nothing to send: a METRC write needs at least one row', 0)
    const result: WriteResult = { ids: [], warnings: [], requests: 0 }
    for (let i = 0; i < rows.length; i += this.o.batchSize) {
      const batch = rows.slice(i, i + this.o.batchSize)
      try {
        const r = await this.send<{ Ids?: unknown; Warnings?: unknown } | null>(method, path, o.license, o.query, batch, i)
        result.requests++
        if (r && Array.isArray(r.Ids)) result.ids.push(...r.Ids.filter((x): x is number => typeof x === 'number'))
        if (r && r.Warnings) result.warnings.push(...(Array.isArray(r.Warnings) ? r.Warnings.map(String) : [String(r.Warnings)]))
      } catch (e) {
        if (e instanceof MetrcError) e.applied = i
        throw e
      }
    }
    return result
  }

  /** DELETE of one record (archive, discontinue). */
  async remove(path: string, o: { license?: string; query?: Query } = {}): Promise<void> {
    await this.send('DELETE', path, o.license, o.query)
  }

  private url(path: string, license?: string, query?: Query): string {
    if (!path.startsWith('/') || path.includes('..') || /[?#]/.test(path)) throw new Error(`${path}: a METRC path starts with / and carries no query`)
    const q = new URLSearchParams()
    if (license) q.set('licenseNumber', license)
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) q.set(k, String(v))
    const s = q.toString()
    return `${this.o.baseUrl}${path}${s ? `?${s}` : ''}`
  }

  /** One request with the retry rules above; `rowOffset` numbers a batch's row messages. */
  private async send<T>(method: string, path: string, license?: string, query?: Query, body?: unknown, rowOffset = 0): Promise<T> {
    const url = this.url(path, license, query)
    const isRead = method === 'GET'
    let last: MetrcError | undefined
    for (let attempt = 1; attempt <= this.o.attempts; attempt++) {
      const t0 = performance.now()
      let res: Response
      try {
        res = await this.o.fetch(url, {
          method,
          headers: { Authorization: this.auth, Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
          body: body !== undefined ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(this.o.timeoutMs),
        })
      } catch (e) {
        const err = e as Error & { cause?: { code?: string } }
        const timedOut = err.name === 'TimeoutError'
        const neverSent = NEVER_SENT.has(err.cause?.code ?? '')
        this.o.onRequest?.({ method, path, status: 0, ms: performance.now() - t0 })
        const why = timedOut ? `no answer in ${Math.round(this.o.timeoutMs / 1000)} s` : `unreachable (${err.cause?.code ?? err.message})`
        if (!isRead && !neverSent) throw new MetrcError('ambiguous', `METRC ${why}; the write may or may not have been applied`, 0)
        last = new MetrcError(timedOut ? 'timeout' : 'unavailable', `METRC ${why}`, 0)
        await this.pause(attempt, undefined, path)
        continue
      }
      const text = await res.text()
      let parsed: unknown = null
      let unreadable: unknown
      if (res.ok && text)
        try {
          parsed = JSON.parse(text)
        } catch (e) {
          unreadable = e
        }
      this.o.onRequest?.({ method, path, status: res.status, ms: performance.now() - t0, rows: Array.isArray(parsed) ? parsed.length : isPaged(parsed) ? parsed.Data.length : undefined })
      if (res.ok) {
        if (unreadable) throw unreadable
        return parsed as T
      }
      const wait = retryAfterMs(res.headers.get('retry-after'))
      const err = metrcError(res.status, text, { rowOffset, retryAfterMs: wait })
      const retry = res.status === 429 || (res.status >= 500 && (isRead || res.status === 503))
      if (!retry) {
        if (!isRead && res.status >= 500) throw new MetrcError('ambiguous', `${err.message} (the write may or may not have been applied)`, res.status)
        throw err
      }
      last = err
      if (attempt < this.o.attempts) await this.pause(attempt, wait, path)
    }
    throw last ?? new MetrcError('unavailable', 'METRC did not answer', 0)
  }

  private async pause(attempt: number, retryAfter: number | undefined, path: string) {
    if (attempt >= this.o.attempts) return
    const { baseMs, maxMs } = this.o.backoff
    const backoff = Math.min(maxMs, baseMs * 2 ** (attempt - 1))
    const ms = retryAfter !== undefined ? Math.min(retryAfter, this.o.maxRetryAfterMs) : backoff / 2 + Math.random() * (backoff / 2)
    this.o.logger?.info({ path, attempt, waitMs: Math.round(ms) }, 'METRC busy or unreachable; retrying')
    await this.o.sleep(ms)
  }
}
