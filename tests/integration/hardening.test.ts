/**
 * Issue 20 against the built server as a process (build/server.js, what `npm start` runs), on
 * TEST_DB: a hostile pipeline never freezes the process (item 1), security headers and no-store
 * (item 9), error pages without stack traces (item 10), NUL in an address (item 11), the API
 * writes no more than the screens (item 5), the EULA for API tokens and the OpenAPI document behind
 * sign-in (item 12), a sign-in link from another site asks first (item 7). Needs `npm run build` first.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createPgSchema, freshOptions, TEST_DB } from '#tests/helpers/db'
import { ROOT, startServer } from '#tests/helpers/process'
import { startHttpApp } from '#tests/helpers/http-app'

const PW = 'Canopy#Demo1'
let s: Awaited<ReturnType<typeof startServer>>
let drop: () => Promise<void>

beforeAll(async () => {
  if (!fs.existsSync(path.join(ROOT, 'build/server.js'))) throw new Error('build/server.js is missing: run npm run build first')
  const f = freshOptions()
  drop = f.drop
  await createPgSchema(f.opts.pgSchema)
  s = await startServer({ ...f.childEnv, PIPELINE_TIMEOUT_MS: '3000', RATE_LIMIT_PER_SEC: '1000', RATE_LIMIT_BURST: '5000', RATE_LIMIT_ADDRESS_PER_SEC: '1000', RATE_LIMIT_ADDRESS_BURST: '5000' })
}, 240_000)
afterAll(async () => {
  s?.proc.kill('SIGTERM')
  await s?.exited
  await drop?.()
})

async function token(email: string): Promise<string> {
  const r = await fetch(`${s.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PW }) })
  expect(r.status).toBe(200)
  return (await r.json())['x-access-token']
}

/** Signs in through the login form (as a browser without JavaScript) and returns the session cookie. */
async function session(email: string): Promise<string> {
  const r = await fetch(`${s.url}/Welcome`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ email, password: PW }) })
  expect(r.status).toBe(302)
  const c = r.headers.get('set-cookie')?.match(/canopy_sid=[^;]+/)?.[0]
  expect(c).toBeTruthy()
  return c!
}

describe('item 1: a hostile pipeline never freezes the server', () => {
  it(`/readyz answers within 1 s while a $lookup + $unwind pipeline runs on ${TEST_DB}; the pipeline ends with a clear 4xx/503`, async () => {
    const t = await token('grower@greenleaf.demo')
    const lookup = (as: string) => ({ $lookup: { from: 'fac_plants', localField: 'alive', foreignField: 'alive', as } })
    const hostile = [lookup('a'), { $unwind: '$a' }, lookup('b'), { $unwind: '$b' }, { $count: 'n' }]
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200)
    const started = Date.now()
    const pipe = fetch(`${s.url}/misc/dbops?c=fac_plants&op=pipe`, { method: 'POST', headers: { 'x-access-token': t, 'content-type': 'application/json' }, body: JSON.stringify(hostile), signal: AbortSignal.timeout(60_000) })
    let done = false
    void pipe.finally(() => (done = true))
    const probes: number[] = []
    while (!done || probes.length < 5) {
      const t0 = Date.now()
      const r = await fetch(`${s.url}/readyz`, { signal: AbortSignal.timeout(5_000) })
      probes.push(Date.now() - t0)
      expect(r.status).toBe(200)
      await new Promise((res) => setTimeout(res, 100))
      if (Date.now() - started > 30_000) break
    }
    const answer = await pipe
    console.log(`hostile pipeline answered ${answer.status} after ${Date.now() - started} ms; readyz took ${probes.join(', ')} ms`)
    expect(Math.max(...probes), `readyz took ${probes.join(', ')} ms`).toBeLessThan(1000)
    expect([400, 503]).toContain(answer.status)
    const body = await answer.json()
    expect(body.errors[0].message).toMatch(TEST_DB === 'pg' ? /ran longer than 3 s and was stopped/ : /would take too long .* narrow it with \$match or \$limit/)
    // an ordinary pipeline still runs
    const ok = await fetch(`${s.url}/misc/dbops?c=fac_plants&op=pipe`, { method: 'POST', headers: { 'x-access-token': t, 'content-type': 'application/json' }, body: JSON.stringify([{ $match: { alive: 'yes' } }, { $sort: { tag: 1 } }, { $limit: 3 }]) })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toHaveLength(3)
  }, 90_000)
})

describe('item 9: security headers', () => {
  it('every page says no framing by others, nosniff, no referrer to other sites, and a CSP whose nonce the page scripts carry', async () => {
    const r = await fetch(`${s.url}/Welcome`)
    expect(r.status).toBe(200)
    const csp = r.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/frame-ancestors 'self'/)
    expect(csp).toMatch(/object-src 'none'/)
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeTruthy()
    expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(r.headers.get('x-content-type-options')).toBe('nosniff')
    expect(r.headers.get('referrer-policy')).toBe('same-origin')
    const html = await r.text()
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts.filter((x) => !/\bsrc=/.test(x))) expect(tag).toContain(`nonce="${nonce}"`)
    // a new nonce per answer
    const again = await fetch(`${s.url}/Welcome`)
    expect(again.headers.get('content-security-policy')).not.toContain(nonce!)
  })

  it('signed-in pages and API answers are never stored (shared kiosks); fingerprinted assets still are', async () => {
    const c = await session('grower@greenleaf.demo')
    for (const p of ['/Welcome', '/culPlants']) {
      const r = await fetch(`${s.url}${p}`, { headers: { cookie: c } })
      expect(r.status, p).toBe(200)
      expect(r.headers.get('cache-control'), p).toBe('no-store')
    }
    const api = await fetch(`${s.url}/dt/v1/fac_plants?limit=1`, { headers: { 'x-access-token': await token('grower@greenleaf.demo') } })
    expect(api.headers.get('cache-control')).toBe('no-store')
    const html = await (await fetch(`${s.url}/Welcome`)).text()
    const asset = html.match(/\/build\/_shared\/[^"]+\.js/)![0]
    expect((await fetch(`${s.url}${asset}`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })
})

describe('item 10 and 11: error pages and NUL', () => {
  it('a malformed address is a short 400 page without a stack trace or a file path', async () => {
    for (const p of ['/%E0%A4%A', '/culPlants/%E0%A4%A', '/build/%E0%A4%A']) {
      const r = await fetch(`${s.url}${p}`)
      expect(r.status, p).toBe(400)
      const body = await r.text()
      expect(body, p).not.toMatch(/\bat \w|node_modules|\/work\/|\.js:\d+|URIError/)
    }
  })

  it('whatever NODE_ENV says (here the test runner\'s), Express\'s own errors are plain pages or the envelope', async () => {
    const app = await startHttpApp({ routes: { 'dt/v1/:table': { loader: () => Response.json([]) } } })
    try {
      for (const p of ['/%E0%A4%A', '/dt/v1/%E0%A4%A']) {
        const r = await fetch(`${app.url}${p}`)
        expect(r.status, p).toBe(400)
        expect(await r.text(), p).not.toMatch(/\bat \w|node_modules|\/work\/|\.js:\d+|URIError/)
      }
    } finally {
      await app.close()
    }
  })

  it('a NUL in a table search or an API filter is a clear 400, not a 500 or 503', async () => {
    const t = await token('grower@greenleaf.demo')
    const api = await fetch(`${s.url}/dt/v1/fac_plants?tag=a%00b`, { headers: { 'x-access-token': t } })
    expect(api.status).toBe(400)
    expect((await api.json()).errors[0].message).toMatch(/NUL character/)
    const c = await session('grower@greenleaf.demo')
    const page = await fetch(`${s.url}/culPlants?q=a%00b&qf=tag`, { headers: { cookie: c } })
    expect(page.status).toBe(400)
    expect(await page.text()).toMatch(/NUL character/)
    const pipe = await fetch(`${s.url}/misc/dbops?c=fac_plants&op=pipe`, { method: 'POST', headers: { 'x-access-token': t, 'content-type': 'application/json' }, body: JSON.stringify([{ $match: { tag: 'a\u0000b' } }]) })
    expect(pipe.status).toBe(400)
    expect((await pipe.json()).errors[0].message).toMatch(/NUL character .* at 0\.\$match\.tag/)
  })
})

describe('item 12: the licence agreement applies to API tokens', () => {
  it('an account that has not accepted the EULA gets no API token', async () => {
    const r = await fetch(`${s.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'newgrower@lobby.demo', password: PW }) })
    expect(r.status).toBe(403)
    const body = await r.json()
    expect(body['x-access-token']).toBeUndefined()
    expect(body.errors[0].message).toMatch(/accept the licence agreement \(EULA\) first/)
  })
})

describe('item 5: the API writes no more than the screens', () => {
  const api = async (tok: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(`${s.url}/dt/v1/${path}`, { method, headers: { 'x-access-token': tok, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: r.status, body: await r.json() }
  }

  it('the grower reads the sensor devices (the Sensors dashboard) but cannot create, rename or delete one; the tables the grower edits still take writes', async () => {
    const t = await token('grower@greenleaf.demo')
    const before = await api(t, 'GET', 'sen_devices?limit=1000')
    expect(before.status).toBe(200)
    expect(before.body.length).toBeGreaterThan(0)
    const d = before.body[0]
    const tries = [
      await api(t, 'POST', 'sen_devices', { deviceID: 'SEN-GROWER', deviceName: 'Made by the grower', type: 'sensor' }),
      await api(t, 'PUT', `sen_devices/${d._id}`, { deviceName: 'Renamed by the grower' }),
      await api(t, 'PATCH', `sen_devices/${d._id}`, { deviceName: 'Renamed by the grower' }),
      await api(t, 'DELETE', `sen_devices/${d._id}`),
    ]
    for (const r of tries) {
      expect(r.status, JSON.stringify(r.body)).toBe(403)
      expect(r.body.errors[0].code).toBe('FORBIDDEN')
    }
    expect((await api(t, 'GET', 'sen_devices?limit=1000')).body).toEqual(before.body)
    // the screens say the same: no device settings screen, and the dashboard's device table offers no Add Item
    const c = await session('grower@greenleaf.demo')
    expect((await fetch(`${s.url}/SetSensorDevices`, { headers: { cookie: c } })).status).toBe(403)
    const board = await fetch(`${s.url}/DshSensors`, { headers: { cookie: c } })
    expect(board.status).toBe(200)
    expect(await board.text()).not.toContain('href="/DshSensors/new')
    // a table the grower edits on its screen (Plants) still takes an API write
    const [plant] = (await api(t, 'GET', 'fac_plants?limit=1')).body
    const put = await api(t, 'PUT', `fac_plants/${plant._id}`, { notes: 'checked by the hardening test' })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body.notes).toBe('checked by the hardening test')
  })

  it("the greenleaf admin is refused the preferences of a lobby user (another facility's); super is not", async () => {
    const admin = await token('admin@greenleaf.demo')
    const sup = await token('super@canopy.local')
    const post = await api(admin, 'POST', 'set_preferences', { uid: 'u-lobby', light: 'yes' })
    expect(post.status).toBe(403)
    expect(post.body.errors[0].code).toBe('FORBIDDEN')
    expect((await api(admin, 'GET', 'set_preferences?uid=u-lobby')).status).toBe(403)
    const made = await api(sup, 'POST', 'set_preferences', { uid: 'u-lobby', light: 'no' })
    expect(made.status).toBe(201)
    expect((await api(admin, 'PATCH', `set_preferences/${made.body._id}`, { light: 'yes' })).status).toBe(404)
    expect((await api(admin, 'GET', `set_preferences/${made.body._id}`)).status).toBe(404)
    const after = await api(sup, 'GET', 'set_preferences?uid=u-lobby')
    expect(after.body).toEqual([made.body])
  })
})

describe('item 12: the OpenAPI document is behind sign-in', () => {
  const doc = (headers: Record<string, string> = {}) => fetch(`${s.url}/api/openapi.json`, { headers })

  it('401 in the error envelope without credentials, with a forged token or before the licence agreement', async () => {
    const t = await token('grower@greenleaf.demo')
    // newgrower@lobby.demo has not accepted the EULA: the sign-in stops at that step
    const early = await fetch(`${s.url}/Welcome`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ email: 'newgrower@lobby.demo', password: PW }) })
    const eula = early.headers.get('set-cookie')?.match(/canopy_sid=[^;]+/)?.[0]
    expect(eula).toBeTruthy()
    const tries: Array<Record<string, string>> = [{}, { 'x-access-token': 'forged' }, { 'x-access-token': `${t.slice(0, -4)}abcd` }, { cookie: eula! }]
    for (const headers of tries) {
      const r = await doc(headers)
      expect(r.status, JSON.stringify(headers)).toBe(401)
      expect(r.headers.get('content-type')).toMatch(/^application\/json/)
      const body = await r.json()
      expect(body.errors[0].code).toBe('UNAUTHENTICATED')
      expect(body.paths).toBeUndefined()
    }
  })

  it('200 with a token and with a signed-in session, never stored; the reference page still opens for a signed-in user', async () => {
    const byToken = await doc({ 'x-access-token': await token('grower@greenleaf.demo') })
    expect(byToken.status).toBe(200)
    expect(byToken.headers.get('cache-control')).toBe('no-store')
    expect((await byToken.json()).openapi).toBe('3.1.0')
    const c = await session('grower@greenleaf.demo')
    const bySession = await doc({ cookie: c })
    expect(bySession.status).toBe(200)
    expect(bySession.headers.get('cache-control')).toBe('no-store')
    expect((await bySession.json()).paths['/dt/v1/{table}']).toBeDefined()
    const page = await fetch(`${s.url}/api/reference`, { headers: { cookie: c } })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('href="/api/openapi.json"')
    expect(html).toContain('/dt/v1/{table}')
  })
})

describe('item 7: a sign-in link from another site asks before it replaces the session', () => {
  const setCookie = (r: Response, name: string) => r.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  const pair = (c: string | undefined) => c?.split(';')[0] ?? ''
  /** Who the session cookie signs in as, read from the start page ('' when nobody). */
  const whoIs = async (cookie: string) => {
    const html = await (await fetch(`${s.url}/Welcome`, { headers: { cookie } })).text()
    return /Signed in as <strong>([^<]+)<\/strong>/.exec(html)?.[1] ?? ''
  }
  const link = `/culPlants?${new URLSearchParams({ email: 'admin@greenleaf.demo', password: PW, facility: 'greenleaf', kiosk: '0' })}`
  /** Opens `path` as a link of another site would (Sec-Fetch-Site), and answers the redirect and the question's cookie. */
  const follow = async (path: string, cookie: string, site = 'cross-site') => {
    const r = await fetch(`${s.url}${path}`, { redirect: 'manual', headers: { cookie, 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } })
    return { r, question: pair(setCookie(r, 'canopy_link')) }
  }

  it('cross-site and same-site: to /LinkSignIn, the session cookie unchanged; the credentials in no address and no page', async () => {
    const victim = await session('grower@greenleaf.demo')
    expect(await whoIs(victim)).toBe('Maria Lopez')
    for (const site of ['cross-site', 'same-site']) {
      const { r, question } = await follow(link, victim, site)
      expect(r.status, site).toBe(302)
      expect(r.headers.get('location'), site).toBe('/LinkSignIn')
      expect(setCookie(r, 'canopy_sid'), site).toBeUndefined()
      // the link waits sealed in a cookie only the question receives
      expect(setCookie(r, 'canopy_link'), site).toMatch(/^canopy_link=sealed:v1:[\w-]+; Path=\/LinkSignIn; HttpOnly; SameSite=Lax; Max-Age=600$/)
      expect(question).not.toMatch(/Demo1|admin/)
      expect(await whoIs(victim), site).toBe('Maria Lopez')
      // the question: whom the link signs in as and who is signed in now, never the password
      const q = await fetch(`${s.url}/LinkSignIn`, { headers: { cookie: `${victim}; ${question}`, 'sec-fetch-site': site } })
      expect(q.status).toBe(200)
      const html = await q.text()
      expect(html).toMatch(/signs you in to Canopy as <strong>admin@greenleaf.demo<\/strong>/)
      expect(html).toMatch(/signed in now as <strong>grower@greenleaf.demo<\/strong>/)
      expect(html).not.toContain('Demo1')
      expect(setCookie(q, 'canopy_sid')).toBeUndefined()
    }
    // through a deep link and jsonData too (the browser keeps the request cross-site across redirects)
    const jsonData = encodeURIComponent(JSON.stringify({ email: 'admin@greenleaf.demo', password: PW }))
    for (const start of ['/Welcome?type=deepLink&path=/culPlants&token=x', `/Welcome?jsonData=${jsonData}`]) {
      const first = await follow(start, victim)
      expect(first.r.status, start).toBe(302)
      const next = await follow(first.r.headers.get('location')!, victim)
      expect(next.r.headers.get('location'), start).toBe('/LinkSignIn')
    }
    expect(await whoIs(victim)).toBe('Maria Lopez')
  })

  it('Continue (posted from the question, same-origin) signs in as the link says; a cross-site or stale answer is refused', async () => {
    const victim = await session('grower@greenleaf.demo')
    const { question } = await follow(link, victim)
    const cookie = `${victim}; ${question}`
    const check = /name="check" value="([^"]+)"/.exec(await (await fetch(`${s.url}/LinkSignIn`, { headers: { cookie } })).text())?.[1]
    expect(check).toBeTruthy()
    const answer = (c: string, body: Record<string, string>, site: string) =>
      fetch(`${s.url}/LinkSignIn`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(body), headers: { cookie: c, 'sec-fetch-site': site, origin: site === 'same-origin' ? s.url : 'http://evil.example' } })
    expect((await answer(cookie, { check: check! }, 'cross-site')).status).toBe(403)
    expect(await whoIs(victim)).toBe('Maria Lopez')
    // another link opened since (another tab): this page's Continue does not answer that one
    const other = await follow(`/Welcome?token=x`, victim)
    const stale = await answer(`${victim}; ${other.question}`, { check: check! }, 'same-origin')
    expect(stale.status).toBe(400)
    expect(await stale.text()).toContain('This sign-in question has expired or was replaced by another sign-in link')
    expect(await whoIs(victim)).toBe('Maria Lopez')
    const ok = await answer(cookie, { check: check! }, 'same-origin')
    expect(ok.status).toBe(302)
    expect(ok.headers.get('location')).toBe('/culPlants?kiosk=0')
    expect(setCookie(ok, 'canopy_link')).toMatch(/^canopy_link=; .*Max-Age=0$/)
    expect(await whoIs(pair(setCookie(ok, 'canopy_sid')))).toBe('Alex Morgan')
    expect(await whoIs(victim)).toBe('') // replaced, as a sign-in from the address always did
    // no question waiting: a clear refusal
    const none = await fetch(`${s.url}/LinkSignIn`)
    expect(none.status).toBe(400)
    expect(await none.text()).toContain('This sign-in question has expired')
  })

  it('typed in the address bar (none) or without the header (curl, old browsers): signs in at once, as before', async () => {
    const t = await token('grower@greenleaf.demo')
    for (const headers of [{ 'sec-fetch-site': 'none' }, {}] as Array<Record<string, string>>) {
      const victim = await session('admin@greenleaf.demo')
      const r = await fetch(`${s.url}${link}`, { redirect: 'manual', headers: { cookie: victim, ...headers } })
      expect(r.status).toBe(302)
      expect(r.headers.get('location')).toBe('/culPlants?kiosk=0')
      expect(await whoIs(pair(setCookie(r, 'canopy_sid')))).toBe('Alex Morgan')
      const byToken = await fetch(`${s.url}/Welcome?token=${t}`, { redirect: 'manual', headers: { cookie: victim, ...headers } })
      expect(byToken.headers.get('location')).toBe('/Welcome')
      expect(await whoIs(pair(setCookie(byToken, 'canopy_sid')))).toBe('Maria Lopez')
    }
  })
})
