/**
 * The browser-facing resource routes of the shell, called directly against a real database:
 * GET /events (server-sent events: ready, table changes of the session's facility only, end on
 * abort and on shutdown), GET /getfiles/{org}/{name} (the organisation logo) and POST
 * /client-report (what a browser says about itself).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession, endSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { action as reportAction } from '#app/routes/client-report'
import { loader as eventsLoader } from '#app/routes/events'
import { loader as filesLoader } from '#app/routes/getfiles.$org.$name'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'events-test' }
let t: TestDatabase
let env: Env
let hub: EventHub
const logged: unknown[] = []

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  hub = new EventHub()
  hub.relayStore(t.store)
  await ensurePlatform(t, env) // core schemas (users) and the lobby
  await t.schemas.put(actor, { key: 'fac_plants', label: 'Notes', items: [{ key: 'text', label: 'Text' }] })
  for (const [uid, facilities] of [['u-green', ['greenleaf']], ['u-harbor', ['harbor']]] as const)
    await t.store.insert(actor, 'auth', 'users', { _id: uid, uid, email: `${uid}@x.test`, role: 'user', org: facilities[0], web: 'yes', props: { facilities, modules: { [facilities[0]]: null } } })
})
afterAll(async () => {
  hub?.closeAll()
  await t?.cleanup()
})

const ctx = (ip = '203.0.113.9') =>
  ({ database: t, env, events: hub, logger: pino({ level: 'warn' }, { write: (s: string) => logged.push(JSON.parse(s)) }), requestId: 'test', clientIp: ip }) as unknown as AppLoadContext
const signedIn = async (uid: string, facility: string) => createSession(t, { uid, step: 'done', facility })
const get = (url: string, sid?: string, signal?: AbortSignal) => new Request(`http://canopy.test${url}`, { headers: sid ? { Cookie: `${COOKIE}=${sid}` } : {}, signal })

/** Reads server-sent events from a response until `until` says stop. */
async function readEvents(res: Response, until: (events: Array<{ event: string; data: unknown }>) => boolean) {
  const reader = res.body!.getReader()
  const dec = new TextDecoder()
  const events: Array<{ event: string; data: unknown }> = []
  let buf = ''
  while (!until(events)) {
    const { value, done } = await reader.read()
    if (done) break
    buf += dec.decode(value, { stream: true })
    let i
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i)
      buf = buf.slice(i + 2)
      const ev = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? ''
      events.push({ event: ev, data: JSON.parse(data) })
    }
  }
  reader.releaseLock()
  return events
}

describe('GET /events', () => {
  it('refuses a browser that is not signed in, or not through the sign-in steps', async () => {
    expect((await eventsLoader({ request: get('/events'), context: ctx(), params: {} })).status).toBe(401)
    const half = await createSession(t, { uid: 'u-green', step: 'facility' })
    expect((await eventsLoader({ request: get('/events', half), context: ctx(), params: {} })).status).toBe(401)
    const ended = await signedIn('u-green', 'greenleaf')
    await endSession(t, ended, 'logout')
    expect((await eventsLoader({ request: get('/events', ended), context: ctx(), params: {} })).status).toBe(401)
  })

  it("streams ready, then the facility's table changes and never another organisation's", async () => {
    const sid = await signedIn('u-green', 'greenleaf')
    const abort = new AbortController()
    const res = await eventsLoader({ request: get('/events', sid, abort.signal), context: ctx(), params: {} })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/event-stream')
    // behind a reverse proxy: nginx passes events at once, nothing transforms or stores the stream (issue 28)
    expect(res.headers.get('X-Accel-Buffering')).toBe('no')
    expect(res.headers.get('Cache-Control')).toBe('no-cache, no-store, no-transform')
    expect(hub.size).toBe(1)
    const first = await readEvents(res, (e) => e.length >= 1)
    expect(first).toEqual([{ event: 'ready', data: { facility: 'greenleaf', bus: 'none' } }])

    await t.store.insert(actor, 'harbor', 'fac_plants', { text: 'not for greenleaf' })
    await t.store.insert(actor, 'auth', 'fac_plants', { text: 'platform' })
    await t.store.insert(actor, 'greenleaf', 'fac_plants', { text: 'for greenleaf' })
    const next = await readEvents(res, (e) => e.length >= 1)
    // the first event after 'ready' is greenleaf's: the other two were never sent to this stream
    expect(next[0]).toEqual({ event: 'table', data: { collection: 'fac_plants' } })

    abort.abort()
    expect(hub.size).toBe(0)
  })

  it("does not announce a page's own save back to its browser session, but a colleague's", async () => {
    const sid = await signedIn('u-green', 'greenleaf')
    const abort = new AbortController()
    const res = await eventsLoader({ request: get('/events', sid, abort.signal), context: ctx(), params: {} })
    await readEvents(res, (e) => e.length >= 1)
    const own = crypto.createHash('sha256').update(sid).digest('hex') // the session's id as the form actions name it
    await t.store.insert({ ...actor, uid: 'u-green', session: own }, 'greenleaf', 'fac_plants', { text: 'my own save' })
    await t.store.insert({ ...actor, uid: 'u-other', session: 'another-session' }, 'greenleaf', 'fac_plants', { text: "a colleague's save" })
    await t.store.update({ ...actor, uid: 'u-green', session: own }, 'greenleaf', 'fac_plants', (await t.store.find('greenleaf', 'fac_plants', { text: 'my own save' }))[0]._id, { text: 'mine again' })
    await t.store.insert(actor, 'greenleaf', 'fac_plants', { text: 'from the API' })
    const got = await readEvents(res, (e) => e.length >= 2)
    expect(got).toEqual([
      { event: 'table', data: { collection: 'fac_plants' } },
      { event: 'table', data: { collection: 'fac_plants' } },
    ])
    abort.abort()
  })

  it('beats every 25 s while the session lives, and says signedout and ends once it has ended', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const sid = await signedIn('u-green', 'greenleaf')
      const res = await eventsLoader({ request: get('/events', sid), context: ctx(), params: {} })
      await readEvents(res, (e) => e.length >= 1)
      vi.advanceTimersByTime(25_000)
      const beat = await readEvents(res, (e) => e.length >= 1)
      expect(beat).toEqual([{ event: 'ping', data: { at: expect.any(Number) } }])
      await endSession(t, sid, 'logout')
      vi.advanceTimersByTime(25_000)
      const rest = await readEvents(res, () => false) // until the stream ends
      expect(rest).toEqual([{ event: 'signedout', data: {} }])
      expect(hub.size).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('ends every stream on shutdown so the server can drain', async () => {
    const own = new EventHub()
    const sid = await signedIn('u-harbor', 'harbor')
    const res = await eventsLoader({ request: get('/events', sid), context: { ...ctx(), events: own } as AppLoadContext, params: {} })
    await readEvents(res, (e) => e.length >= 1)
    own.closeAll()
    const rest = await readEvents(res, () => false) // returns once the stream has ended
    expect(rest).toEqual([])
    expect(own.size).toBe(0)
  })
})

describe('GET /getfiles/{org}/{name}', () => {
  const load = (org: string, name: string, sid?: string) => filesLoader({ request: get(`/getfiles/${org}/${name}`, sid), context: ctx(), params: { org, name } })
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')

  it("serves an organisation's logo to its own users only", async () => {
    fs.mkdirSync(path.join(env.DATA_DIR, 'files', 'greenleaf'), { recursive: true })
    fs.writeFileSync(path.join(env.DATA_DIR, 'files', 'greenleaf', 'logo.png'), png)
    const green = await signedIn('u-green', 'greenleaf')
    const harbor = await signedIn('u-harbor', 'harbor')

    const ok = await load('greenleaf', 'logo.png', green)
    expect(ok.status).toBe(200)
    expect(ok.headers.get('Content-Type')).toBe('image/png')
    expect(Buffer.from(await ok.arrayBuffer()).equals(png)).toBe(true)

    expect((await load('greenleaf', 'logo.png')).status).toBe(401)
    expect((await load('greenleaf', 'logo.png', harbor)).status).toBe(403)
    expect((await load('harbor', 'logo.png', harbor)).status).toBe(404) // Harbor has none: the footer shows Canopy's
  })

  it('refuses names that could leave the folder or are not files we serve', async () => {
    const green = await signedIn('u-green', 'greenleaf')
    for (const [org, name] of [['greenleaf', '..'], ['greenleaf', '.env'], ['..', 'logo.png'], ['greenleaf', 'a..png']]) expect((await load(org, name, green)).status, `${org}/${name}`).toBe(400)
    expect((await load('greenleaf', 'notes.txt', green)).status).toBe(404)
  })
})

describe('POST /client-report', () => {
  const post = (body: string, ip: string) => reportAction({ request: new Request('http://canopy.test/client-report', { method: 'POST', body }), context: ctx(ip), params: {} })

  it('logs what the browser reports, and refuses bad or too many reports', async () => {
    const r = await post(JSON.stringify({ kind: 'chunk-load', why: 'not started after 120 s', path: '/culPlants', tries: 1 }), '203.0.113.50')
    expect(r.status).toBe(204)
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'browser report', client: expect.objectContaining({ kind: 'chunk-load', path: '/culPlants', tries: 1 }) }))
    expect((await post('not json', '203.0.113.51')).status).toBe(400)
    expect((await post(JSON.stringify({ why: 'x'.repeat(3000) }), '203.0.113.52')).status).toBe(400)
    const statuses = []
    for (let i = 0; i < 12; i++) statuses.push((await post('{}', '203.0.113.53')).status)
    expect(statuses.slice(0, 10).every((s) => s === 204)).toBe(true)
    expect(statuses.slice(10)).toEqual([429, 429])
  })
})
