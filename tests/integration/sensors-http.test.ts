/**
 * POST /dt/v1/{deviceID} (the HTTP door for sensor gateways without MQTT) through the real Express
 * app: the device's own Basic auth (bus credentials) or a token of a user who sees the devices; the
 * same checks as the bus ingest but all or nothing; concurrent requests share a batch; answers
 * match the OpenAPI document; every refusal stores nothing and relays nothing.
 */
import pino from 'pino'
import { buildOpenApiDocument } from '#app/api/openapi/document.server'
import { signAccessToken } from '#app/auth/tokens.server'
import { issueDeviceKey } from '#app/bus/credentials.server'
import { loadEnv, type Env } from '#app/config/env.server'
import type { Database } from '#app/db/index.server'
import * as dtList from '#app/routes/dt.v1.$table'
import * as dtOne from '#app/routes/dt.v1.$table.$id'
import { ensurePlatform } from '#app/seed/index.server'
import { ReadingIngest } from '#app/sensors/ingest.server'
import { latestReadings } from '#app/sensors/store.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { startHttpApp, type TestServer } from '#tests/helpers/http-app'
import { ajvFor } from '#tests/helpers/openapi'

const seed = { uid: 'u-seed', requestId: 'sensors-http' }
const USERS = [
  { uid: 'u-grow', org: 'greenleaf', modules: { greenleaf: ['sensors'] } },
  { uid: 'u-cul', org: 'greenleaf', modules: { greenleaf: ['cul'] } },
  { uid: 'u-harbor', org: 'harbor', modules: { harbor: ['sensors'] } },
]
let t: TestDatabase
let env: Env
let s: TestServer
let ingest: ReadingIngest
let writes = 0
const events: Array<{ org: string; event: string; data: unknown }> = []
const keys: Record<string, { username: string; password: string }> = {}
const doc = buildOpenApiDocument() as any
const { check } = ajvFor(doc)

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  for (const org of ['greenleaf', 'harbor']) await t.store.insert(seed, 'auth', 'org', { _id: org, name: org })
  for (const u of USERS) await t.store.insert(seed, 'auth', 'users', { _id: u.uid, uid: u.uid, email: `${u.uid}@x.test`, role: 'user', org: u.org, web: 'yes', props: { facilities: Object.keys(u.modules), modules: u.modules } })
  await t.store.insertMany(seed, 'auth', 'dictionary', [
    { code: 'temp', label: 'Air Temperature', short: 'Temp', units: '°F', max: 110, low: 60, med: 80, warn: 85, error: 90 },
    { code: 'rh', label: 'Relative Humidity', short: 'RH', units: '%', max: 100, low: 40, med: 65, warn: 70, error: 80 },
  ])
  await t.store.insertMany(seed, 'greenleaf', 'sen_devices', [
    { deviceID: 'SEN-1', deviceName: 'Flower', type: 'sensor' },
    { deviceID: 'SEN-2', deviceName: 'Veg', type: 'sensor' },
  ])
  await t.store.insert(seed, 'harbor', 'sen_devices', { deviceID: 'SEN-H', deviceName: 'Vault', type: 'sensor' })
  keys['SEN-1'] = await issueDeviceKey(t, 'greenleaf', 'SEN-1', 'test')
  keys['SEN-H'] = await issueDeviceKey(t, 'harbor', 'SEN-H', 'test')
  // the same database, counting the statements that write readings (batching)
  const counted = {
    ...t,
    db: {
      ...t.db,
      query: (sql: string, params?: unknown[]) => {
        if (sql.includes('INSERT INTO sensor_readings')) writes++
        return t.db.query(sql, params)
      },
    },
  } as unknown as Database
  const hub = new EventHub()
  for (const org of ['greenleaf', 'harbor']) hub.attach({ org, send: (event, data) => events.push({ org, event, data }), close: () => {} })
  ingest = new ReadingIngest({ database: counted, events: hub, logger: pino({ level: 'silent' }), flushMs: 50 })
  s = await startHttpApp({ routes: { 'dt/v1/:table': dtList, 'dt/v1/:table/:id': dtOne }, database: t, env, readings: ingest })
})
afterAll(async () => {
  await s?.close()
  await ingest?.close()
  await t?.cleanup()
})

const token = (uid: string) => {
  const u = USERS.find((x) => x.uid === uid)!
  return signAccessToken(env.SESSION_SECRET, { sub: uid, orig: uid, org: u.org, role: 'user' })
}
const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`
const device = (id: string) => basic(keys[id].username, keys[id].password)

/** POST /dt/v1/{deviceID}; the answer must be what the document says for its status. */
async function post(deviceID: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${s.url}/dt/v1/${encodeURIComponent(deviceID)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const json = await res.json()
  let r = doc.paths['/dt/v1/{table}'].post.responses[String(res.status)]
  expect(r, `no ${res.status} answer in the document`).toBeDefined()
  if (r.$ref) r = doc.components.responses[r.$ref.split('/').pop()]
  expect(check(r.content['application/json'].schema, json).errors, JSON.stringify(json)).toBeNull()
  return { status: res.status, body: json }
}
const stored = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sensor_readings')).rows[0].n
const readingEvents = () => events.filter((e) => e.event === 'reading')

describe('POST /dt/v1/{deviceID}', () => {
  it('the device itself (Basic auth with its key): stored, relayed to its organisation, answered by ?last=1', async () => {
    const ts = new Date(Date.now() - 2000).toISOString()
    const r = await post('SEN-1', { type: 'reading', data: { temp: 91, rh: 50 }, ts }, { authorization: device('SEN-1') })
    expect(r).toEqual({ status: 201, body: { deviceID: 'SEN-1', data: { temp: 91, rh: 50 }, ts } })
    // answered once stored, so it is there already
    expect((await latestReadings(t.db, 'greenleaf', 'SEN-1')).map((x) => [x.code, x.value, x.at])).toEqual([
      ['rh', 50, ts],
      ['temp', 91, ts],
    ])
    expect(readingEvents()).toEqual([{ org: 'greenleaf', event: 'reading', data: { deviceID: 'SEN-1', ts, data: { temp: 91, rh: 50 } } }])
    const last = await fetch(`${s.url}/dt/v1/SEN-1?last=1`, { headers: { 'x-access-token': token('u-grow') } })
    expect(await last.json()).toEqual({ deviceID: 'SEN-1', data: { temp: 91, rh: 50 }, ts })
  })

  it('a token of a user who sees the devices; no time means now', async () => {
    const before = Date.now()
    const r = await post('SEN-2', { type: 'reading', data: { rh: 72.5 } }, { 'x-access-token': token('u-grow') })
    expect(r.status).toBe(201)
    expect(Date.parse(r.body.ts)).toBeGreaterThanOrEqual(before - 1000)
    expect((await latestReadings(t.db, 'greenleaf', 'SEN-2'))[0]).toMatchObject({ code: 'rh', value: 72.5, at: r.body.ts })
  })

  it('concurrent readings share a batch: fewer writes than requests, and one for readings that arrive together', async () => {
    const n0 = await stored()
    writes = 0
    const base = Date.now() - 60_000
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => post('SEN-2', { type: 'reading', data: { temp: 70 + i / 10 }, ts: base + i * 1000 }, { 'x-access-token': token('u-grow') })))
    expect(rs.map((r) => r.status)).toEqual(Array(20).fill(201))
    expect(await stored()).toBe(n0 + 20)
    expect(writes).toBeGreaterThanOrEqual(1)
    expect(writes).toBeLessThan(20) // each request checks its caller first, so arrivals spread over a few flushes
    // arriving within one flush interval (the door's own call, without HTTP's sign-in work): one statement
    writes = 0
    await Promise.all(Array.from({ length: 20 }, (_, i) => ingest.submit('greenleaf', 'SEN-2', { type: 'reading', data: { rh: 40 + i }, ts: base + 500 + i * 1000 })))
    expect(writes).toBe(1)
    expect(await stored()).toBe(n0 + 40)
  })

  it('refuses, storing and relaying nothing', async () => {
    const n0 = await stored()
    const e0 = readingEvents().length
    const ok = { type: 'reading', data: { temp: 70 } }
    const cases: Array<[string, string, unknown, Record<string, string>, number, string?]> = [
      ['no credentials', 'SEN-1', ok, {}, 401],
      ['a wrong device key', 'SEN-1', ok, { authorization: basic(keys['SEN-1'].username, 'cdk_' + 'x'.repeat(43)) }, 401],
      ['a key without a user', 'SEN-1', ok, { authorization: basic('', keys['SEN-1'].password) }, 401],
      ['a forged token', 'SEN-1', ok, { 'x-access-token': 'forged.token.here' }, 401],
      ['a device sending for another device', 'SEN-2', ok, { authorization: device('SEN-1') }, 403],
      ["another organisation's device key", 'SEN-1', ok, { authorization: device('SEN-H') }, 403],
      ['a user whose screens do not show the devices', 'SEN-1', ok, { 'x-access-token': token('u-cul') }, 403],
      ['that user, on a name that is neither a device nor a table', 'NOPE-1', ok, { 'x-access-token': token('u-cul') }, 404],
      ["a device of another organisation (the token's has none by that id)", 'SEN-1', ok, { 'x-access-token': token('u-harbor') }, 404],
      ['a device nobody has', 'SEN-404', ok, { 'x-access-token': token('u-grow') }, 404],
      ['a device id that cannot be one (nor a table)', 'bad id!', ok, { 'x-access-token': token('u-grow') }, 404],
      ['a device id that cannot be one, without credentials (the table path: sign in first)', 'bad id!', ok, {}, 401],
      ['a body that is not JSON', 'SEN-1', '{"type":', { 'x-access-token': token('u-grow') }, 400],
      ['another message type', 'SEN-1', { type: 'weight', data: { temp: 70 } }, { 'x-access-token': token('u-grow') }, 400, 'type'],
      ['an unknown code beside a good one (all or nothing)', 'SEN-1', { type: 'reading', data: { temp: 70, nitrogen: 3 } }, { authorization: device('SEN-1') }, 400, 'data.nitrogen'],
      ['a value out of scale', 'SEN-1', { type: 'reading', data: { temp: 5000 } }, { authorization: device('SEN-1') }, 400, 'data.temp'],
      ['a time two days old', 'SEN-1', { type: 'reading', data: { temp: 70 }, ts: Date.now() - 2 * 86_400_000 }, { authorization: device('SEN-1') }, 400, 'ts'],
      ['a body over 4 KB', 'SEN-1', { type: 'reading', data: { temp: 70 }, pad: 'x'.repeat(5000) }, { authorization: device('SEN-1') }, 413],
    ]
    for (const [what, id, body, headers, status, field] of cases) {
      const r = await post(id, body, headers)
      expect(r.status, what).toBe(status)
      if (field) expect(r.body.errors[0].field, what).toBe(field)
    }
    await new Promise((r) => setTimeout(r, 150)) // past a flush
    expect(await stored()).toBe(n0)
    expect(readingEvents()).toHaveLength(e0)
    expect((await latestReadings(t.db, 'greenleaf', 'SEN-1')).find((x) => x.code === 'temp')!.value).toBe(91)
    expect(await latestReadings(t.db, 'harbor')).toEqual([])
  })

  it('a device added a moment ago is taken at once; one switched off is refused at once', async () => {
    expect((await post('SEN-NEW', { type: 'reading', data: { temp: 60 } }, { 'x-access-token': token('u-grow') })).status).toBe(404)
    const d = await t.store.insert(seed, 'greenleaf', 'sen_devices', { deviceID: 'SEN-NEW', deviceName: 'New', type: 'sensor' })
    expect((await post('SEN-NEW', { type: 'reading', data: { temp: 61 } }, { 'x-access-token': token('u-grow') })).status).toBe(201)
    await t.store.update(seed, 'greenleaf', 'sen_devices', d._id, { IsUsed: 'no' })
    expect((await post('SEN-NEW', { type: 'reading', data: { temp: 62 } }, { 'x-access-token': token('u-grow') })).status).toBe(404)
    expect((await latestReadings(t.db, 'greenleaf', 'SEN-NEW')).map((x) => x.value)).toEqual([61])
  })

  it('POST on a table name still creates a record (the door takes only names that are not tables)', async () => {
    const res = await fetch(`${s.url}/dt/v1/sen_devices`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: device('SEN-1') }, body: JSON.stringify({ deviceID: 'X' }) })
    expect(res.status).toBe(401) // a table write wants a token; a device key is not one
    expect(await t.store.find('greenleaf', 'sen_devices', { deviceID: 'X' }, 5)).toEqual([])
  })
})
