/**
 * A small typed client for Canopy's JSON API (SPEC §7), for the device simulator, scripts and
 * tests. Isomorphic: only fetch, AbortController and timers, no server code.
 *
 *   - signs in with POST /auth/login (lazily, on the first call, when given email and password);
 *   - sends `x-access-token`; after a 401 it renews once (POST /auth/refresh, or a new login when
 *     there is no refresh token) and retries that request once;
 *   - honours SPEC §9: at most 8 requests start per 500 ms (queued in order, never dropped);
 *   - gives every request 10 s (SPEC §9's auth client timeout), then aborts it;
 *   - answers the parsed JSON, or throws an ApiError with the envelope's code, message and status.
 * See app/api-client/README.md.
 */
import { createRateGate, type RateGate } from './rate-gate'

export interface Tokens {
  token?: string
  refreshToken?: string
}

export interface ApiClientOptions extends Tokens {
  /** where Canopy answers, e.g. http://localhost:3000 */
  baseUrl: string
  email?: string
  password?: string
  /** a fetch to use instead of the global one (tests, instrumented clients) */
  fetch?: typeof fetch
  /** per request, 10 s unless given */
  timeoutMs?: number
  /** the client rule, { max: 8, windowMs: 500 } unless given */
  rate?: { max: number; windowMs: number }
  /** told whenever the tokens change (login, refresh), e.g. to keep them for the next run */
  onTokens?: (t: Tokens) => void
}

/** Codes of the server's envelope (app/utils/errors.ts), plus TIMEOUT, NETWORK and HTTP for failures without one. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** the HTTP status; 0 when no answer came */
    readonly status: number,
    readonly extra: { field?: string; retryAfter?: number; body?: unknown } = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }
  get field() {
    return this.extra.field
  }
  /** seconds, from a 429's Retry-After */
  get retryAfter() {
    return this.extra.retryAfter
  }
}

export interface ApiClient {
  /** signs in with the email and password the client was made with; answers the user data */
  login(): Promise<Record<string, unknown>>
  get<T = unknown>(path: string): Promise<T>
  post<T = unknown>(path: string, body?: unknown): Promise<T>
  put<T = unknown>(path: string, body?: unknown): Promise<T>
  patch<T = unknown>(path: string, body?: unknown): Promise<T>
  del<T = unknown>(path: string, body?: unknown): Promise<T>
  /** the current tokens */
  readonly tokens: Tokens
  setTokens(t: Tokens): void
}

export const DEFAULT_TIMEOUT_MS = 10_000

interface Answer {
  status: number
  data: unknown
  headers: Headers
}

export function createApiClient(o: ApiClientOptions): ApiClient {
  const doFetch = o.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a))
  const base = o.baseUrl.replace(/\/+$/, '')
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const gate: RateGate = createRateGate(o.rate?.max ?? 8, o.rate?.windowMs ?? 500)
  const tokens: Tokens = { token: o.token, refreshToken: o.refreshToken }
  let renewing: Promise<boolean> | null = null
  let signingIn: Promise<unknown> | null = null

  const setTokens = (t: Tokens) => {
    Object.assign(tokens, t)
    o.onTokens?.({ ...tokens })
  }

  /** One HTTP exchange: waits its turn, then at most timeoutMs for the whole answer. */
  async function send(method: string, path: string, body: unknown, token: string | undefined): Promise<Answer> {
    if (!path.startsWith('/')) throw new ApiError('BAD_INPUT', `the path must start with "/": ${path}`, 0)
    await gate.acquire()
    const ctrl = new AbortController()
    const timer = setTimeout(() => ctrl.abort(), timeoutMs)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (token) headers['x-access-token'] = token
    try {
      const res = await doFetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: ctrl.signal })
      const text = await res.text()
      let data: unknown = text
      if (text && /json/i.test(res.headers.get('content-type') ?? '')) {
        try {
          data = JSON.parse(text)
        } catch {
          // answered as JSON but is not: keep the text
        }
      }
      return { status: res.status, data: text ? data : undefined, headers: res.headers }
    } catch (e) {
      if (ctrl.signal.aborted) throw new ApiError('TIMEOUT', `${method} ${path}: no answer within ${timeoutMs} ms`, 0)
      throw new ApiError('NETWORK', `${method} ${path}: ${(e as Error).message}`, 0)
    } finally {
      clearTimeout(timer)
    }
  }

  /** The answer's data, or its refusal as an ApiError. */
  function unwrap(a: Answer, what: string): unknown {
    if (a.status >= 200 && a.status < 300) return a.data
    const first = (a.data as { errors?: Array<{ code?: string; message?: string; field?: string }> } | undefined)?.errors?.[0]
    const retry = Number(a.headers.get('retry-after'))
    throw new ApiError(first?.code ?? 'HTTP', first?.message ?? `${what}: HTTP ${a.status}`, a.status, {
      field: first?.field,
      retryAfter: Number.isFinite(retry) && retry > 0 ? retry : undefined,
      body: a.data,
    })
  }

  async function login(): Promise<Record<string, unknown>> {
    if (!o.email || !o.password) throw new ApiError('UNAUTHENTICATED', 'this client was made without email and password', 0)
    const user = unwrap(await send('POST', '/auth/login', { email: o.email, password: o.password }, undefined), 'login') as Record<string, unknown>
    setTokens({ token: String(user['x-access-token']), refreshToken: String(user['refresh-token']) })
    return user
  }

  /** A new access token: refresh when we can, else log in again. One at a time (refresh tokens rotate). */
  function renew(): Promise<boolean> {
    renewing ??= (async () => {
      try {
        if (tokens.refreshToken) {
          const a = await send('POST', '/auth/refresh', { 'refresh-token': tokens.refreshToken }, undefined)
          if (a.status === 200) {
            const d = a.data as Record<string, string>
            setTokens({ token: d['x-access-token'], refreshToken: d['refresh-token'] })
            return true
          }
          if (a.status !== 401) unwrap(a, 'refresh')
          setTokens({ refreshToken: undefined }) // spent, revoked or expired: no use trying it again
        }
        if (o.email && o.password) return (await login(), true)
        return false
      } finally {
        renewing = null
      }
    })()
    return renewing
  }

  async function call(method: string, path: string, body?: unknown): Promise<never> {
    // the first call signs in (once, however many calls start together)
    if (!tokens.token && o.email && o.password) await (signingIn ??= login().finally(() => (signingIn = null)))
    const used = tokens.token
    let a = await send(method, path, body, used)
    if (a.status === 401 && !path.startsWith('/auth/login') && !path.startsWith('/auth/refresh')) {
      // another request may have renewed the token meanwhile: then just retry with the new one
      const fresh = tokens.token !== used || (await renew())
      if (fresh) a = await send(method, path, body, tokens.token)
    }
    return unwrap(a, `${method} ${path}`) as never
  }

  return {
    login,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
    patch: (path, body) => call('PATCH', path, body),
    del: (path, body) => call('DELETE', path, body),
    get tokens() {
      return { ...tokens }
    },
    setTokens,
  }
}
