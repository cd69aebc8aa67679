/**
 * app/api-client against a fake fetch, with fake timers: SPEC §9's 8 requests per 500 ms (queued,
 * in order), one refresh and one retry after a 401, the 10 s timeout, and the error envelope.
 */
import { ApiError, createApiClient } from '#app/api-client/index'
import { createRateGate } from '#app/api-client/rate-gate'

interface Call {
  method: string
  path: string
  token?: string
  body?: unknown
  at: number
}

/** A fake Canopy: `handle` answers each call; every call is recorded with the (fake) time. */
function fakeServer(handle: (c: Call) => Response | Promise<Response>) {
  const calls: Call[] = []
  const fetch = (async (url: string, init: RequestInit = {}) => {
    const h = init.headers as Record<string, string>
    const c: Call = { method: init.method ?? 'GET', path: new URL(url).pathname, token: h['x-access-token'], body: init.body ? JSON.parse(String(init.body)) : undefined, at: Date.now() }
    calls.push(c)
    return handle(c)
  }) as unknown as typeof globalThis.fetch
  return { calls, fetch }
}
const json = (data: unknown, status = 200, headers: Record<string, string> = {}) => Response.json(data, { status, headers })
const envelope = (code: string, message: string, status: number, field?: string) => json({ errors: [{ code, message, ...(field ? { field } : {}) }] }, status)

beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the client rule: 8 requests per 500 ms', () => {
  it('queues a burst of 20 in order: 8 now, 8 after 500 ms, 4 after 1 s; none dropped', async () => {
    const s = fakeServer((c) => json({ n: Number(c.path.slice(3)) }))
    const client = createApiClient({ baseUrl: 'http://canopy.test/', token: 't', fetch: s.fetch })
    const all = Promise.all(Array.from({ length: 20 }, (_, i) => client.get<{ n: number }>(`/x/${i}`)))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.calls).toHaveLength(8)
    await vi.advanceTimersByTimeAsync(499)
    expect(s.calls).toHaveLength(8)
    await vi.advanceTimersByTimeAsync(1)
    expect(s.calls).toHaveLength(16)
    await vi.advanceTimersByTimeAsync(500)
    expect((await all).map((r) => r.n)).toEqual([...Array(20).keys()])
    expect(s.calls.map((c) => c.at)).toEqual([...Array(8).fill(0), ...Array(8).fill(500), ...Array(4).fill(1000)])
    expect(s.calls.map((c) => c.path)).toEqual([...Array(20).keys()].map((i) => `/x/${i}`))
  })

  it('is a sliding window: requests spread over time are never held longer than needed', async () => {
    const gate = createRateGate(8, 500)
    const started: number[] = []
    for (let i = 0; i < 40; i++) {
      void gate.acquire().then(() => started.push(Date.now()))
      await vi.advanceTimersByTimeAsync(37) // a steady 27/s asked for
    }
    await vi.advanceTimersByTimeAsync(5000)
    expect(started).toHaveLength(40)
    for (let i = 8; i < started.length; i++) expect(started[i] - started[i - 8]).toBeGreaterThanOrEqual(500)
    expect(started.slice(0, 8)).toEqual([0, 37, 74, 111, 148, 185, 222, 259]) // the first eight went at once
  })
})

describe('a 401 refreshes once and retries once', () => {
  it('refreshes through POST /auth/refresh and retries with the new token', async () => {
    const s = fakeServer((c) => {
      if (c.path === '/auth/refresh') return json({ 'x-access-token': 'new', 'refresh-token': 'r2', expiresIn: 900 })
      return c.token === 'new' ? json({ uid: 'u-grower' }) : envelope('UNAUTHENTICATED', 'the access token is invalid or has expired', 401)
    })
    const seen: unknown[] = []
    const client = createApiClient({ baseUrl: 'http://canopy.test', token: 'old', refreshToken: 'r1', fetch: s.fetch, onTokens: (t) => seen.push(t) })
    expect(await client.get('/auth/me')).toEqual({ uid: 'u-grower' })
    expect(s.calls.map((c) => [c.method, c.path, c.token ?? null])).toEqual([
      ['GET', '/auth/me', 'old'],
      ['POST', '/auth/refresh', null],
      ['GET', '/auth/me', 'new'],
    ])
    expect(s.calls[1].body).toEqual({ 'refresh-token': 'r1' })
    expect(client.tokens).toEqual({ token: 'new', refreshToken: 'r2' })
    expect(seen).toEqual([{ token: 'new', refreshToken: 'r2' }])
  })

  it('many requests failing together share one refresh (refresh tokens rotate: a second use would revoke them)', async () => {
    let refreshes = 0
    const s = fakeServer((c) => {
      if (c.path === '/auth/refresh') return (refreshes++, json({ 'x-access-token': 'new', 'refresh-token': 'r2' }))
      return c.token === 'new' ? json({ ok: c.path }) : envelope('UNAUTHENTICATED', 'expired', 401)
    })
    const client = createApiClient({ baseUrl: 'http://canopy.test', token: 'old', refreshToken: 'r1', fetch: s.fetch })
    const all = Promise.all([1, 2, 3, 4, 5].map((i) => client.get(`/dt/v1/t${i}`)))
    await vi.advanceTimersByTimeAsync(1000)
    expect(await all).toHaveLength(5)
    expect(refreshes).toBe(1)
  })

  it('gives up after one retry: a second 401 is thrown, with no second refresh', async () => {
    const s = fakeServer((c) => (c.path === '/auth/refresh' ? json({ 'x-access-token': 'new', 'refresh-token': 'r2' }) : envelope('UNAUTHENTICATED', 'the account can no longer sign in', 401)))
    const client = createApiClient({ baseUrl: 'http://canopy.test', token: 'old', refreshToken: 'r1', fetch: s.fetch })
    const e = await client.get('/auth/me').catch((x) => x)
    expect(e).toBeInstanceOf(ApiError)
    expect(e).toMatchObject({ code: 'UNAUTHENTICATED', status: 401, message: 'the account can no longer sign in' })
    expect(s.calls.map((c) => c.path)).toEqual(['/auth/me', '/auth/refresh', '/auth/me'])
  })

  it('a refused refresh falls back to a new login when the client knows the password', async () => {
    const s = fakeServer((c) => {
      if (c.path === '/auth/refresh') return envelope('UNAUTHENTICATED', 'the refresh token has expired', 401)
      if (c.path === '/auth/login') return json({ uid: 'u-grower', 'x-access-token': 'fresh', 'refresh-token': 'r9' })
      return c.token === 'fresh' ? json({ ok: true }) : envelope('UNAUTHENTICATED', 'expired', 401)
    })
    const client = createApiClient({ baseUrl: 'http://canopy.test', email: 'grower@greenleaf.demo', password: 'pw', token: 'old', refreshToken: 'r1', fetch: s.fetch })
    expect(await client.get('/dt/v1/fac_plants')).toEqual({ ok: true })
    expect(s.calls.map((c) => c.path)).toEqual(['/dt/v1/fac_plants', '/auth/refresh', '/auth/login', '/dt/v1/fac_plants'])
    expect(client.tokens).toEqual({ token: 'fresh', refreshToken: 'r9' })
  })

  it('signs in once before the first calls when made with email and password', async () => {
    const s = fakeServer((c) => (c.path === '/auth/login' ? json({ uid: 'u-grower', 'x-access-token': 'a', 'refresh-token': 'r' }) : json({ token: c.token })))
    const client = createApiClient({ baseUrl: 'http://canopy.test', email: 'grower@greenleaf.demo', password: 'pw', fetch: s.fetch })
    expect(await Promise.all([client.get('/a'), client.post('/b', { x: 1 })])).toEqual([{ token: 'a' }, { token: 'a' }])
    expect(s.calls.map((c) => c.path)).toEqual(['/auth/login', '/a', '/b'])
    expect(s.calls[0].body).toEqual({ email: 'grower@greenleaf.demo', password: 'pw' })
    expect(s.calls[2].body).toEqual({ x: 1 })
  })
})

describe('timeouts and errors', () => {
  /** a fetch that answers after `ms`, or fails as fetch does when its signal aborts */
  const slowFetch = (ms: number) =>
    ((_url: string, init: RequestInit) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => resolve(json({ ok: true })), ms)
        init.signal!.addEventListener('abort', () => (clearTimeout(t), reject(new DOMException('aborted', 'AbortError'))))
      })) as unknown as typeof fetch

  it('aborts a request after 10 s with a TIMEOUT error', async () => {
    const client = createApiClient({ baseUrl: 'http://canopy.test', token: 't', fetch: slowFetch(60_000) })
    const p = client.get('/dt/v1/x').catch((e) => e)
    await vi.advanceTimersByTimeAsync(9_999)
    await vi.advanceTimersByTimeAsync(1)
    const e = await p
    expect(e).toBeInstanceOf(ApiError)
    expect(e).toMatchObject({ code: 'TIMEOUT', status: 0, message: 'GET /dt/v1/x: no answer within 10000 ms' })
  })

  it('an answer just inside the 10 s arrives', async () => {
    const client = createApiClient({ baseUrl: 'http://canopy.test', token: 't', fetch: slowFetch(9_990) })
    const p = client.get('/dt/v1/x')
    await vi.advanceTimersByTimeAsync(9_990)
    expect(await p).toEqual({ ok: true })
  })

  it('throws the envelope as an ApiError: code, message, status, field, Retry-After', async () => {
    const s = fakeServer((c) =>
      c.path === '/busy'
        ? json({ errors: [{ code: 'TOO_MANY', message: 'Too many requests; try again in 3 seconds.' }] }, 429, { 'Retry-After': '3' })
        : c.path === '/bad'
          ? envelope('BAD_INPUT', 'expects a number', 400, 'qty')
          : new Response('<h1>oops</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    )
    const client = createApiClient({ baseUrl: 'http://canopy.test', token: 't', fetch: s.fetch })
    expect(await client.get('/busy').catch((e) => e)).toMatchObject({ code: 'TOO_MANY', status: 429, retryAfter: 3 })
    expect(await client.put('/bad', { qty: 'x' }).catch((e) => e)).toMatchObject({ code: 'BAD_INPUT', status: 400, field: 'qty', message: 'expects a number' })
    expect(await client.del('/proxy').catch((e) => e)).toMatchObject({ code: 'HTTP', status: 502, message: 'DELETE /proxy: HTTP 502' })
    expect(s.calls.map((c) => c.method)).toEqual(['GET', 'PUT', 'DELETE'])
  })

  it('a network failure is a NETWORK error; a 204 is undefined', async () => {
    const down = createApiClient({ baseUrl: 'http://canopy.test', token: 't', fetch: (() => Promise.reject(new TypeError('fetch failed'))) as unknown as typeof fetch })
    expect(await down.patch('/x', {}).catch((e) => e)).toMatchObject({ code: 'NETWORK', status: 0, message: 'PATCH /x: fetch failed' })
    const s = fakeServer(() => new Response(null, { status: 204 }))
    expect(await createApiClient({ baseUrl: 'http://canopy.test', token: 't', fetch: s.fetch }).del('/x')).toBeUndefined()
  })
})
