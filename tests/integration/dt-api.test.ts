/**
 * The /dt/v1 JSON API (issue 7, SPEC §7) on the real database, through the route modules: one
 * organisation's token never reaches another's rows (the same ids exist in both), row flags and
 * module entitlements hold, hostile table names, field names, values and ids change nothing,
 * writes take the form's path (schema, save rules, audit), and random input never gets a 500.
 */
import type { AppLoadContext } from '@remix-run/node'
import fc from 'fast-check'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { SAVE_MSG } from '#app/forms/save-rules'
import { loader as switchorgLoader } from '#app/routes/misc.switchorg'
import { verifyAccessToken } from '#app/auth/tokens.server'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { dtCaller } from '#tests/helpers/dt-call'

const seedActor = { uid: 'u-seed', requestId: 'dt-test' }
let t: TestDatabase
let env: Env

const USERS = [
  { uid: 'u-a', role: 'user', org: 'greenleaf', modules: { greenleaf: ['cul'] } },
  { uid: 'u-b', role: 'user', org: 'harbor', modules: { harbor: ['cul'] } },
  { uid: 'u-dis', role: 'user', org: 'greenleaf', modules: { greenleaf: ['dis'] } },
  { uid: 'u-adm', role: 'admin', org: 'greenleaf', modules: { greenleaf: null, harbor: null } },
  { uid: 'u-sup', role: 'super', org: 'greenleaf', modules: { greenleaf: null } },
] as const

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  for (const org of ['greenleaf', 'harbor']) await t.store.insert(seedActor, 'auth', 'org', { _id: org, name: org, fullName: `${org} full`, wid: [`w-${org}`], metrc: 'SECRET-KEY' })
  for (const u of USERS)
    await t.store.insert(seedActor, 'auth', 'users', { _id: u.uid, uid: u.uid, email: `${u.uid}@x.test`, role: u.role, org: u.org, web: 'yes', props: { facilities: Object.keys(u.modules), modules: u.modules, apiSecret: 'nope' } })
  // the same ids in both organisations: a query that forgot `org` would show at once
  for (const org of ['greenleaf', 'harbor']) {
    await t.store.insert(seedActor, org, 'set_strains', { _id: 's1', name: `Strain of ${org}` })
    await t.store.insert(seedActor, org, 'set_rooms', { _id: 'r1', name: `Room of ${org}` })
    await t.store.insert(seedActor, org, 'fac_plants', { _id: 'p1', tag: `${org}-P1`, strain: 's1', room: 'r1', notes: `${org} secret` })
    await t.store.insert(seedActor, org, 'fac_harvests', { _id: 'h1', name: `H-${org}` })
  }
  await t.store.insert(seedActor, 'harbor', 'set_strains', { _id: 's-harbor', name: 'Only in harbor' })
  await t.store.insert(seedActor, 'harbor', 'fac_plants', { _id: 'p-harbor', tag: 'HB-ONLY', strain: 's1', room: 'r1' })
  await t.store.insert(seedActor, 'greenleaf', 'fac_plants', { _id: 'p-locked', tag: 'LOCK', strain: 's1', room: 'r1', ed: 'no', delete: 'no' })
  await t.store.insert(seedActor, 'greenleaf', 'fac_trim', { _id: 't1', harvest: 'h1', trimmer: 'Ana', labor: 12 })
})
afterAll(() => t?.cleanup())

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `dt-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const token = (uid: string, org?: string, orig = uid) => {
  const u = USERS.find((x) => x.uid === uid)!
  return signAccessToken(env.SESSION_SECRET, { sub: uid, orig, org: org ?? u.org, role: u.role })
}

const call = dtCaller({ ctx, token: (uid) => token(uid), defaultUid: 'u-a' })

const stored = (org: string, table: string, id: string) => t.store.get(org, table, id)
const codes = (b: any) => (b.errors ?? []).map((e: any) => e.code)

describe('authentication', () => {
  it('answers 401 in the envelope without a token or with a forged one', async () => {
    for (const tok of [null, 'nope', `${token('u-a').slice(0, -3)}xyz`]) {
      const r = await call('GET', 'fac_plants', { tok })
      expect(r.status).toBe(401)
      expect(codes(r.body)).toEqual(['UNAUTHENTICATED'])
    }
  })
})

describe('one organisation never reaches another', () => {
  it('lists, counts and reads only the caller organisation rows, though the ids are the same', async () => {
    const a = await call('GET', 'fac_plants')
    expect(a.status).toBe(200)
    expect(a.body.map((d: any) => d.tag).sort()).toEqual(['LOCK', 'greenleaf-P1'])
    const b = await call('GET', 'fac_plants', { tok: token('u-b') })
    expect(b.body.map((d: any) => d.tag).sort()).toEqual(['HB-ONLY', 'harbor-P1'])
    expect((await call('GET', 'fac_plants?count')).body).toEqual({ count: 2 })
    expect((await call('GET', 'fac_plants?count&tag=HB-ONLY')).body).toEqual({ count: 0 })
    expect((await call('GET', 'fac_plants/p1')).body.notes).toBe('greenleaf secret')
    expect((await call('GET', 'fac_plants/p-harbor')).status).toBe(404)
    expect((await call('GET', 'fac_plants?_id=p-harbor')).body).toEqual([])
  })

  it('updates and deletes only its own row; the other organisation row with the same id is untouched', async () => {
    const before = await stored('harbor', 'fac_plants', 'p1')
    const put = await call('PUT', 'fac_plants/p1', { body: { notes: 'changed by A' } })
    expect(put.status).toBe(200)
    expect((await stored('greenleaf', 'fac_plants', 'p1'))!.notes).toBe('changed by A')
    expect(await stored('harbor', 'fac_plants', 'p1')).toEqual(before)
    expect((await call('PUT', 'fac_plants/p-harbor', { body: { notes: 'x' } })).status).toBe(404)
    expect((await call('DELETE', 'fac_plants/p-harbor')).status).toBe(404)
    expect((await stored('harbor', 'fac_plants', 'p-harbor'))!.notes).toBeUndefined()
    // and the shared id itself: A deletes its p1, harbor's p1 stays exactly as it was
    const del = await call('DELETE', 'fac_plants/p1')
    expect(del.status).toBe(200)
    expect(del.body).toMatchObject({ _id: 'p1', tag: 'greenleaf-P1' })
    expect(await stored('greenleaf', 'fac_plants', 'p1')).toBeNull()
    expect(await stored('harbor', 'fac_plants', 'p1')).toEqual(before)
    expect((await call('GET', 'fac_plants/p1', { tok: token('u-b') })).body.notes).toBe('harbor secret')
    expect((await call('DELETE', 'fac_plants/p1')).status).toBe(404)
    expect(await stored('harbor', 'fac_plants', 'p1')).toEqual(before)
    // put A's row back for the tests that follow
    await t.store.insert(seedActor, 'greenleaf', 'fac_plants', { _id: 'p1', tag: 'greenleaf-P1', strain: 's1', room: 'r1', notes: 'greenleaf secret' })
  })

  it('refuses a reference to a record of another organisation', async () => {
    const r = await call('POST', 'fac_plants', { body: { tag: 'X-1', strain: 's-harbor', room: 'r1' } })
    expect(r.status).toBe(400)
    expect(r.body.errors[0].field).toBe('strain')
    expect((await call('GET', 'fac_plants?tag=X-1')).body).toEqual([])
  })
})

describe('the generic record fields (SPEC §3: IsUsed, ed, delete, octs) on a table whose schema does not list them', () => {
  it('any editor makes a record inactive and active again; octs is accepted and is kept by the server', async () => {
    const made = await call('POST', 'fac_plants', { body: { tag: 'FLAG-1', strain: 's1', room: 'r1', IsUsed: 'no', octs: '2020-01-01T00:00:00.000Z' } })
    expect(made.status).toBe(201)
    const id = made.body._id
    expect(made.body.IsUsed).toBe('no')
    expect(made.body.octs).toBe(made.body.cts) // octs is the server's: copied from cts, whatever was sent
    expect((await stored('greenleaf', 'fac_plants', id))!.IsUsed).toBe('no')
    expect((await call('PUT', `fac_plants/${id}`, { body: { IsUsed: 'yes' } })).status).toBe(200)
    expect((await stored('greenleaf', 'fac_plants', id))!.IsUsed).toBe('yes')
    expect((await call('PUT', `fac_plants/${id}`, { body: { IsUsed: false } })).body.IsUsed).toBe('no')
    const bad = await call('PUT', `fac_plants/${id}`, { body: { IsUsed: 'maybe' } })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0]).toMatchObject({ field: 'IsUsed', message: 'Active must be yes or no' })
    expect((await stored('greenleaf', 'fac_plants', id))!.IsUsed).toBe('no')
  })

  it('admin and super set the row locks; a user may not, and is then held by them', async () => {
    const made = await call('POST', 'fac_plants', { body: { tag: 'FLAG-2', strain: 's1', room: 'r1' } })
    const id = made.body._id
    expect(made.body).not.toHaveProperty('ed')
    const refused = await call('PUT', `fac_plants/${id}`, { body: { ed: 'no', delete: 'no' } })
    expect(refused.status).toBe(400)
    expect(refused.body.errors.map((e: any) => e.field).sort()).toEqual(['delete', 'ed'])
    expect(refused.body.errors[0].message).toMatch(/only an administrator can change it/)
    expect((await call('POST', 'fac_plants', { body: { tag: 'FLAG-3', strain: 's1', room: 'r1', delete: 'no' } })).status).toBe(400)
    expect((await call('GET', 'fac_plants?tag=FLAG-3')).body).toEqual([])
    // sending what is stored already is no change, so a user's round trip of the whole record passes
    expect((await call('PUT', `fac_plants/${id}`, { body: { ...made.body, ed: 'yes', notes: 'round trip' } })).status).toBe(200)
    const locked = await call('PUT', `fac_plants/${id}`, { tok: token('u-adm'), body: { ed: 'no', delete: 'no' } })
    expect(locked.status).toBe(200)
    expect(locked.body).toMatchObject({ ed: 'no', delete: 'no' })
    expect((await call('PUT', `fac_plants/${id}`, { body: { notes: 'blocked' } })).status).toBe(403)
    expect((await call('DELETE', `fac_plants/${id}`)).status).toBe(403)
    expect((await call('PUT', `fac_plants/${id}`, { tok: token('u-sup'), body: { ed: 'yes' } })).status).toBe(200)
    expect((await call('PUT', `fac_plants/${id}`, { body: { notes: 'now editable' } })).status).toBe(200)
    expect((await call('DELETE', `fac_plants/${id}`)).status).toBe(403) // delete = no still holds
    expect((await stored('greenleaf', 'fac_plants', id))!).toMatchObject({ ed: 'yes', delete: 'no', notes: 'now editable' })
  })
})

describe('rights', () => {
  it('a user without the table module gets 403 for every call', async () => {
    const tok = token('u-dis')
    for (const [m, p, body] of [['GET', 'fac_plants'], ['GET', 'fac_plants/p1'], ['POST', 'fac_plants', { tag: 'Z' }], ['PUT', 'fac_plants/p1', { notes: 'z' }], ['DELETE', 'fac_plants/p1']] as const) {
      const r = await call(m, p, { tok, body })
      expect(r.status, `${m} ${p}`).toBe(403)
      expect(codes(r.body)).toEqual(['FORBIDDEN'])
    }
    expect(await stored('greenleaf', 'fac_plants', 'p1')).not.toBeNull()
  })

  it('a token for a facility the user may not enter reads nothing there', async () => {
    const r = await call('GET', 'fac_plants', { tok: token('u-a', 'harbor') })
    expect(r.status).toBe(403)
  })

  it('rows flagged ed/delete = no refuse a non-super user (even an admin); super may', async () => {
    for (const who of ['u-a', 'u-adm']) {
      expect((await call('PUT', 'fac_plants/p-locked', { tok: token(who), body: { notes: 'no' } })).status).toBe(403)
      expect((await call('DELETE', 'fac_plants/p-locked', { tok: token(who) })).status).toBe(403)
    }
    expect((await stored('greenleaf', 'fac_plants', 'p-locked'))!.notes).toBeUndefined()
    expect((await call('PUT', 'fac_plants/p-locked', { tok: token('u-sup'), body: { notes: 'super' } })).status).toBe(200)
    expect((await call('DELETE', 'fac_plants/p-locked', { tok: token('u-sup') })).status).toBe(200)
    expect(await stored('greenleaf', 'fac_plants', 'p-locked')).toBeNull()
  })

  it('platform tables behind Super screens are not open to facility users', async () => {
    expect((await call('GET', 'sup_bots')).status).toBe(403)
    expect((await call('POST', 'users', { body: { email: 'x@y.z', role: 'super', org: 'greenleaf' } })).status).toBe(403)
  })
})

describe('hostile input changes nothing', () => {
  const tables = ['fac_plants;DROP TABLE c_fac_plants', 'fac_plants"', "fac_plants'--", '..', 'FAC_PLANTS', 'c_fac_plants', 'pg_catalog.pg_user', 'fac_plants%00']
  it('table names that are not tables are 404 for every method', async () => {
    for (const name of tables) {
      for (const m of ['GET', 'POST', 'PUT', 'DELETE']) {
        const r = await call(m, `${encodeURIComponent(name)}${m === 'GET' || m === 'POST' ? '' : '/p1'}`, { body: m === 'POST' || m === 'PUT' ? { notes: 'x' } : undefined })
        expect(r.status, `${m} ${name}`).toBe(404)
        expect(codes(r.body)).toEqual(['NOT_FOUND'])
      }
    }
    expect((await call('GET', 'fac_plants?count')).body.count).toBeGreaterThan(0)
  })

  it('field names in filters must be fields of the table: 400 naming it', async () => {
    for (const f of ["tag'--", 'tag) OR (1=1', 'doc', 'tag->>0', 'nosuch']) {
      const r = await call('GET', `fac_plants?${encodeURIComponent(f)}=x`)
      expect(r.status, f).toBe(400)
      expect(r.body.errors[0].field).toBe(f)
    }
  })

  it('filter values and ids are data, never SQL', async () => {
    const counts = async () => [(await call('GET', 'fac_plants?count')).body.count, (await call('GET', 'fac_plants?count', { tok: token('u-b') })).body.count]
    const before = await counts()
    for (const v of ["' OR '1'='1", "greenleaf-P1' --", '%', '\\', '"; DELETE FROM c_fac_plants; --']) {
      const r = await call('GET', `fac_plants?tag=${encodeURIComponent(v)}`)
      expect(r.status).toBe(200)
      expect(r.body).toEqual([])
    }
    for (const id of ["p1' OR '1'='1", 'p1;--', '../p1', 'p1%']) {
      expect((await call('GET', `fac_plants/${encodeURIComponent(id)}`)).status).toBe(404)
      expect((await call('DELETE', `fac_plants/${encodeURIComponent(id)}`)).status).toBe(404)
    }
    expect(await counts()).toEqual(before)
    expect(before[1]).toBe(2)
  })

  it('limit and skip are capped whole numbers', async () => {
    const tok = token('u-b') // harbor has two plants
    expect((await call('GET', 'fac_plants?limit=1', { tok })).body).toHaveLength(1)
    const second = (await call('GET', 'fac_plants?limit=1&skip=1', { tok })).body
    expect(second).toHaveLength(1)
    expect(second[0]._id).not.toBe((await call('GET', 'fac_plants?limit=1', { tok })).body[0]._id)
    expect((await call('GET', 'fac_plants?limit=1&skip=2', { tok })).body).toEqual([])
    expect((await call('GET', 'fac_plants?limit=-1')).status).toBe(400)
    expect((await call('GET', 'fac_plants?skip=1e9')).status).toBe(400)
    expect((await call('GET', 'fac_plants?limit=99999999')).status).toBe(200)
  })

  it('a body over the limit is 413; a body that is not JSON or not an object is 400', async () => {
    const big = JSON.stringify({ notes: 'x'.repeat(2_100_000) })
    const r = await call('PUT', 'fac_plants/p1', { raw: big })
    expect(r.status).toBe(413)
    expect(codes(r.body)).toEqual(['TOO_LARGE'])
    expect((await call('POST', 'fac_plants', { raw: '{"tag":' })).status).toBe(400)
    expect((await call('POST', 'fac_plants', { body: [1, 2] })).status).toBe(400)
    expect((await call('POST', 'fac_plants', { body: 'x' })).status).toBe(400)
  })
})

describe('writes take the form path', () => {
  it('cts and ts in a PUT are ignored for a user, not an error; unknown fields are refused', async () => {
    const before = (await stored('greenleaf', 'fac_plants', 'p1'))!
    const r = await call('PUT', 'fac_plants/p1', { body: { notes: 'kept', cts: '2001-01-01T00:00:00Z', ts: '2001-01-01T00:00:00Z', octs: 'x', _id: 'p1' } })
    expect(r.status).toBe(200)
    expect(r.body.cts).toBe(before.cts)
    expect(r.body.ts > before.ts).toBe(true)
    const u = await call('PUT', 'fac_plants/p1', { body: { nosuch: 1 } })
    expect(u.status).toBe(400)
    expect(u.body.errors[0].field).toBe('nosuch')
    expect((await call('PUT', 'fac_plants/p1', { body: { _id: 'p2' } })).status).toBe(400)
  })

  it('a read-only field in the payload is refused and nothing is saved', async () => {
    const r = await call('PUT', 'fac_trim/t1', { body: { trimmer: 'Bo', labor: 1 } })
    expect(r.status).toBe(400)
    expect(r.body.errors).toEqual([expect.objectContaining({ code: 'BAD_INPUT', field: 'labor', message: 'Labor Cost is read-only' })])
    expect(await stored('greenleaf', 'fac_trim', 't1')).toMatchObject({ trimmer: 'Ana', labor: 12 })
  })

  it('a record read and sent back whole, with one field changed, saves: its read-only and unlisted fields unchanged are not edits', async () => {
    await t.store.update(seedActor, 'greenleaf', 'fac_trim', 't1', { legacy_note: 'from an import' })
    const got = await call('GET', 'fac_trim/t1')
    expect(got.status).toBe(200)
    const r = await call('PUT', 'fac_trim/t1', { body: { ...got.body, trimmer: 'Cy' } })
    expect(r.status).toBe(200)
    expect(await stored('greenleaf', 'fac_trim', 't1')).toMatchObject({ trimmer: 'Cy', labor: 12, legacy_note: 'from an import' })
    // changed, they still are refused
    expect((await call('PUT', 'fac_trim/t1', { body: { ...got.body, labor: 13 } })).status).toBe(400)
    expect((await call('PUT', 'fac_trim/t1', { body: { ...got.body, legacy_note: 'edited' } })).status).toBe(400)
    await call('PUT', 'fac_trim/t1', { body: { trimmer: 'Ana' } })
  })

  it('field types are checked on JSON values: numbers, measures, lists', async () => {
    const ok = await call('POST', 'fac_plants', { body: { tag: 'J-1', strain: 's1', room: 'r1', dead_weight: { qty: 2, unit: 'oz' }, planted: '2026-03-01T10:03:17Z' } })
    expect(ok.status).toBe(201)
    expect(ok.body.dead_weight).toEqual({ qty: 56.699, unit: 'g' })
    expect(ok.body.planted).toBe('2026-03-01T10:03:17.000Z')
    const bad = await call('POST', 'fac_plants', { body: { tag: 'J-2', strain: 's1', room: 'r1', dead_weight: { qty: 'lots', unit: 'gal' }, phase: 'Moon' } })
    expect(bad.status).toBe(400)
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(['dead_weight.qty', 'dead_weight.unit', 'phase'])
    const missing = await call('POST', 'fac_plants', { body: { strain: 's1', room: 'r1' } })
    expect(missing.body.errors[0]).toMatchObject({ field: 'tag', message: 'You must enter a Plant Tag value' })
    expect((await call('DELETE', `fac_plants/${ok.body._id}`)).status).toBe(200)
  })

  it('save rules apply: a dead plant needs its disposal fields; a planting needs an original count of 1 to 100', async () => {
    const dead = await call('POST', 'fac_plants', { body: { tag: 'D-1', strain: 's1', room: 'r1', mark_as_dead: 'yes' } })
    expect(dead.status).toBe(400)
    expect(dead.body.errors.map((e: any) => e.message)).toContain(SAVE_MSG.deadPlant)
    // a partial update is checked on the stored record merged with the change
    const put = await call('PUT', 'fac_plants/p1', { body: { mark_as_dead: 'yes', waste_method: 'Compost' } })
    expect(put.status).toBe(400)
    expect(put.body.errors[0].message).toBe(SAVE_MSG.deadPlant)
    expect((await stored('greenleaf', 'fac_plants', 'p1'))!.mark_as_dead).toBeUndefined()
    const planting = { name: 'B-1', strain: 's1', room: 'r1', mtag: '1A40001', origin: 'PKG-1', type: 'Clone', orig: 0 }
    const p0 = await call('POST', 'fac_plantings', { body: planting })
    expect(p0.status).toBe(400)
    expect(p0.body.errors.map((e: any) => e.message)).toContain(SAVE_MSG.originalCount)
    expect((await call('GET', 'fac_plantings?name=B-1')).body).toEqual([])
    const p5 = await call('POST', 'fac_plantings', { body: { ...planting, orig: 5 } })
    expect(p5.status).toBe(201)
  })

  it('every write leaves an audit row with the user and the original user', async () => {
    const tok = token('u-a', 'greenleaf', 'u-sup') // u-sup impersonating u-a
    const c = await call('POST', 'fac_plants', { tok, body: { tag: 'AUD-1', strain: 's1', room: 'r1' } })
    const id = c.body._id
    await call('PUT', `fac_plants/${id}`, { tok, body: { notes: 'n' } })
    await call('DELETE', `fac_plants/${id}`, { tok })
    const rows = await t.store.history('greenleaf', 'fac_plants', id)
    expect(rows.map((r) => [r.action, r.uid, r.orig_uid])).toEqual([
      ['insert', 'u-a', 'u-sup'],
      ['update', 'u-a', 'u-sup'],
      ['delete', 'u-a', 'u-sup'],
    ])
  })

  it('If-Match names the ts read: a stale one is a 409 and nothing changes', async () => {
    const cur = (await stored('greenleaf', 'fac_plants', 'p1'))!
    const stale = await call('PUT', 'fac_plants/p1', { body: { notes: 'stale' }, headers: { 'if-match': '2001-01-01T00:00:00.000Z' } })
    expect(stale.status).toBe(409)
    expect((await stored('greenleaf', 'fac_plants', 'p1'))!.notes).toBe(cur.notes)
    expect((await call('PUT', 'fac_plants/p1', { body: { notes: 'fresh' }, headers: { 'if-match': `"${cur.ts}"` } })).status).toBe(200)
  })
})

describe('auth server calls (platform data)', () => {
  it('users: own record for a user, the facility for an admin, never a secret', async () => {
    const own = await call('GET', 'users/u-a')
    expect(own.status).toBe(200)
    expect(own.body.email).toBe('u-a@x.test')
    expect(JSON.stringify(own.body)).not.toMatch(/apiSecret|nope/)
    expect((await call('GET', 'users/u-b')).status).toBe(404)
    expect((await call('GET', 'users?email=u-b@x.test')).body).toEqual([])
    expect((await call('GET', 'users?orgonly')).body.map((u: any) => u.uid)).toEqual(['u-a'])
    const adm = await call('GET', 'users?orgonly', { tok: token('u-adm') })
    expect(adm.body.map((u: any) => u.uid).sort()).toEqual(['u-a', 'u-adm', 'u-dis', 'u-sup', 'u-super']) // u-super: the seeded platform operator, home greenleaf
    expect((await call('GET', 'users?email=u-b@x.test', { tok: token('u-adm') })).body).toEqual([])
    expect((await call('GET', 'users?email=u-b@x.test', { tok: token('u-sup') })).body).toHaveLength(1)
    expect((await call('GET', "users?email=' OR 1=1 --", { tok: token('u-sup') })).body).toEqual([])
  })

  it('org: only facilities the user may enter, without the METRC key', async () => {
    expect((await call('GET', 'org?name=greenleaf&return=fullName')).body).toEqual({ fullName: 'greenleaf full' })
    expect((await call('GET', 'org?name=greenleaf&return=wid')).body).toEqual({ wid: ['w-greenleaf'] })
    expect((await call('GET', 'org?name=harbor&return=fullName')).status).toBe(404)
    expect((await call('GET', 'org?name=greenleaf&return=metrc')).status).toBe(400)
    const all = await call('GET', 'org')
    expect(all.body.map((o: any) => o._id)).toEqual(['greenleaf'])
    expect(JSON.stringify(all.body)).not.toContain('SECRET-KEY')
  })

  it('modules, workflows, phrase map and dictionary are open to every caller; provisions only of an own facility', async () => {
    for (const table of ['sup_modules', 'auth_workflows', 'auth_phrasemap', 'dictionary']) expect((await call('GET', table)).status, table).toBe(200)
    expect((await call('GET', 'sup_modules')).body.length).toBeGreaterThan(0)
    expect((await call('GET', 'auth_provisions?org=greenleaf')).status).toBe(200)
    expect((await call('GET', 'auth_provisions?org=harbor')).status).toBe(403)
  })

  it('a schema by name: sch_{table}, for a table the caller may read', async () => {
    const s = await call('GET', 'sch_fac_plants')
    expect(s.status).toBe(200)
    expect(s.body.key).toBe('fac_plants')
    expect((await call('GET', 'sch_dis_orders')).status).toBe(403)
    expect((await call('GET', 'sch_nosuch')).status).toBe(404)
  })

  it('set_preferences: own uid only unless admin; POST and PATCH', async () => {
    expect((await call('GET', 'set_preferences?uid=u-b')).status).toBe(403)
    const made = await call('POST', 'set_preferences', { body: { uid: 'u-a', key: 'theme', light: 'yes' } })
    expect(made.status).toBe(201)
    expect((await call('GET', 'set_preferences?uid=u-a')).body.map((p: any) => p._id)).toContain(made.body._id)
    expect((await call('PATCH', `set_preferences/${made.body._id}`, { body: { light: 'no' } })).body.light).toBe('no')
    expect((await call('PATCH', `set_preferences/${made.body._id}`, { tok: token('u-b'), body: { light: 'yes' } })).status).toBe(404)
    expect((await call('POST', 'set_preferences', { body: { uid: 'u-b', light: 'yes' } })).status).toBe(403)
    expect((await call('POST', 'set_preferences', { body: { uid: 'u-a', evil: 1 } })).status).toBe(400)
    // an admin reads the preferences of the users of the token's facility only: u-b works in harbor alone
    // (this line expected 200 before issue 20 item 5: any admin read anyone's)
    expect((await call('GET', 'set_preferences?uid=u-b', { tok: token('u-adm') })).status).toBe(403)
    expect((await call('GET', 'set_preferences?uid=u-b', { tok: token('u-adm', 'harbor') })).status).toBe(200)
  })

  it("another user's preferences: super any; an admin only with a token of a facility that user works in (issue 20 item 5)", async () => {
    const own = await call('POST', 'set_preferences', { tok: token('u-b'), body: { key: 'theme', light: 'yes' } })
    expect(own.status).toBe(201)
    const id = own.body._id
    const greenleafAdmin = token('u-adm')
    const mine = async () => (await t.store.find('auth', 'set_preferences', { uid: 'u-b' }, 100)).map((d) => ({ _id: d._id, light: d.light, ts: d.ts }))
    const before = await mine()
    const refusedPost = await call('POST', 'set_preferences', { tok: greenleafAdmin, body: { uid: 'u-b', light: 'no' } })
    expect(refusedPost.status).toBe(403)
    expect(codes(refusedPost.body)).toEqual(['FORBIDDEN'])
    expect((await call('PATCH', `set_preferences/${id}`, { tok: greenleafAdmin, body: { light: 'no' } })).status).toBe(404)
    expect((await call('PUT', `set_preferences/${id}`, { tok: greenleafAdmin, body: { light: 'no' } })).status).toBe(404)
    expect((await call('GET', `set_preferences/${id}`, { tok: greenleafAdmin })).status).toBe(404)
    expect(await mine()).toEqual(before)
    // a user of the same facility who is no admin: refused too
    expect((await call('POST', 'set_preferences', { tok: token('u-dis'), body: { uid: 'u-a', light: 'no' } })).status).toBe(403)
    // the same admin with a harbor token: u-b works there
    const harborAdmin = token('u-adm', 'harbor')
    expect((await call('GET', `set_preferences/${id}`, { tok: harborAdmin })).status).toBe(200)
    const patched = await call('PATCH', `set_preferences/${id}`, { tok: harborAdmin, body: { light: 'no' } })
    expect(patched.status).toBe(200)
    expect(patched.body.light).toBe('no')
    // a greenleaf user's, with the greenleaf token; and super anyone's
    expect((await call('POST', 'set_preferences', { tok: greenleafAdmin, body: { uid: 'u-a', light: 'yes' } })).status).toBe(201)
    expect((await call('PATCH', `set_preferences/${id}`, { tok: token('u-sup'), body: { light: 'yes' } })).status).toBe(200)
  })
})

describe('/misc/switchorg', () => {
  const switchTo = async (org: string, tok: string) => {
    const res = (await switchorgLoader({ request: new Request(`http://canopy.test/misc/switchorg?org=${encodeURIComponent(org)}`, { headers: { 'x-access-token': tok } }), context: ctx(), params: {} } as any)) as Response
    return { status: res.status, body: await res.json() }
  }
  it('gives tokens for a facility the user may enter, keeping the original user; refuses others', async () => {
    const ok = await switchTo('harbor', token('u-adm', 'greenleaf', 'u-sup'))
    expect(ok.status).toBe(200)
    expect(verifyAccessToken(env.SESSION_SECRET, ok.body['x-access-token'])).toMatchObject({ sub: 'u-adm', orig: 'u-sup', org: 'harbor' })
    expect(typeof ok.body['refresh-token']).toBe('string')
    expect((await switchTo('harbor', token('u-a'))).status).toBe(403)
    expect((await switchTo("harbor' OR 1=1", token('u-a'))).status).toBe(400)
    expect((await switchTo('harbor', 'forged')).status).toBe(401)
  })
})

describe('fuzz', () => {
  it('random paths, methods and bodies: always 2xx or 4xx with the envelope, never a 500', async () => {
    const tables = ['fac_plants', 'fac_plantings', 'fac_trim', 'users', 'org', 'set_preferences', 'sch_fac_plants', 'auth_provisions', 'x', "a'b", 'sup_modules']
    const json = fc.jsonValue({ maxDepth: 3 })
    const body = fc.oneof(json, fc.dictionary(fc.constantFrom('tag', 'strain', 'room', 'notes', 'dead_weight', 'mark_as_dead', 'orig', 'cts', 'ts', '_id', 'labor', 'planted', '__proto__', 'constructor'), json))
    const query = fc.array(fc.tuple(fc.constantFrom('tag', 'limit', 'skip', 'count', 'email', 'orgonly', 'name', 'return', 'org', 'uid', "x'y", ''), fc.string({ maxLength: 12 })), { maxLength: 3 })
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), fc.constantFrom(...tables), fc.option(fc.constantFrom('p1', 't1', 'u-a', "p1'--", '%2e%2e', 'x'.repeat(80))), query, body, fc.constantFrom('u-a', 'u-b', 'u-dis', 'u-adm'), async (m, table, id, q, b, who) => {
        const qs = new URLSearchParams(q).toString()
        const r = await call(m, `${encodeURIComponent(table)}${id ? `/${id}` : ''}${qs ? `?${qs}` : ''}`, { tok: token(who), body: m === 'GET' || m === 'DELETE' ? undefined : b })
        expect(r.status).toBeGreaterThanOrEqual(200)
        expect(r.status).toBeLessThan(500)
        if (r.status >= 400) {
          expect(Array.isArray(r.body.errors) && r.body.errors.length > 0).toBe(true)
          for (const e of r.body.errors) expect(typeof e.code === 'string' && typeof e.message === 'string').toBe(true)
        }
      }),
      { numRuns: 300, seed: 7 },
    )
    // the fuzz may have written (u-a owns fac_plants), but never into another organisation
    expect((await stored('harbor', 'fac_plants', 'p1'))!.tag).toBe('harbor-P1')
  }, 120_000)
})
