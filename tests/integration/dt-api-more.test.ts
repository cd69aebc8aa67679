/**
 * The rest of SPEC §7 under /dt/v1 (issue 7): the sign-in flow's calls (temp_processing, temp_eula,
 * temp_credentials, inf_global, temp_manage_intake), the latest sensor reading, OTA deletes and the
 * schema administration calls (translator, collection delete, bulk upload). Real tokens, the route
 * modules Remix would pick, the real database: one organisation's token never reaches another's
 * rows (the same ids exist in both), refusals change nothing, writes leave audit rows.
 */
import { writeReadings } from '#app/sensors/store.server'
import fs from 'node:fs'
import path from 'node:path'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { action as otaFileAction, loader as otaFileLoader } from '#app/routes/ota.$name'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { unseal } from '#app/utils/seal.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { dtCaller } from '#tests/helpers/dt-call'

const seedActor = { uid: 'u-seed', requestId: 'dt-more-test' }
let t: TestDatabase
let env: Env

const USERS = [
  { uid: 'u-a', role: 'user', org: 'greenleaf', modules: { greenleaf: ['cul', 'sensors', 'metrc'] } },
  { uid: 'u-b', role: 'user', org: 'harbor', modules: { harbor: ['cul', 'sensors'] } },
  { uid: 'u-nosens', role: 'user', org: 'greenleaf', modules: { greenleaf: ['cul'] } },
  { uid: 'u-adm', role: 'admin', org: 'greenleaf', modules: { greenleaf: null } },
  { uid: 'u-hadm', role: 'admin', org: 'harbor', modules: { harbor: null } },
  { uid: 'u-sup', role: 'super', org: 'greenleaf', modules: { greenleaf: null } },
] as const
const emailOf = (uid: string) => `${uid}@x.test`

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  for (const org of ['greenleaf', 'harbor']) await t.store.insert(seedActor, 'auth', 'org', { _id: org, name: org, fullName: `${org} full` })
  for (const u of USERS)
    await t.store.insert(seedActor, 'auth', 'users', { _id: u.uid, uid: u.uid, email: emailOf(u.uid), role: u.role, org: u.org, web: 'yes', props: { facilities: Object.keys(u.modules), modules: u.modules } })
  // the same ids and device ids in both organisations
  for (const org of ['greenleaf', 'harbor']) {
    await t.store.insert(seedActor, org, 'sen_devices', { _id: 'd1', deviceID: 'SEN-0001', deviceName: `Sensor of ${org}`, type: 'sensor' })
    await t.store.insert(seedActor, org, 'metrc_prefs', { _id: 'mp1', Action: `Action of ${org}` })
  }
  await t.store.insert(seedActor, 'harbor', 'sen_devices', { _id: 'd-h', deviceID: 'SEN-HARBOR', deviceName: 'Only harbor', type: 'sensor' })
  await t.store.insert(seedActor, 'greenleaf', 'sen_devices', { _id: 'd-quiet', deviceID: 'SEN-QUIET', deviceName: 'No readings yet', type: 'sensor' })
  await t.store.insert(seedActor, 'greenleaf', 'metrc_prefs', { _id: 'mp-locked', Action: 'Locked', delete: 'no' })
  const reading = (org: string, deviceID: string, code: string, value: number, at: string) => writeReadings(t.db, [{ org, deviceID, code, value, at }])
  await reading('greenleaf', 'SEN-0001', 'temp', 20.1, '2026-01-01T10:00:00Z')
  await reading('greenleaf', 'SEN-0001', 'rh', 50, '2026-01-01T10:00:00Z')
  await reading('greenleaf', 'SEN-0001', 'temp', 22.5, '2026-01-01T10:05:00Z')
  await reading('greenleaf', 'SEN-0001', 'rh', 55, '2026-01-01T10:05:00Z')
  await reading('greenleaf', 'SEN-0001', 'co2', 800, '2026-01-01T10:05:00Z')
  await reading('harbor', 'SEN-0001', 'temp', 99.9, '2026-06-01T00:00:00Z')
  await reading('harbor', 'SEN-HARBOR', 'temp', 11, '2026-06-01T00:00:00Z')
  await t.store.insert(seedActor, 'auth', 'temp_processing', { email: emailOf('u-a'), state: 'CA', lic: 'LIC-A', metrc_api: 'ok', error_lic: 'no', error_metrc: 'yes' })
  await t.store.insert(seedActor, 'auth', 'temp_processing', { email: emailOf('u-b'), state: 'OR', lic: 'LIC-B', metrc_api: 'ok', error_lic: 'no', error_metrc: 'no' })
  await t.store.insert(seedActor, 'auth', 'inf_global', { _id: 'g1', title: 'Maintenance', body: 'Sunday', from: 'Support' })
  await t.store.insert(seedActor, 'auth', 'inf_global', { _id: 'g-off', title: 'Old', body: 'gone', IsUsed: 'no' })
})
afterAll(() => t?.cleanup())

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `dtm-${Math.random()}`, clientIp: '10.1.2.3' }) as unknown as AppLoadContext
const token = (uid: string, org?: string) => {
  const u = USERS.find((x) => x.uid === uid)!
  return signAccessToken(env.SESSION_SECRET, { sub: uid, orig: uid, org: org ?? u.org, role: u.role })
}

const call = dtCaller({ ctx, token: (uid) => token(uid), defaultUid: 'u-a' })

const codes = (b: any) => (b.errors ?? []).map((e: any) => e.code)
const fields = (b: any) => (b.errors ?? []).map((e: any) => e.field)
const audits = async (collection: string, where = '') =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE collection = $1 ${where}`, [collection])).rows[0].n
const all = (org: string, table: string, where: Record<string, string> = {}) => t.store.find(org, table, where, 1000)

describe('401 without a token, on every call', () => {
  it.each([
    ['GET', 'temp_processing'],
    ['GET', 'temp_eula'],
    ['POST', 'temp_eula'],
    ['POST', 'temp_credentials'],
    ['GET', 'inf_global/g1'],
    ['POST', 'temp_manage_intake'],
    ['GET', 'SEN-0001?last=1'],
    ['DELETE', 'ota/x'],
    ['GET', 'translator?return=key'],
    ['DELETE', 'collections/sch_x'],
    ['POST', 'bulkupload/sch_x?org=auth&id=new'],
  ])('%s %s', async (method, path) => {
    const r = await call(method, path, { tok: null, body: method === 'GET' || method === 'DELETE' ? undefined : {} })
    expect(r.status).toBe(401)
    expect(codes(r.body)).toEqual(['UNAUTHENTICATED'])
  })
})

describe('GET /dt/v1/temp_processing?email=', () => {
  it('answers the caller own processing state (what /Credentials shows), without or with ?email=', async () => {
    for (const path of ['temp_processing', `temp_processing?email=${emailOf('u-a')}`, `temp_processing?email=${emailOf('u-a').toUpperCase()}`]) {
      const r = await call('GET', path)
      expect(r.status).toBe(200)
      expect(r.body).toHaveLength(1)
      expect(r.body[0]).toMatchObject({ email: emailOf('u-a'), state: 'CA', lic: 'LIC-A', error_lic: 'no', error_metrc: 'yes' })
    }
  })
  it('an empty list for an account with no credentials yet', async () => {
    const r = await call('GET', 'temp_processing', { as: 'u-nosens' })
    expect(r.status).toBe(200)
    expect(r.body).toEqual([])
  })
  it('403 for another user email unless admin of that user facility or super', async () => {
    const r = await call('GET', `temp_processing?email=${emailOf('u-b')}`)
    expect(r.status).toBe(403)
    // an admin of greenleaf reads greenleaf users, never harbor's
    expect((await call('GET', `temp_processing?email=${emailOf('u-a')}`, { as: 'u-adm' })).body[0].lic).toBe('LIC-A')
    expect((await call('GET', `temp_processing?email=${emailOf('u-b')}`, { as: 'u-adm' })).status).toBe(403)
    expect((await call('GET', `temp_processing?email=${emailOf('u-b')}`, { as: 'u-hadm' })).body[0].lic).toBe('LIC-B')
    expect((await call('GET', `temp_processing?email=${emailOf('u-b')}`, { as: 'u-sup' })).body[0].lic).toBe('LIC-B')
  })
  it('400 naming email for a bad address; 405 for writes', async () => {
    const r = await call('GET', "temp_processing?email=x' OR 1=1--")
    expect(r.status).toBe(400)
    expect(fields(r.body)).toEqual(['email'])
    const before = await audits('temp_processing')
    expect((await call('POST', 'temp_processing', { body: { email: emailOf('u-a'), error_metrc: 'no' } })).status).toBe(405)
    expect((await call('DELETE', 'temp_processing/x')).status).toBe(405)
    expect(await audits('temp_processing')).toBe(before)
  })
})

describe('GET and POST /dt/v1/temp_eula', () => {
  it('reads, records acceptance for the caller (the /Eula function), and audits it', async () => {
    const r0 = await call('GET', 'temp_eula', { as: 'u-b' })
    expect(r0.body).toEqual({ email: emailOf('u-b'), status: null, accepted: false })
    const before = await audits('temp_eula')
    const r = await call('POST', 'temp_eula', { as: 'u-b', body: { status: 'accepted' } })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ email: emailOf('u-b'), status: 'accepted', accepted: true })
    expect((await call('GET', 'temp_eula', { as: 'u-b' })).body.accepted).toBe(true)
    const rows = await all('auth', 'temp_eula', { email: emailOf('u-b') })
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ status: 'accepted', ip: '10.1.2.3' })
    // declining updates the same record and tells the client to log out
    const d = await call('POST', 'temp_eula', { as: 'u-b', body: { status: 'declined' } })
    expect(d.body).toMatchObject({ status: 'declined', accepted: false, logout: true })
    expect(await all('auth', 'temp_eula', { email: emailOf('u-b') })).toHaveLength(1)
    expect(await audits('temp_eula')).toBe(before + 2)
    // nobody else's record moved
    expect((await call('GET', 'temp_eula', { as: 'u-a' })).body.status).toBeNull()
  })
  it('400 naming the problem; nothing written', async () => {
    const before = await audits('temp_eula')
    for (const [body, field] of [[{ status: 'maybe' }, 'status'], [{}, 'status'], [{ status: 'accepted', email: emailOf('u-b') }, 'email']] as const) {
      const r = await call('POST', 'temp_eula', { as: 'u-a', body })
      expect(r.status).toBe(400)
      expect(fields(r.body)).toEqual([field])
    }
    expect((await call('POST', 'temp_eula', { as: 'u-a', raw: '{nope' })).status).toBe(400)
    expect(await audits('temp_eula')).toBe(before)
    expect(await all('auth', 'temp_eula', { email: emailOf('u-a') })).toHaveLength(0)
  })
})

describe('POST /dt/v1/temp_credentials', () => {
  it('stores the key sealed, resets processing to pending, never echoes the key, audits both', async () => {
    const before = [await audits('temp_credentials'), await audits('temp_processing')]
    const r = await call('POST', 'temp_credentials', { body: { state: 'CA', license: 'LIC-NEW', metrc: 'MY-SECRET-KEY' } })
    expect(r.status).toBe(201)
    expect(JSON.stringify(r.body)).not.toContain('MY-SECRET-KEY')
    expect(JSON.stringify(r.body)).not.toContain('sealed:')
    expect(r.body).toMatchObject({ email: emailOf('u-a'), state: 'CA', license: 'LIC-NEW', metrc_api: 'pending', message: 'Please wait for authorization email' })
    const [cred] = await all('auth', 'temp_credentials', { email: emailOf('u-a') })
    expect(String(cred.metrc)).toMatch(/^sealed:v1:/)
    expect(unseal(env.SESSION_SECRET, String(cred.metrc))).toBe('MY-SECRET-KEY')
    const p = await call('GET', 'temp_processing')
    expect(p.body[0]).toMatchObject({ lic: 'LIC-NEW', metrc_api: 'pending', error_lic: 'no', error_metrc: 'no' })
    expect(JSON.stringify(p.body)).not.toContain('MY-SECRET-KEY')
    expect([await audits('temp_credentials'), await audits('temp_processing')]).toEqual([before[0] + 1, before[1] + 1])
  })
  it('no METRC is allowed with nometrc: yes', async () => {
    const r = await call('POST', 'temp_credentials', { as: 'u-nosens', body: { state: 'OR', license: 'L-2', nometrc: 'yes' } })
    expect(r.status).toBe(201)
    expect(r.body.nometrc).toBe('yes')
  })
  it('400 naming the field (the SPEC §5 rules of the dialog); nothing written', async () => {
    const before = [await audits('temp_credentials'), await audits('temp_processing')]
    for (const [body, field] of [
      [{ state: 'XX', license: 'L', metrc: 'k' }, 'state'],
      [{ state: 'CA', license: '  ', metrc: 'k' }, 'license'],
      [{ state: 'CA', license: 'L' }, 'metrc'],
      [{ state: 'CA', license: 'L', metrc: 'k', role: 'super' }, 'role'],
      [{ state: 'CA', license: 'L', metrc: 'k'.repeat(201) }, 'metrc'],
    ] as const) {
      const r = await call('POST', 'temp_credentials', { as: 'u-b', body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(fields(r.body)).toEqual([field])
    }
    expect([await audits('temp_credentials'), await audits('temp_processing')]).toEqual(before)
    expect((await call('GET', 'temp_processing', { as: 'u-b' })).body[0].lic).toBe('LIC-B')
  })
})

describe('GET /dt/v1/inf_global/{id}', () => {
  it('any signed-in caller reads a global message; a retired or unknown one is 404', async () => {
    for (const as of ['u-a', 'u-b', 'u-sup']) {
      const r = await call('GET', 'inf_global/g1', { as })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ _id: 'g1', title: 'Maintenance', body: 'Sunday', from: 'Support' })
    }
    expect((await call('GET', 'inf_global/g-off')).status).toBe(404)
    expect((await call('GET', 'inf_global/nope')).status).toBe(404)
    expect((await call('GET', 'inf_global/..%2F..')).status).toBe(404)
  })
  it('is read-only here', async () => {
    const before = await audits('inf_global')
    for (const [m, p] of [['PUT', 'inf_global/g1'], ['DELETE', 'inf_global/g1'], ['POST', 'inf_global']] as const) {
      const r = await call(m, p, { as: 'u-sup', body: m === 'DELETE' ? undefined : { title: 'x' } })
      expect(r.status).toBe(405)
    }
    expect(await audits('inf_global')).toBe(before)
    expect((await t.store.get('auth', 'inf_global', 'g1'))!.title).toBe('Maintenance')
  })
})

describe('POST /dt/v1/temp_manage_intake', () => {
  const del = (recid: unknown, as = 'u-adm', action: unknown = 'metrc_global_pref_delete') => call('POST', 'temp_manage_intake', { as, body: { action, recid } })
  it('an admin deletes a METRC preference record of their own facility only; audited', async () => {
    await t.store.insert(seedActor, 'greenleaf', 'metrc_prefs', { _id: 'mp-del', Action: 'to delete' })
    const before = await audits('metrc_prefs', "AND action = 'delete'")
    const r = await del('mp-del')
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ action: 'metrc_global_pref_delete', deleted: { _id: 'mp-del', Action: 'to delete' } })
    expect(await t.store.get('greenleaf', 'metrc_prefs', 'mp-del')).toBeNull()
    expect(await audits('metrc_prefs', "AND action = 'delete'")).toBe(before + 1)
    // harbor's admin and greenleaf's admin share the id mp1: each deletes only their own
    const h = await del('mp-h-only', 'u-hadm')
    expect(h.status).toBe(404)
    expect((await del('mp1', 'u-hadm')).status).toBe(200)
    expect(await t.store.get('harbor', 'metrc_prefs', 'mp1')).toBeNull()
    expect(await t.store.get('greenleaf', 'metrc_prefs', 'mp1')).not.toBeNull()
  })
  it("org A's admin cannot delete org B's record (404), a user is 403; nothing changes", async () => {
    await t.store.insert(seedActor, 'harbor', 'metrc_prefs', { _id: 'mp-harbor', Action: 'harbor only' })
    const before = await audits('metrc_prefs')
    expect((await del('mp-harbor')).status).toBe(404)
    expect((await del('mp1', 'u-a')).status).toBe(403)
    expect((await del('mp-locked')).status).toBe(403) // delete = no binds an admin (SPEC §6)
    expect(await audits('metrc_prefs')).toBe(before)
    expect(await t.store.get('harbor', 'metrc_prefs', 'mp-harbor')).not.toBeNull()
    expect(await t.store.get('greenleaf', 'metrc_prefs', 'mp1')).not.toBeNull()
  })
  it('400 naming the action or recid', async () => {
    const before = await audits('metrc_prefs')
    const r = await del('mp1', 'u-adm', 'drop_everything')
    expect(r.status).toBe(400)
    expect(fields(r.body)).toEqual(['action'])
    expect(r.body.errors[0].message).toContain('drop_everything')
    for (const recid of [undefined, '', "x' OR 1=1", 'a/b']) {
      const x = await del(recid)
      expect(x.status).toBe(400)
      expect(fields(x.body)).toEqual(['recid'])
    }
    expect((await call('POST', 'temp_manage_intake', { as: 'u-adm', body: { action: 'metrc_global_pref_delete', recid: 'mp1', extra: 1 } })).status).toBe(400)
    expect(await audits('metrc_prefs')).toBe(before)
  })
})

describe('GET /dt/v1/{deviceID}?last=1', () => {
  it('answers the codes of the newest reading of the device in the caller facility', async () => {
    const r = await call('GET', 'SEN-0001?last=1')
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ deviceID: 'SEN-0001', data: { temp: 22.5, rh: 55, co2: 800 }, ts: '2026-01-01T10:05:00.000Z' })
    // harbor has a device with the same id and a later reading: its token sees only that one
    const h = await call('GET', 'SEN-0001?last=1', { as: 'u-b' })
    expect(h.body).toEqual({ deviceID: 'SEN-0001', data: { temp: 99.9 }, ts: '2026-06-01T00:00:00.000Z' })
  })
  it("a device of another organisation is 404; a device without readings answers empty data", async () => {
    expect((await call('GET', 'SEN-HARBOR?last=1')).status).toBe(404)
    expect((await call('GET', 'SEN-HARBOR?last=1', { as: 'u-adm' })).status).toBe(404)
    expect((await call('GET', 'SEN-HARBOR?last=1', { tok: token('u-a', 'harbor') })).status).toBe(403) // a token for a facility not entitled
    expect((await call('GET', 'SEN-QUIET?last=1')).body).toEqual({ deviceID: 'SEN-QUIET', data: {}, ts: null })
    expect((await call('GET', 'NOPE-1?last=1')).status).toBe(404)
  })
  it('403 without the sensors module; 400 naming a bad parameter', async () => {
    expect((await call('GET', 'SEN-0001?last=1', { as: 'u-nosens' })).status).toBe(403)
    const r = await call('GET', 'SEN-0001?last=5')
    expect(r.status).toBe(400)
    expect(fields(r.body)).toEqual(['last'])
    const x = await call('GET', 'SEN-0001?last=1&code=temp')
    expect(x.status).toBe(400)
    expect(fields(x.body)).toEqual(['code'])
  })
  it('the sensor dictionary is GET /dt/v1/dictionary', async () => {
    await t.store.insert(seedActor, 'auth', 'dictionary', { code: 'temp', label: 'Temperature', short: 'T', max: 40, low: 10, med: 20, warn: 30, error: 35 })
    const r = await call('GET', 'dictionary?code=temp', { as: 'u-b' })
    expect(r.status).toBe(200)
    expect(r.body[0]).toMatchObject({ code: 'temp', label: 'Temperature', warn: 30 })
  })
})

describe('the API writes what the screens write, never more (issue 20 item 5)', () => {
  it('a user who sees the sensor devices only on the Sensors dashboard reads them, and may not add, change or delete one', async () => {
    const list = await call('GET', 'sen_devices')
    expect(list.status).toBe(200)
    expect(list.body.map((d: any) => d._id)).toContain('d1')
    const before = await t.store.get('greenleaf', 'sen_devices', 'd1')
    const audited = await audits('sen_devices')
    const tries = [
      await call('POST', 'sen_devices', { body: { deviceID: 'SEN-ROGUE', deviceName: 'Rogue', type: 'sensor' } }),
      await call('PUT', 'sen_devices/d1', { body: { deviceName: 'Renamed' } }),
      await call('PATCH', 'sen_devices/d1', { body: { deviceName: 'Renamed' } }),
      await call('DELETE', 'sen_devices/d1'),
    ]
    for (const r of tries) {
      expect(r.status).toBe(403)
      expect(codes(r.body)).toEqual(['FORBIDDEN'])
    }
    expect(await t.store.get('greenleaf', 'sen_devices', 'd1')).toEqual(before)
    expect(await all('greenleaf', 'sen_devices', { deviceID: 'SEN-ROGUE' })).toEqual([])
    expect(await audits('sen_devices')).toBe(audited)
  })

  it('the device settings screen (an admin) adds and deletes devices; the METRC preferences screen (kind prefs) still edits its table', async () => {
    const made = await call('POST', 'sen_devices', { as: 'u-adm', body: { deviceID: 'SEN-ADMIN', deviceName: 'Added by the admin', type: 'sensor' } })
    expect(made.status).toBe(201)
    expect((await call('DELETE', `sen_devices/${made.body._id}`, { as: 'u-adm' })).status).toBe(200)
    const pref = await call('PUT', 'metrc_prefs/mp1', { body: { Description: 'changed through the API' } })
    expect(pref.status).toBe(200)
    expect((await t.store.get('greenleaf', 'metrc_prefs', 'mp1'))!.Description).toBe('changed through the API')
  })
})

describe('DELETE /dt/v1/ota/{id}', () => {
  it('super deletes a firmware record (audited); admin and user are 403 and nothing changes', async () => {
    await t.store.insert(seedActor, 'auth', 'ota', { _id: 'fw1', name: 'canopy-sensor', version: '1.0.0' })
    const before = await audits('ota')
    for (const as of ['u-a', 'u-adm']) {
      const r = await call('DELETE', 'ota/fw1', { as })
      expect(r.status).toBe(403)
      expect(codes(r.body)).toEqual(['FORBIDDEN'])
    }
    expect(await audits('ota')).toBe(before)
    expect(await t.store.get('auth', 'ota', 'fw1')).not.toBeNull()
    const r = await call('DELETE', 'ota/fw1', { as: 'u-sup' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ _id: 'fw1', name: 'canopy-sensor' })
    expect(await t.store.get('auth', 'ota', 'fw1')).toBeNull()
    expect(await audits('ota', "AND doc_id = 'fw1' AND action = 'delete'")).toBe(1)
    expect((await call('DELETE', 'ota/fw1', { as: 'u-sup' })).status).toBe(404)
    expect((await call('DELETE', "ota/x' OR 1=1", { as: 'u-sup' })).status).toBe(404)
  })
})

describe('DELETE /ota/{name}', () => {
  const otaDir = () => path.join(env.DATA_DIR, 'ota')
  async function del(name: string, as: string | null = 'u-sup', method = 'DELETE') {
    const request = new Request(`http://canopy.test/ota/${encodeURIComponent(name)}`, { method, headers: as ? { 'x-access-token': token(as) } : {} })
    const fn = method === 'GET' ? otaFileLoader : otaFileAction
    const res = (await fn({ request, context: ctx(), params: { name } } as any)) as Response
    return { status: res.status, body: await res.json() }
  }
  beforeAll(() => {
    fs.mkdirSync(path.join(otaDir(), 'sub'), { recursive: true })
    fs.writeFileSync(path.join(otaDir(), 'fw-1.0.bin'), 'firmware')
    fs.writeFileSync(path.join(env.DATA_DIR, 'secret.txt'), 'keep me')
    fs.symlinkSync(path.join(env.DATA_DIR, 'secret.txt'), path.join(otaDir(), 'link.bin'))
  })
  it('super deletes a firmware file; audited', async () => {
    expect((await del('fw-1.0.bin', 'u-adm')).status).toBe(403)
    expect((await del('fw-1.0.bin', null)).status).toBe(401)
    expect(fs.existsSync(path.join(otaDir(), 'fw-1.0.bin'))).toBe(true)
    const r = await del('fw-1.0.bin')
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ deleted: 'fw-1.0.bin', size: 8 })
    expect(fs.existsSync(path.join(otaDir(), 'fw-1.0.bin'))).toBe(false)
    expect(await audits('ota_files', "AND doc_id = 'fw-1.0.bin' AND action = 'delete'")).toBe(1)
    expect((await del('fw-1.0.bin')).status).toBe(404)
  })
  it('a name can never leave the folder, nor remove a folder or a symlink; nothing changes', async () => {
    const before = await audits('ota_files')
    for (const name of ['../secret.txt', '..', '.', '/etc/passwd', 'sub/../../secret.txt', '..\\secret.txt', '.hidden', '', 'a'.repeat(200)]) {
      const r = await del(name)
      expect(r.status, name).toBe(400)
      expect(fields(r.body)).toEqual(['name'])
    }
    expect((await del('sub')).status).toBe(404)
    expect((await del('link.bin')).status).toBe(404)
    expect(fs.readFileSync(path.join(env.DATA_DIR, 'secret.txt'), 'utf8')).toBe('keep me')
    expect(fs.lstatSync(path.join(otaDir(), 'link.bin')).isSymbolicLink()).toBe(true)
    expect(fs.statSync(path.join(otaDir(), 'sub')).isDirectory()).toBe(true)
    expect((await del('x.bin', 'u-sup', 'GET')).status).toBe(405)
    expect(await audits('ota_files')).toBe(before)
  })
})

describe('schema administration: translator, collection delete, bulk upload (decision 011)', () => {
  const upload = (name: string, body: unknown, qs = '?org=auth&id=new', as = 'u-sup') => call('POST', `bulkupload/${name}${qs}`, { as, body })
  const KEYS = [{ key: 'name', label: 'Name', filter: true }, { key: 'qty', label: 'Quantity', type: 'number' }]

  it('translator: every table with a schema, and the field keys of one', async () => {
    const r = await call('GET', 'translator?return=key', { as: 'u-sup' })
    expect(r.status).toBe(200)
    expect(r.body).toEqual(expect.arrayContaining(['fac_plants', 'sen_readings', 'users']))
    const k = await call('GET', 'translator?return=keys&key=sen_readings', { as: 'u-sup' })
    expect(k.body).toEqual(['deviceID', 'code', 'value', 'read_at'])
    expect((await call('GET', 'translator?return=keys&key=nothing_here', { as: 'u-sup' })).status).toBe(404)
    for (const [qs, field] of [['return=keys&key=Bad!', 'key'], ['return=keys', 'key'], ['return=everything', 'return'], ['', 'return']]) {
      const x = await call('GET', `translator?${qs}`, { as: 'u-sup' })
      expect(x.status, qs).toBe(400)
      expect(fields(x.body)).toEqual([field])
    }
    expect((await call('GET', 'translator?return=key', { as: 'u-adm' })).status).toBe(403)
  })

  it('bulk upload creates a new schema (audited); delete removes it (audited) and keeps its records', async () => {
    const before = await audits('schemas', "AND doc_id = 'widgets'")
    const r = await upload('sch_widgets', KEYS)
    expect(r.status).toBe(201)
    expect(r.body.key).toBe('widgets')
    expect((await call('GET', 'translator?return=keys&key=widgets', { as: 'u-sup' })).body).toEqual(['name', 'qty'])
    expect(await audits('schemas', "AND doc_id = 'widgets' AND action = 'insert'")).toBe(1)
    // again: it exists
    const again = await upload('sch_widgets', { label: 'Widgets', keys: KEYS })
    expect(again.status).toBe(409)
    await t.store.insert(seedActor, 'greenleaf', 'widgets', { _id: 'w1', name: 'kept', qty: 1 })
    expect((await call('DELETE', 'collections/sch_widgets', { as: 'u-adm' })).status).toBe(403)
    const d = await call('DELETE', 'collections/sch_widgets', { as: 'u-sup' })
    expect(d.status).toBe(200)
    expect(d.body).toMatchObject({ deleted: 'sch_widgets' })
    expect(await t.schemas.get('widgets')).toBeUndefined()
    expect((await call('GET', 'translator?return=keys&key=widgets', { as: 'u-sup' })).status).toBe(404)
    expect(await audits('schemas', "AND doc_id = 'widgets' AND action = 'delete'")).toBe(1)
    expect(await audits('schemas', "AND doc_id = 'widgets'")).toBe(before + 2)
    const kept = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM c_widgets WHERE org = 'greenleaf'")
    expect(kept.rows[0].n).toBe(1)
    // uploaded again, with a label: the records are reachable again
    const up = await upload('sch_widgets', { label: 'Widgets', keys: KEYS })
    expect(up.status).toBe(201)
    expect(up.body.label).toBe('Widgets')
    expect((await t.store.get('greenleaf', 'widgets', 'w1'))!.name).toBe('kept')
    expect((await call('DELETE', 'collections/sch_widgets', { as: 'u-sup' })).status).toBe(200)
    expect((await call('DELETE', 'collections/sch_widgets', { as: 'u-sup' })).status).toBe(404)
  })

  it('refuses the tables the product ships with (core, platform, seeded); nothing changes', async () => {
    const before = await audits('schemas')
    for (const key of ['fac_plants', 'users', 'schemas', 'org', 'sen_readings', 'temp_eula', 'sup_html', 'auth_phrasemap']) {
      const d = await call('DELETE', `collections/sch_${key}`, { as: 'u-sup' })
      expect(d.status, key).toBe(403)
      expect(d.body.errors[0].message).toContain(key)
      expect((await upload(`sch_${key}`, KEYS)).status, key).toBe(403)
    }
    expect(await t.schemas.get('fac_plants')).toBeDefined()
    expect(await audits('schemas')).toBe(before)
  })

  it('bad input is a 400 naming it; non-super 403; nothing is created', async () => {
    const before = await audits('schemas')
    const cases: Array<[string, unknown, string, string]> = [
      ['sch_gadgets', KEYS, '?org=greenleaf&id=new', 'org'],
      ['sch_gadgets', KEYS, '?org=auth&id=abc', 'id'],
      ['sch_gadgets', KEYS, '?id=new', 'org'],
      ['gadgets', KEYS, '?org=auth&id=new', 'key'],
      ['sch_Gadgets', KEYS, '?org=auth&id=new', 'key'],
      ['sch_gadgets', [], '?org=auth&id=new', ''],
      ['sch_gadgets', [{ key: 'bad key', label: 'x' }], '?org=auth&id=new', 'keys.0.key'],
      ['sch_gadgets', { keys: KEYS, drop: true }, '?org=auth&id=new', 'drop'],
    ]
    for (const [name, body, qs, field] of cases) {
      const r = await upload(name, body, qs)
      expect(r.status, `${name}${qs}`).toBe(400)
      if (field) expect(fields(r.body)).toEqual([field])
    }
    expect((await upload('sch_gadgets', KEYS, '?org=auth&id=new', 'u-adm')).status).toBe(403)
    expect((await call('DELETE', 'collections/gadgets', { as: 'u-sup' })).status).toBe(400)
    expect((await call('DELETE', 'collections/sch_nothing_here', { as: 'u-sup' })).status).toBe(404)
    expect((await call('GET', 'collections/sch_x', { as: 'u-sup' })).status).toBe(405)
    expect(await t.schemas.get('gadgets')).toBeUndefined()
    expect(await audits('schemas')).toBe(before)
  })
})
