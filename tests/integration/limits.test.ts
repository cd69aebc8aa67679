/**
 * The limits of app/server/limits.server.ts in the real Express app (createHttpApp) over HTTP:
 * the rate limit per caller and per address (429 + Retry-After, JSON for the API, a page for
 * browsers, probes never limited), body size (413 before the body is read), and the request
 * timeout (503, logged; the event stream exempt). The rate limit's clock is moved by hand.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { readJson } from '#app/api/respond.server'
import { signAccessToken } from '#app/auth/tokens.server'
import * as healthz from '#app/routes/healthz'
import { memoryLogger, startHttpApp, type TestServer } from '#tests/helpers/http-app'

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms))
const TIMEOUT_MS = 150

const routes = {
  healthz,
  'dt/v1/:table': {
    loader: () => Response.json({ ok: true }),
    action: async ({ request }: LoaderFunctionArgs) => {
      if (/multipart/.test(request.headers.get('content-type') ?? '')) return Response.json({ multipart: (await request.arrayBuffer()).byteLength })
      const body = await readJson(request, 100_000).catch((e) => e)
      return body instanceof Error ? Response.json({ errors: [{ code: (body as unknown as { code: string }).code }] }, { status: 413, headers: { Connection: 'close' } }) : Response.json({ got: JSON.stringify(body).length })
    },
  },
  Page: {
    loader: () => new Response('<p>page</p>', { headers: { 'Content-Type': 'text/html' } }),
    action: () => new Response('<p>saved</p>', { headers: { 'Content-Type': 'text/html' } }),
  },
  // answers well after the timeout: the timeout's 503 goes first, the late answer is dropped
  'dt/slow': { loader: async () => (await delay(TIMEOUT_MS * 3), Response.json({ late: true })) },
  SlowPage: { loader: async () => (await delay(TIMEOUT_MS * 3), new Response('late')) },
  events: { loader: async () => (await delay(TIMEOUT_MS * 2), new Response('stream', { headers: { 'Content-Type': 'text/plain' } })) },
}

let clock = 1_000_000
let s: TestServer
const log = memoryLogger()
beforeAll(async () => {
  s = await startHttpApp({
    routes,
    now: () => clock,
    logger: log.logger,
    env: { RATE_LIMIT_PER_SEC: 2, RATE_LIMIT_BURST: 5, RATE_LIMIT_ADDRESS_PER_SEC: 10, RATE_LIMIT_ADDRESS_BURST: 20, REQUEST_TIMEOUT_MS: TIMEOUT_MS },
  })
})
afterAll(() => s?.close())

let addr = 0
/** a fresh client address per test (the app trusts X-Forwarded-For from loopback, as behind a proxy) */
const nextAddress = () => `203.0.113.${++addr}`
const get = (path: string, headers: Record<string, string> = {}) => fetch(s.url + path, { headers })
const token = (sub: string) => signAccessToken(s.env.SESSION_SECRET, { sub, orig: sub, org: 'greenleaf', role: 'user' })

describe('rate limit', () => {
  it('gives a signed-in caller its burst, then 429 with Retry-After in the envelope; another caller at the same address is unaffected', async () => {
    const from = nextAddress()
    const a = { 'x-access-token': token('u-a'), 'x-forwarded-for': from }
    for (let i = 0; i < 5; i++) expect((await get('/dt/v1/fac_plants', a)).status).toBe(200)
    const refused = await get('/dt/v1/fac_plants', a)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1') // one token at 2/s: half a second, rounded up
    expect(refused.headers.get('content-type')).toMatch(/application\/json/)
    expect(await refused.json()).toEqual({ errors: [{ code: 'TOO_MANY', message: 'Too many requests; try again in 1 second.' }] })
    expect((await get('/dt/v1/fac_plants', { 'x-access-token': token('u-b'), 'x-forwarded-for': from })).status).toBe(200)
    clock += 500 // one token back
    expect((await get('/dt/v1/fac_plants', a)).status).toBe(200)
    expect((await get('/dt/v1/fac_plants', a)).status).toBe(429)
  })

  it('counts a session cookie as a caller', async () => {
    const from = nextAddress()
    const cookie = (id: string) => ({ cookie: `theme=dark; canopy_sid=${id}`, 'x-forwarded-for': from })
    for (let i = 0; i < 5; i++) expect((await get('/Page', cookie('A'.repeat(32)))).status).toBe(200)
    expect((await get('/Page', cookie('A'.repeat(32)))).status).toBe(429)
    expect((await get('/Page', cookie('B'.repeat(32)))).status).toBe(200)
  })

  it('limits an address as a whole: a page gets a short page, another address and the probes are unaffected', async () => {
    const from = nextAddress()
    for (let i = 0; i < 20; i++) expect((await get('/dt/v1/x', { 'x-forwarded-for': from })).status).toBe(200)
    const api = await get('/dt/v1/x', { 'x-forwarded-for': from })
    expect(api.status).toBe(429)
    expect(api.headers.get('retry-after')).toBe('1')
    const page = await get('/Page', { 'x-forwarded-for': from, accept: 'text/html' })
    expect(page.status).toBe(429)
    expect(page.headers.get('retry-after')).toBe('1')
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(await page.text()).toMatch(/<h1>Too many requests<\/h1>.*try again in 1 second/)
    // a signed-in caller with tokens left is still refused: the address is empty
    expect((await get('/dt/v1/x', { 'x-forwarded-for': from, 'x-access-token': token('u-c') })).status).toBe(429)
    expect((await get('/healthz', { 'x-forwarded-for': from })).status).toBe(200)
    expect((await get('/dt/v1/x', { 'x-forwarded-for': nextAddress() })).status).toBe(200)
    clock += 1000 // 10 tokens back at 10/s
    for (let i = 0; i < 10; i++) expect((await get('/dt/v1/x', { 'x-forwarded-for': from })).status).toBe(200)
    expect((await get('/dt/v1/x', { 'x-forwarded-for': from })).status).toBe(429)
  })

  it('a forged token counts as no caller: only the address limit applies', async () => {
    const from = nextAddress()
    const forged = token('u-d').slice(0, -4) + 'AAAA'
    for (let i = 0; i < 20; i++) expect((await get('/dt/v1/x', { 'x-forwarded-for': from, 'x-access-token': forged })).status).toBe(200)
    expect((await get('/dt/v1/x', { 'x-forwarded-for': from, 'x-access-token': forged })).status).toBe(429)
  })
})

describe('body size', () => {
  const post = (path: string, body: BodyInit, headers: Record<string, string>, from = nextAddress()) =>
    fetch(s.url + path, { method: 'POST', body, headers: { 'x-forwarded-for': from, ...headers }, duplex: 'half' } as RequestInit)

  it('refuses a 50 MB JSON body to the API with 413 in the envelope, before reading it', async () => {
    const r = await post('/dt/v1/x', Buffer.alloc(50 * 1024 * 1024, 0x20), { 'content-type': 'application/json' })
    expect(r.status).toBe(413)
    expect(r.headers.get('connection')).toBe('close')
    expect(await r.json()).toEqual({ errors: [{ code: 'TOO_LARGE', message: 'The request body is larger than 2048 kB.' }] })
    // the server is fine afterwards
    expect((await post('/dt/v1/x', JSON.stringify({ a: 1 }), { 'content-type': 'application/json' })).status).toBe(200)
  })

  it('refuses an oversized form post to a page with a short page; small bodies and multipart pass the guard', async () => {
    const big = await post('/Page', 'a=' + 'x'.repeat(3 * 1024 * 1024), { 'content-type': 'application/x-www-form-urlencoded' })
    expect(big.status).toBe(413)
    expect(await big.text()).toMatch(/<h1>Request too large<\/h1>/)
    expect((await post('/Page', 'a=1', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(200)
    const multipart = await post('/dt/v1/x', 'x'.repeat(3 * 1024 * 1024), { 'content-type': 'multipart/form-data; boundary=b' })
    expect(await multipart.json()).toEqual({ multipart: 3 * 1024 * 1024 }) // app/files enforces MAX_UPLOAD_MB
  })

  it('caps a JSON body sent without a length while it streams (readJson)', async () => {
    // far more than the socket buffers between the two can hold (a loaded machine let 5 MB through them)
    const whole = 64 * 1024 * 1024
    let sent = 0
    const chunk = new Uint8Array(64 * 1024).fill(0x20)
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= whole) return c.close()
        sent += chunk.byteLength
        c.enqueue(chunk)
      },
    })
    const r = await post('/dt/v1/x', stream, { 'content-type': 'application/json' })
    expect(r.status).toBe(413)
    expect(await r.json()).toEqual({ errors: [{ code: 'TOO_LARGE' }] })
    expect(sent).toBeLessThan(whole / 2) // the client was stopped, not read to the end
  })
})

describe('request timeout', () => {
  it('answers 503 in the envelope when an API handler has not answered in time, logs it, and drops the late answer', async () => {
    const r = await get('/dt/slow', { 'x-forwarded-for': nextAddress() })
    expect(r.status).toBe(503)
    expect(await r.json()).toEqual({ errors: [{ code: 'UNAVAILABLE', message: 'The server did not answer within 150 ms; try again.' }] })
    expect(log.lines.some((l) => l.msg === 'request timed out: answered 503' && l.path === '/dt/slow' && l.timeoutMs === TIMEOUT_MS)).toBe(true)
    await delay(TIMEOUT_MS * 3) // the handler's own answer arrives now, to a closed exchange
    expect((await get('/dt/v1/x', { 'x-forwarded-for': nextAddress() })).status).toBe(200)
    expect(log.lines.filter((l) => l.level === 50 && /headers/i.test(String((l.err as { message?: string })?.message)))).toEqual([])
  })

  it('answers a page to a browser, and leaves the event stream alone', async () => {
    const r = await get('/SlowPage', { 'x-forwarded-for': nextAddress() })
    expect(r.status).toBe(503)
    expect(await r.text()).toMatch(/<h1>The server is busy<\/h1>/)
    const events = await get('/events', { 'x-forwarded-for': nextAddress() })
    expect(events.status).toBe(200)
    expect(await events.text()).toBe('stream')
  })
})
