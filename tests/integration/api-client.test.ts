/**
 * app/api-client against the real sign-in routes (auth.login, auth.refresh, auth.me) in the real
 * Express app (createHttpApp, limits included) over HTTP, on a seeded database: login → /auth/me
 * → an expired token → refresh → retry; rotation; refusals as ApiError; the client's pace stays
 * under the server's rate limit.
 */
import { ApiError, createApiClient } from '#app/api-client/index'
import { MSG } from '#app/auth/rules'
import { signAccessToken } from '#app/auth/tokens.server'
import * as login from '#app/routes/auth.login'
import * as me from '#app/routes/auth.me'
import * as refresh from '#app/routes/auth.refresh'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, type TestDatabase } from '#tests/helpers/db'
import { startHttpApp, type TestServer } from '#tests/helpers/http-app'

const PW = 'Canopy#Demo1'
const GROWER = 'grower@greenleaf.demo'

let t: TestDatabase
let s: TestServer
beforeAll(async () => {
  t = await openTestDatabase()
  s = await startHttpApp({ routes: { 'auth/login': login, 'auth/refresh': refresh, 'auth/me': me }, database: t })
  await seedDemo(t, s.env)
})
afterAll(async () => {
  await s?.close()
  await t?.cleanup()
})

/** the client's fetch, with a record of what went over the wire */
const recorded = () => {
  const calls: string[] = []
  const f = ((url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`)
    return fetch(url, init)
  }) as typeof fetch
  return { calls, fetch: f }
}

describe(`API client against the real auth routes`, () => {
  it('logs in, reads /auth/me, and after the access token expires refreshes once and retries', async () => {
    const r = recorded()
    const client = createApiClient({ baseUrl: s.url, email: GROWER, password: PW, fetch: r.fetch })
    const user = await client.login()
    expect(user).toMatchObject({ uid: 'u-grower', email: GROWER, org: 'greenleaf' })
    expect(await client.get('/auth/me')).toMatchObject({ uid: 'u-grower', org: 'greenleaf' })

    // the token the server gave, but signed as if an hour ago: expired now
    const firstRefresh = client.tokens.refreshToken!
    const expired = signAccessToken(s.env.SESSION_SECRET, { sub: 'u-grower', orig: 'u-grower', org: 'greenleaf', role: 'user' }, 900, Date.now() - 3_600_000)
    client.setTokens({ token: expired })
    expect(await client.get('/auth/me')).toMatchObject({ uid: 'u-grower' })
    expect(r.calls).toEqual(['POST /auth/login', 'GET /auth/me', 'GET /auth/me', 'POST /auth/refresh', 'GET /auth/me'])
    expect(client.tokens.token).not.toBe(expired)
    expect(client.tokens.refreshToken).not.toBe(firstRefresh) // rotated

    // the spent refresh token is refused by the server (and a replay revokes the family)
    const stale = createApiClient({ baseUrl: s.url, token: expired, refreshToken: firstRefresh })
    const e = await stale.get('/auth/me').catch((x) => x)
    expect(e).toBeInstanceOf(ApiError)
    expect(e).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 })
  })

  it('a wrong password is an ApiError with the login-failed message', async () => {
    const client = createApiClient({ baseUrl: s.url, email: GROWER, password: 'Wrong#Pass1' })
    const e = await client.get('/auth/me').catch((x: unknown) => x)
    expect(e).toBeInstanceOf(ApiError)
    expect(e).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: MSG.loginFailed })
  })

  it('keeps to 8 requests per 500 ms, so a busy client stays under the server limit (20/s, burst 60); without the rule it is refused', async () => {
    const client = createApiClient({ baseUrl: s.url, email: GROWER, password: PW })
    const started = Date.now()
    const answers = await Promise.all(Array.from({ length: 64 }, () => client.get<{ uid: string }>('/auth/me')))
    expect(answers.every((a) => a.uid === 'u-grower')).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(8 * 500) // 65 requests with the login: 9 windows

    const unruly = createApiClient({ baseUrl: s.url, token: client.tokens.token, rate: { max: 1000, windowMs: 1 } })
    // more requests than a bucket of 60 refilled at 20/s lets through while a loaded machine answers them:
    // 150 all passed once when the server answered about 30 a second (the full run, with Chromium beside it)
    const results = await Promise.all(Array.from({ length: 400 }, () => unruly.get('/auth/me').catch((e: ApiError) => e)))
    const refused = results.filter((r): r is ApiError => r instanceof ApiError)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0]).toMatchObject({ code: 'TOO_MANY', status: 429, retryAfter: 1 })
  })
})
