/**
 * Release notes (issue 27 item 5) on the real database, PGlite and PostgreSQL: only super writes a
 * note, on every write path (the add and edit forms, the table's check toggle and delete, the JSON
 * API /dt/v1/crm_release_notes); everyone reads the published ones; the "What's new" notice shows
 * once per person (remembered on the server, whichever facility they are in) until dismissed; a
 * note's Markdown is shown sanitised.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { signAccessToken } from '#app/auth/tokens.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { action as newAction } from '#app/routes/$screen.new'
import { action as editAction } from '#app/routes/$screen.$id.edit'
import { action as screenAction } from '#app/routes/$'
import { action as notesAction, loader as notesLoader } from '#app/routes/ReleaseNotes'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { dtCaller } from '#tests/helpers/dt-call'
import { whatsNewFor } from './notes.server'

const seedActor = { uid: 'u-seed', requestId: 'rel-test' }
let t: TestDatabase
let env: Env

const USERS = [
  { uid: 'u-sup', role: 'super', org: 'greenleaf', modules: { greenleaf: null, harbor: null } },
  { uid: 'u-adm', role: 'admin', org: 'greenleaf', modules: { greenleaf: null } },
  { uid: 'u-a', role: 'user', org: 'greenleaf', modules: { greenleaf: ['crm'], harbor: ['crm'] } },
  { uid: 'u-b', role: 'user', org: 'harbor', modules: { harbor: ['help'] } },
] as const

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  for (const org of ['greenleaf', 'harbor']) await t.store.insert(seedActor, 'auth', 'org', { _id: org, name: org, fullName: `${org} full`, wid: [] })
  for (const u of USERS)
    await t.store.insert(seedActor, 'auth', 'users', { _id: u.uid, uid: u.uid, email: `${u.uid}@x.test`, role: u.role, org: u.org, web: 'yes', firstname: u.uid, props: { facilities: Object.keys(u.modules), modules: u.modules } })
  await t.store.insert(seedActor, 'auth', 'crm_release_notes', { _id: 'n1', version: '4.0.0', title: 'Old news', notes: 'Old.', published: 'yes' })
  await t.store.insert(seedActor, 'auth', 'crm_release_notes', { _id: 'n2', version: '4.1.0', title: 'Draft', notes: 'Not yet.', published: 'no' })
}, 120_000)
afterAll(() => t?.cleanup())

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `rel-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const user = (uid: string) => USERS.find((x) => x.uid === uid)!
const call = dtCaller({ ctx, token: (uid) => signAccessToken(env.SESSION_SECRET, { sub: uid, orig: uid, org: user(uid).org, role: user(uid).role }), defaultUid: 'u-adm' })

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route module's function takes Remix's argument object
async function post(fn: (a: any) => Promise<unknown>, path: string, uid: string, fields: Record<string, string>, params: Record<string, string> = {}, facility = 'greenleaf'): Promise<Response> {
  const session = await createSession(t, { uid, step: 'done', facility })
  const request = new Request(`http://canopy.test${path}`, { method: 'POST', body: new URLSearchParams(fields), headers: { Cookie: `${COOKIE}=${session}`, 'content-type': 'application/x-www-form-urlencoded' } })
  try {
    return (await fn({ request, context: ctx(), params })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(fn: (a: any) => Promise<unknown>, path: string, uid: string, facility = 'greenleaf'): Promise<Response> {
  const session = await createSession(t, { uid, step: 'done', facility })
  try {
    return (await fn({ request: new Request(`http://canopy.test${path}`, { headers: { Cookie: `${COOKIE}=${session}` } }), context: ctx(), params: {} })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}

const notes = async () => (await t.db.query<{ id: string; doc: Record<string, unknown> }>(`SELECT id, doc FROM c_crm_release_notes ORDER BY id`)).rows
const snapshot = async () => JSON.stringify(await notes())

describe('only super writes release notes', () => {
  it('refuses an admin (who may write the other CRM tables) on every path, and changes nothing', async () => {
    const before = await snapshot()
    const ts = String((await t.store.get('auth', 'crm_release_notes', 'n2'))!.ts)
    const refusals: Array<[string, number]> = []
    refusals.push(['add form', (await post(newAction, '/CrmReleaseNotes/new', 'u-adm', { version: '9.9.9', title: 'Sneaky', published: 'yes' }, { screen: 'CrmReleaseNotes' })).status])
    refusals.push(['edit form', (await post(editAction, '/CrmReleaseNotes/n2/edit', 'u-adm', { version: '4.1.0', title: 'Changed', published: 'yes', ts }, { screen: 'CrmReleaseNotes', id: 'n2' })).status])
    refusals.push(['check toggle', (await post(screenAction, '/CrmReleaseNotes', 'u-adm', { intent: 'toggle', id: 'n2', field: 'published', value: 'yes', ts })).status])
    refusals.push(['delete', (await post(screenAction, '/CrmReleaseNotes/n1/delete', 'u-adm', { intent: 'delete', ts: String((await t.store.get('auth', 'crm_release_notes', 'n1'))!.ts) })).status])
    refusals.push(['API create', (await call('POST', 'crm_release_notes', { body: { version: '9.9.9', title: 'Sneaky', published: 'yes' } })).status])
    refusals.push(['API update', (await call('PUT', 'crm_release_notes/n2', { body: { published: 'yes' } })).status])
    refusals.push(['API delete', (await call('DELETE', 'crm_release_notes/n1')).status])
    for (const [path, status] of refusals) expect({ path, status }).toEqual({ path, status: 403 })
    // a user of the CRM module reads the table through the API, and may not write it either
    expect((await call('GET', 'crm_release_notes', { as: 'u-a' })).status).toBe(200)
    expect((await call('POST', 'crm_release_notes', { as: 'u-a', body: { version: '9.9.9', title: 'x' } })).status).toBe(403)
    expect(await snapshot()).toBe(before)
    // the facility's own CRM tables stay the admin's to write: the rule is the release notes', not the module's
    expect((await call('POST', 'crm_campaigns', { body: { name: 'Spring' } })).status).toBe(201)
  })

  it('lets super write through the form and the API, under the platform organisation', async () => {
    const res = await post(newAction, '/CrmReleaseNotes/new', 'u-sup', { version: '4.2.0', title: 'Form note', notes: 'From the form.', published: 'no' }, { screen: 'CrmReleaseNotes' })
    expect(res.status).toBe(302)
    const api = await call('POST', 'crm_release_notes', { as: 'u-sup', body: { version: '4.2.1', title: 'API note', notes: 'From the API.', published: 'no' } })
    expect(api.status).toBe(201)
    const rows = await t.db.query<{ org: string }>(`SELECT org FROM c_crm_release_notes WHERE doc->>'title' IN ('Form note', 'API note')`)
    expect(rows.rows.map((r) => r.org)).toEqual(['auth', 'auth'])
  })
})

describe('What’s new, once per person', () => {
  it('starts a person who never looked at the newest version, without a notice', async () => {
    for (const uid of ['u-a', 'u-b']) expect(await whatsNewFor(t, uid)).toBeNull()
  })

  it('shows a newly published version to each person until they dismiss it, wherever they work', async () => {
    const n2 = (await t.store.get('auth', 'crm_release_notes', 'n2'))!
    expect((await post(screenAction, '/CrmReleaseNotes', 'u-sup', { intent: 'toggle', id: 'n2', field: 'published', value: 'yes', ts: String(n2.ts) })).status).toBe(302)
    for (const uid of ['u-a', 'u-b']) expect((await whatsNewFor(t, uid))?.notes.map((n) => n.title)).toEqual(['Draft'])
    // an unknown version is refused and nothing is remembered
    const bad = await post(notesAction, '/ReleaseNotes', 'u-a', { intent: 'dismiss', version: '99.0.0', from: '/Welcome' })
    expect(bad.status).toBe(400)
    expect((await whatsNewFor(t, 'u-a'))?.version).toBe('4.1.0')
    const ok = await post(notesAction, '/ReleaseNotes', 'u-a', { intent: 'dismiss', version: '4.1.0', from: '/CrmCampaign?page=2' })
    expect(ok.status).toBe(302)
    expect(ok.headers.get('location')).toBe('/CrmCampaign?page=2')
    expect(await whatsNewFor(t, 'u-a')).toBeNull()
    // seen in greenleaf, seen in harbor too (the notes are the product's, not a facility's)
    const inHarbor = await post(notesAction, '/ReleaseNotes', 'u-a', { intent: 'dismiss', version: '4.0.0', from: '//evil.test' }, {}, 'harbor')
    expect(inHarbor.headers.get('location')).toBe('/ReleaseNotes')
    expect(await whatsNewFor(t, 'u-a')).toBeNull()
    // another person still sees it
    expect((await whatsNewFor(t, 'u-b'))?.version).toBe('4.1.0')
    const seen = await t.db.query<{ org: string; uid: string; version: string }>('SELECT org, uid, version FROM rel_seen ORDER BY uid')
    expect(seen.rows).toEqual([
      { org: 'auth', uid: 'u-a', version: '4.1.0' },
      { org: 'auth', uid: 'u-b', version: '4.0.0' },
    ])
  })

  it('lists every published note for any signed-in person, drafts left out, Markdown sanitised', async () => {
    await t.store.insert(seedActor, 'auth', 'crm_release_notes', { _id: 'n3', version: '4.1.1', title: 'Markup', notes: '**bold** <script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>', published: 'yes' })
    const res = await get(notesLoader, '/ReleaseNotes', 'u-b', 'harbor')
    expect(res.status).toBe(200)
    const body = (await res.json()) as { versions: Array<{ version: string; notes: Array<{ title: string; html: string }> }>; canWrite: boolean }
    expect(body.canWrite).toBe(false)
    expect(body.versions.map((v) => v.version)).toEqual(['4.1.1', '4.1.0', '4.0.0'])
    const html = body.versions[0].notes[0].html
    expect(html).toContain('<strong>bold</strong>')
    expect(html).not.toMatch(/<script|javascript:|onerror/i)
    expect((await whatsNewFor(t, 'u-b'))?.notes.map((n) => n.title)).toEqual(['Markup', 'Draft'])
  })
})
