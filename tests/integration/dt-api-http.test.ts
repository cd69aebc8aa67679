/**
 * The security-relevant /dt/v1 checks through the real HTTP server (issue 29 item 14): the
 * Express app (createHttpApp: the cross-site check, the body limit, logging) and Remix's own
 * routing in front of the real route modules, over a socket with fetch, on the real database.
 * tests/integration/dt-api.test.ts calls the route modules directly; this file is what a client
 * on the network meets: sign-in, one organisation never reaching another, rights, row locks,
 * cross-site posts, oversized bodies and hostile paths.
 */
import { signAccessToken } from '#app/auth/tokens.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { BODY_LIMIT_BYTES } from '#app/server/limits.server'
import * as dtList from '#app/routes/dt.v1.$table'
import * as dtOne from '#app/routes/dt.v1.$table.$id'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { startHttpApp, type TestServer } from '#tests/helpers/http-app'

const seedActor = { uid: 'u-seed', requestId: 'dt-http-test' }
let t: TestDatabase
let env: Env
let s: TestServer

const USERS = [
  { uid: 'h-a', role: 'user', org: 'greenleaf', modules: { greenleaf: ['cul'] } },
  { uid: 'h-b', role: 'user', org: 'harbor', modules: { harbor: ['cul'] } },
  { uid: 'h-dis', role: 'user', org: 'greenleaf', modules: { greenleaf: ['dis'] } },
] as const

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  for (const org of ['greenleaf', 'harbor']) await t.store.insert(seedActor, 'auth', 'org', { _id: org, name: org, fullName: `${org} full` })
  for (const u of USERS)
    await t.store.insert(seedActor, 'auth', 'users', { _id: u.uid, uid: u.uid, email: `${u.uid}@x.test`, role: u.role, org: u.org, web: 'yes', props: { facilities: Object.keys(u.modules), modules: u.modules } })
  for (const org of ['greenleaf', 'harbor']) {
    await t.store.insert(seedActor, org, 'set_strains', { _id: 's1', name: `Strain of ${org}` })
    await t.store.insert(seedActor, org, 'set_rooms', { _id: 'r1', name: `Room of ${org}` })
    await t.store.insert(seedActor, org, 'fac_plants', { _id: 'p1', tag: `${org}-P1`, strain: 's1', room: 'r1', notes: `${org} secret` })
  }
  await t.store.insert(seedActor, 'greenleaf', 'fac_plants', { _id: 'p-locked', tag: 'LOCK', strain: 's1', room: 'r1', ed: 'no', delete: 'no' })
  s = await startHttpApp({ routes: { 'dt/v1/:table': dtList, 'dt/v1/:table/:id': dtOne }, database: t, env })
})
afterAll(async () => {
  await s?.close()
  await t?.cleanup()
})

const token = (uid: string) => {
  const u = USERS.find((x) => x.uid === uid)!
  return signAccessToken(env.SESSION_SECRET, { sub: uid, orig: uid, org: u.org, role: u.role })
}
async function call(method: string, path: string, o: { as?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(o.as === null ? {} : { 'x-access-token': token(o.as ?? 'h-a') }), ...o.headers }
  const text = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body))
  if (text !== undefined) headers['content-type'] ??= 'application/json'
  const res = await fetch(`${s.url}/dt/v1/${path}`, { method, headers, body: text })
  const type = res.headers.get('content-type') ?? ''
  return { status: res.status, type, body: type.includes('json') ? await res.json() : await res.text() }
}
const stored = (org: string, id: string) => t.store.get(org, 'fac_plants', id)
const codes = (b: any) => (b?.errors ?? []).map((e: any) => e.code)

describe('/dt/v1 over HTTP (the Express app and Remix routing in front of the route modules)', () => {
  it('answers 401 in the JSON envelope without a token, with a forged one or with one signed by another secret', async () => {
    const other = signAccessToken('x'.repeat(48), { sub: 'h-a', orig: 'h-a', org: 'greenleaf', role: 'user' })
    for (const headers of [{} as Record<string, string>, { 'x-access-token': 'nope' }, { 'x-access-token': `${token('h-a').slice(0, -3)}xyz` }, { 'x-access-token': other }]) {
      const r = await call('GET', 'fac_plants', { as: null, headers })
      expect(r.status).toBe(401)
      expect(r.type).toContain('application/json')
      expect(codes(r.body)).toEqual(['UNAUTHENTICATED'])
    }
  })

  it('reads, changes and deletes only its own organisation rows, though harbor has the same ids', async () => {
    expect((await call('GET', 'fac_plants')).body.map((d: any) => d.tag).sort()).toEqual(['LOCK', 'greenleaf-P1'])
    expect((await call('GET', 'fac_plants/p1', { as: 'h-b' })).body.notes).toBe('harbor secret')
    const before = await stored('harbor', 'p1')
    expect((await call('PUT', 'fac_plants/p1', { body: { notes: 'changed over http' } })).status).toBe(200)
    expect((await call('DELETE', 'fac_plants/p1')).status).toBe(200)
    expect(await stored('greenleaf', 'p1')).toBeNull()
    expect(await stored('harbor', 'p1')).toEqual(before)
    expect((await call('GET', 'fac_plants?_id=p1')).body).toEqual([])
    // a body naming another organisation does not reach it
    const made = await call('POST', 'fac_plants', { body: { tag: 'ORG-TRY', strain: 's1', room: 'r1', org: 'harbor' } })
    expect(made.status).toBe(400)
    expect((await call('GET', 'fac_plants?tag=ORG-TRY', { as: 'h-b' })).body).toEqual([])
    expect((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM c_fac_plants WHERE doc->>'tag' = 'ORG-TRY'`)).rows[0].n).toBe(0)
  })

  it('holds module entitlements and row locks', async () => {
    for (const [m, p] of [['GET', 'fac_plants'], ['GET', 'fac_plants/p-locked'], ['DELETE', 'fac_plants/p-locked']] as const) {
      const r = await call(m, p, { as: 'h-dis' })
      expect(r.status, `${m} ${p}`).toBe(403)
      expect(codes(r.body)).toEqual(['FORBIDDEN'])
    }
    expect((await call('PUT', 'fac_plants/p-locked', { body: { notes: 'x' } })).status).toBe(403)
    expect((await call('DELETE', 'fac_plants/p-locked')).status).toBe(403)
    expect((await stored('greenleaf', 'p-locked'))!.notes).toBeUndefined()
  })

  it('refuses a cross-site post that carries the browser session cookie before any route runs; a token-only call is an API call', async () => {
    const cross = { 'sec-fetch-site': 'cross-site', cookie: 'canopy_sid=whatever' }
    const r = await call('POST', 'fac_plants', { headers: cross, body: { tag: 'XSITE', strain: 's1', room: 'r1' } })
    expect(r.status).toBe(403)
    expect(r.body).toMatch(/Cross-site requests are refused/)
    const origin = await call('DELETE', 'fac_plants/p-locked', { headers: { origin: 'https://evil.example', cookie: 'canopy_sid=x' } })
    expect(origin.status).toBe(403)
    expect((await call('GET', 'fac_plants?tag=XSITE')).body).toEqual([])
    const api = await call('POST', 'fac_plants', { headers: { 'sec-fetch-site': 'cross-site' }, body: { tag: 'XSITE-API', strain: 's1', room: 'r1' } })
    expect(api.status).toBe(201)
  })

  it('refuses a body over the limit with 413 and stores nothing', async () => {
    const big = JSON.stringify({ tag: 'BIG', strain: 's1', room: 'r1', notes: 'x'.repeat(BODY_LIMIT_BYTES + 10) })
    const r = await call('POST', 'fac_plants', { raw: big })
    expect(r.status).toBe(413)
    expect((await call('GET', 'fac_plants?tag=BIG')).body).toEqual([])
  })

  it('hostile paths and table names are 4xx, never a 500, and read nothing of another organisation', async () => {
    for (const p of ['..%2F..%2Fusers', 'fac_plants%00', 'c_fac_plants', 'fac_plants;DROP%20TABLE%20x', 'fac_plants/..%2Fp1', 'users%2F..%2Ffac_plants', '%2e%2e/%2e%2e/etc/passwd', 'fac_plants/p1%27--']) {
      const r = await call('GET', p)
      expect(r.status, p).toBeGreaterThanOrEqual(400)
      expect(r.status, p).toBeLessThan(500)
      expect(JSON.stringify(r.body), p).not.toContain('harbor secret')
    }
  })
})
