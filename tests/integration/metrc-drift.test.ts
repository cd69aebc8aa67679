/**
 * METRC drift (issue 9 item 7) against the METRC emulator, on both databases: after a sync of
 * metrc_plants (metrc_packages), Canopy's plants (inventory) with the same tag are compared
 * (state, growth phase, room, strain; quantity in METRC's unit, room); differences open drift rows with the last agreed value; a second sync changes nothing;
 * "Take METRC's" changes the Canopy record (audited, the person as actor), "Keep Canopy's" queues
 * the push in the outbox, both in one transaction with the decision's audit row; a resolved drift
 * stays resolved until a value changes again; another organisation never sees or resolves it; bad
 * input is refused with its reason and nothing changes.
 */
import pino from 'pino'
import { loadEnv, type Env } from '#app/config/env.server'
import type { MetrcEndpoint } from '#app/metrc/connection.server'
import { DEMO_USER_KEY, GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { driftScreen, type DriftView } from '#app/metrc/drift/list.server'
import { pushAbandoned } from '#app/metrc/drift/outbox-hook.server'
import { resolveDrift } from '#app/metrc/drift/resolve.server'
import { saveLink } from '#app/metrc/sync/links.server'
import { syncTable } from '#app/metrc/sync/run.server'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let emu: RunningEmulator
let t: TestDatabase
let env: Env
let endpoint: MetrcEndpoint
const ORG = 'greenleaf'
const admin = { uid: 'u-admin', requestId: 'drift-test' }
const o = () => ({ database: t, secret: env.SESSION_SECRET, endpoint, logger: pino({ level: 'silent' }), client: { attempts: 2, maxRetryAfterMs: 50, backoff: { baseMs: 20, maxMs: 50 } } })
const sync = () => syncTable(o(), ORG, 'metrc_plants')
type Plant = { Id: number; Label: string; State: string; GrowthPhase: string; LocationName: string; StrainName: string; LastModified: string }
const metrcPlants = () => emu.state.facilities[GROW_LICENSE].plants as unknown as Plant[]
const rooms: Record<string, string> = {}
const strains: Record<string, string> = {}
const plants: Record<string, { id: string; tag: string }> = {}
const openOf = async (org = ORG) => (await driftScreen(t, org)).open
const find = (rows: DriftView[], tag: string, field: string) => rows.find((r) => r.tag === tag && r.field === field)
const count = async (sql: string, params: unknown[]) => (await t.db.query<{ n: number }>(sql, params)).rows[0].n
const state = async () => ({
  audit: await count('SELECT count(*)::int AS n FROM audit_log WHERE org = $1', [ORG]),
  outbox: await count('SELECT count(*)::int AS n FROM metrc_outbox WHERE org = $1', [ORG]),
  open: await count(`SELECT count(*)::int AS n FROM metrc_drift WHERE org = $1 AND status = 'open'`, [ORG]),
  plants: JSON.stringify(await t.store.find(ORG, 'fac_plants', {}, 100)),
})

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 40, packages: 10 } })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
  endpoint = { vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true }
  await ensurePlatform(t, env)
  await saveLink(t, env.SESSION_SECRET, admin, ORG, { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
  await saveLink(t, env.SESSION_SECRET, admin, 'orgc', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
  // Canopy's rooms and strains: no "Veg Room" (METRC has one)
  for (const name of ['Flower Room 1', 'Flower Room 2', 'Mother Room', 'Vault']) rooms[name] = (await t.store.insert(admin, ORG, 'set_rooms', { name }))._id
  for (const name of ['Blue Dream', 'OG Kush', 'Sour Diesel', 'Granddaddy Purple']) strains[name] = (await t.store.insert(admin, ORG, 'set_strains', { name: `${name} (house)`, metrc_name: name }))._id
  expect((await sync()).drift).toEqual([{ table: 'plants', pairs: 0, open: 0, opened: 0, cleared: 0 }])
  // Canopy's plants with METRC's tags
  const flowering = metrcPlants().filter((p) => p.GrowthPhase === 'Flowering')
  const veg = metrcPlants().filter((p) => p.GrowthPhase === 'Vegetative')
  const add = async (k: string, p: Plant, v: Record<string, unknown>) => {
    const d = await t.store.insert(admin, ORG, 'fac_plants', { tag: p.Label, strain: strains[p.StrainName], room: rooms[p.LocationName] ?? '', phase: p.GrowthPhase, alive: 'yes', mark_as_dead: 'no', ...v })
    plants[k] = { id: d._id, tag: p.Label }
  }
  await add('same', flowering[0], {}) // agrees on every field
  await add('room', flowering[1], { room: rooms['Mother Room'] })
  await add('phase', veg[0], { phase: 'Flowering' }) // and its room: Canopy has no Veg Room
  await add('dead', flowering[2], { alive: 'no', mark_as_dead: 'yes', phase: 'Destroyed' })
  await add('strain', flowering[3], { strain: strains[flowering[3].StrainName === 'OG Kush' ? 'Blue Dream' : 'OG Kush'] })
  // another facility's plant with a tag METRC knows: never compared with greenleaf's
  await t.store.insert(admin, 'orgc', 'fac_plants', { tag: flowering[4].Label, room: '', phase: 'Vegetative', alive: 'yes' })
})
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})

describe('detection', () => {
  it('opens one row per differing field of a tag both sides have, with the three values', async () => {
    const r = await sync()
    expect(r.status).toBe('done')
    expect(r.drift![0]).toMatchObject({ table: 'plants', pairs: 5, opened: 5, cleared: 0, open: 5 })
    const open = await openOf()
    expect(open.map((x) => `${x.tag === plants.room.tag ? 'room' : x.tag === plants.phase.tag ? 'phase' : x.tag === plants.dead.tag ? 'dead' : x.tag === plants.strain.tag ? 'strain' : '?'}:${x.field}`).sort()).toEqual(['dead:State', 'phase:Growth Phase', 'phase:Room', 'room:Room', 'strain:Strain'])
    const p = metrcPlants().find((x) => x.Label === plants.room.tag)!
    expect(find(open, plants.room.tag, 'Room')).toMatchObject({ table: 'Plants', canopy: 'Mother Room', metrc: p.LocationName, synced: null, moved: 'unknown', status: 'open' })
    expect(find(open, plants.dead.tag, 'State')).toMatchObject({ canopy: 'Destroyed', metrc: 'Tracked' })
    expect(find(open, plants.phase.tag, 'Room')).toMatchObject({ canopy: null, metrc: 'Veg Room' })
    // the strain compares METRC's name of Canopy's strain
    const ps = metrcPlants().find((x) => x.Label === plants.strain.tag)!
    expect(find(open, plants.strain.tag, 'Strain')).toMatchObject({ canopy: ps.StrainName === 'OG Kush' ? 'Blue Dream' : 'OG Kush', metrc: ps.StrainName })
  })

  it('a second sync opens nothing new and keeps the same rows', async () => {
    const before = await openOf()
    const audits = (await state()).audit
    const r = await sync()
    expect(r.drift![0]).toMatchObject({ opened: 0, cleared: 0, open: 5 })
    expect((await openOf()).map((x) => x.id).sort()).toEqual(before.map((x) => x.id).sort())
    expect((await state()).audit).toBe(audits)
  })

  it('the last synced value says which side moved', async () => {
    const p = metrcPlants().find((x) => x.Label === plants.same.tag)!
    const was = p.LocationName
    p.LocationName = was === 'Flower Room 1' ? 'Flower Room 2' : 'Flower Room 1'
    p.LastModified = new Date().toISOString()
    await sync()
    expect(find(await openOf(), plants.same.tag, 'Room')).toMatchObject({ canopy: was, synced: was, metrc: p.LocationName, moved: 'metrc' })
    // METRC goes back: the drift clears by itself
    p.LocationName = was
    p.LastModified = new Date().toISOString()
    const r = await sync()
    expect(r.drift![0]).toMatchObject({ cleared: 1, open: 5 })
    expect(find(await openOf(), plants.same.tag, 'Room')).toBeUndefined()
  })

  it('another facility sees none of it', async () => {
    expect(await openOf('orgc')).toEqual([])
    const r = await syncTable(o(), 'orgc', 'metrc_plants')
    // its one plant differs in phase, room and strain (it has neither)
    expect(r.drift![0]).toMatchObject({ pairs: 1, opened: 3 })
    const theirs = await openOf('orgc')
    expect(theirs.map((x) => x.field).sort()).toEqual(['Growth Phase', 'Room', 'Strain'])
    const mine = (await openOf()).map((x) => x.id)
    expect(theirs.filter((x) => mine.includes(x.id))).toEqual([])
    expect(mine).toHaveLength(5)
  })
})

describe('resolution', () => {
  it("Take METRC's: the Canopy record takes METRC's value, audited with the person as actor, and the drift is resolved", async () => {
    const d = find(await openOf(), plants.room.tag, 'Room')!
    const outbox = (await state()).outbox
    const r = await resolveDrift(t, admin, ORG, d.id, 'metrc')
    expect(r).toMatchObject({ side: 'metrc', push: null, change: { room: rooms[d.metrc!] } })
    expect((await t.store.get(ORG, 'fac_plants', plants.room.id))!.room).toBe(rooms[d.metrc!])
    const hist = await t.store.history(ORG, 'fac_plants', plants.room.id)
    expect(hist.at(-1)).toMatchObject({ action: 'update', uid: 'u-admin', before: { room: rooms['Mother Room'] }, after: { room: rooms[d.metrc!] } })
    const decision = await t.store.history(ORG, 'metrc_drift', d.id)
    expect(decision).toHaveLength(1)
    expect(decision[0]).toMatchObject({ uid: 'u-admin', before: { status: 'open' }, after: { status: 'resolved', side: 'metrc', resolved_by: 'u-admin' } })
    expect((await state()).outbox).toBe(outbox)
    expect((await driftScreen(t, ORG)).decided[0]).toMatchObject({ id: d.id, status: 'resolved', side: 'metrc', resolvedBy: 'u-admin' })
    // the next sync finds them agreeing: nothing reopens, the decision is seen in effect
    const s = await sync()
    expect(s.drift![0]).toMatchObject({ opened: 0 })
    expect(find(await openOf(), plants.room.tag, 'Room')).toBeUndefined()
    expect((await t.db.query('SELECT settled_at FROM metrc_drift WHERE org = $1 AND id = $2', [ORG, d.id])).rows[0].settled_at).not.toBeNull()
  })

  it("Keep Canopy's: the push is queued in the same transaction, and a sync before it arrives does not reopen the drift", async () => {
    const d = find(await openOf(), plants.phase.tag, 'Growth Phase')!
    expect(d).toMatchObject({ canopy: 'Flowering', metrc: 'Vegetative' })
    const r = await resolveDrift(t, admin, ORG, d.id, 'canopy')
    expect(r.push).toMatchObject({ id: expect.any(String), status: 'pending' })
    const q = await t.db.query<{ endpoint: string; payload: Record<string, unknown>; status: string; source_collection: string; source_id: string; created_by: string }>('SELECT * FROM metrc_outbox WHERE org = $1 AND id = $2', [ORG, r.push!.id])
    expect(q.rows[0]).toMatchObject({ endpoint: 'PUT /plants/v2/growthphase', status: 'pending', source_collection: 'fac_plants', source_id: plants.phase.id, created_by: 'u-admin' })
    expect(q.rows[0].payload).toMatchObject({ Label: plants.phase.tag, GrowthPhase: 'Flowering', NewLocation: 'Veg Room', GrowthDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) })
    expect((await t.store.history(ORG, 'metrc_drift', d.id))[0].after).toMatchObject({ status: 'resolved', side: 'canopy', push_id: r.push!.id })
    // METRC still says Vegetative: the decision stands
    expect((await sync()).drift![0]).toMatchObject({ opened: 0 })
    expect(find(await openOf(), plants.phase.tag, 'Growth Phase')).toBeUndefined()
    // the push arrives (as the worker would send it): the sides agree, the decision is in effect
    const res = await fetch(`${emu.url}/plants/v2/growthphase?licenseNumber=${GROW_LICENSE}`, { method: 'PUT', headers: { Authorization: 'Basic ' + Buffer.from(`${emu.vendorKey}:${DEMO_USER_KEY}`).toString('base64'), 'Content-Type': 'application/json' }, body: JSON.stringify([q.rows[0].payload]) })
    expect(res.status).toBe(200)
    await sync()
    expect((await t.db.query('SELECT settled_at FROM metrc_drift WHERE org = $1 AND id = $2', [ORG, d.id])).rows[0].settled_at).not.toBeNull()
    // a value that changes again is new drift
    await t.store.update(admin, ORG, 'fac_plants', plants.phase.id, { phase: 'Mother' })
    await sync()
    expect(find(await openOf(), plants.phase.tag, 'Growth Phase')).toMatchObject({ canopy: 'Mother', metrc: 'Flowering', synced: 'Flowering', moved: 'canopy' })
  })

  it("Keep Canopy's for a room and a strain: PUT /plants/v2/location and PUT /plants/v2/strain, by METRC's names", async () => {
    const p = metrcPlants().find((x) => x.Label === plants.same.tag)!
    const other = p.LocationName === 'Flower Room 1' ? 'Flower Room 2' : 'Flower Room 1'
    await t.store.update(admin, ORG, 'fac_plants', plants.same.id, { room: rooms[other] })
    await sync()
    const room = find(await openOf(), plants.same.tag, 'Room')!
    expect(room).toMatchObject({ canopy: other, synced: p.LocationName, metrc: p.LocationName, moved: 'canopy' })
    const compliance = { uid: 'u-compliance', requestId: 'drift-test' }
    // dates go as the facility's day: Kiritimati is UTC+14 all year, a day ahead of UTC for 14 hours of 24
    const r1 = await resolveDrift(t, compliance, ORG, room.id, 'canopy', { timeZone: 'Pacific/Kiritimati' })
    const kiritimatiDay = new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10)
    const strain = find(await openOf(), plants.strain.tag, 'Strain')!
    const r2 = await resolveDrift(t, compliance, ORG, strain.id, 'canopy')
    const q = await t.db.query<{ id: string; endpoint: string; payload: Record<string, unknown> }>('SELECT id, endpoint, payload FROM metrc_outbox WHERE org = $1 AND id = ANY($2::text[]) ORDER BY seq', [ORG, [r1.push!.id, r2.push!.id]])
    expect(q.rows).toEqual([
      { id: r1.push!.id, endpoint: 'PUT /plants/v2/location', payload: { Label: plants.same.tag, Location: other, ActualDate: kiritimatiDay } },
      { id: r2.push!.id, endpoint: 'PUT /plants/v2/strain', payload: { Label: plants.strain.tag, StrainName: strain.canopy } },
    ])
    // the emulator takes both as they are queued
    for (const row of q.rows) {
      const [method, path] = row.endpoint.split(' ')
      const res = await fetch(`${emu.url}${path}?licenseNumber=${GROW_LICENSE}`, { method, headers: { Authorization: 'Basic ' + Buffer.from(`${emu.vendorKey}:${DEMO_USER_KEY}`).toString('base64'), 'Content-Type': 'application/json' }, body: JSON.stringify([row.payload]) })
      expect(res.status, row.endpoint).toBe(200)
    }
    await sync()
    expect(find(await openOf(), plants.same.tag, 'Room')).toBeUndefined()
    expect(find(await openOf(), plants.strain.tag, 'Strain')).toBeUndefined()
  })
  it('a push that will not arrive (failed or discarded) lets the drift open again at the next check', async () => {
    const p = metrcPlants().find((x) => x.Label === plants.room.tag)!
    const other = p.LocationName === 'Flower Room 1' ? 'Flower Room 2' : 'Flower Room 1'
    await t.store.update(admin, ORG, 'fac_plants', plants.room.id, { room: rooms[other] })
    await sync()
    const d = find(await openOf(), plants.room.tag, 'Room')!
    const r = await resolveDrift(t, admin, ORG, d.id, 'canopy')
    expect((await sync()).drift![0]).toMatchObject({ opened: 0 })
    // the outbox gives it up (as the worker would, in its own transaction)
    expect(await t.db.transaction((tx) => pushAbandoned(tx, ORG, r.push!.id))).toBe(true)
    expect(await t.db.transaction((tx) => pushAbandoned(tx, 'orgc', r.push!.id))).toBe(false)
    await sync()
    const again = find(await openOf(), plants.room.tag, 'Room')!
    expect(again).toMatchObject({ canopy: other, metrc: p.LocationName, status: 'open' })
    expect(again.id).not.toBe(d.id)
  })
})

describe('refusals: a clear reason, nothing changed', () => {
  it('a side that cannot win, an unknown or malformed id, a wrong side, a decided drift, another facility, values that moved', async () => {
    const open = await openOf()
    const dead = find(open, plants.dead.tag, 'State')!
    const vegRoom = find(open, plants.phase.tag, 'Room')!
    const before = await state()
    const refused = async (p: Promise<unknown>, code: string, message: RegExp) => {
      await expect(p).rejects.toMatchObject({ code, message: expect.stringMatching(message) })
      expect(await state()).toEqual(before)
    }
    await refused(resolveDrift(t, admin, ORG, dead.id, 'canopy'), 'BAD_INPUT', /harvest or a destroy/)
    await refused(resolveDrift(t, admin, ORG, vegRoom.id, 'metrc'), 'BAD_INPUT', /no room named Veg Room/)
    await refused(resolveDrift(t, admin, ORG, vegRoom.id, 'canopy'), 'BAD_INPUT', /no room to send/)
    await refused(resolveDrift(t, admin, ORG, 'ffffffffffffffffffffffff', 'metrc'), 'NOT_FOUND', /no such drift/)
    await refused(resolveDrift(t, admin, ORG, "x' OR 1=1 --", 'metrc'), 'BAD_INPUT', /drift id/)
    await refused(resolveDrift(t, admin, ORG, dead.id, 'both'), 'BAD_INPUT', /which side wins/)
    await refused(resolveDrift(t, admin, 'orgc', dead.id, 'metrc'), 'NOT_FOUND', /no such drift/)
    const decided = (await driftScreen(t, ORG)).decided[0]
    await refused(resolveDrift(t, admin, ORG, decided.id, 'metrc'), 'CONFLICT', /already resolved by/)
    // the Canopy record changed since the drift was found: sync first
    await t.store.update(admin, ORG, 'fac_plants', plants.dead.id, { phase: 'Harvested' })
    const moved = await state()
    await expect(resolveDrift(t, admin, ORG, dead.id, 'metrc')).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/sync again/) })
    expect(await state()).toEqual(moved)
    // after a sync the row follows the new value and can be resolved
    await sync()
    expect(find(await openOf(), plants.dead.tag, 'State')).toMatchObject({ id: dead.id, canopy: 'Harvested' })
    // a record locked against changes (ed = no) takes METRC's value only from super
    await t.db.query(`UPDATE c_fac_plants SET doc = doc || '{"ed": "no"}' WHERE org = $1 AND id = $2`, [ORG, plants.dead.id])
    const locked = await state()
    await expect(resolveDrift(t, admin, ORG, dead.id, 'metrc')).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/locked/) })
    expect(await state()).toEqual(locked)
    await resolveDrift(t, { uid: 'u-super' }, ORG, dead.id, 'metrc', { isSuper: true })
    expect(await t.store.get(ORG, 'fac_plants', plants.dead.id)).toMatchObject({ alive: 'yes', mark_as_dead: 'no', phase: 'Flowering', ed: 'no' })
  })
})

describe('packages', () => {
  type Pkg = { Label: string; Quantity: number; UnitOfMeasureName: string; LocationName: string }
  it("compares quantity in METRC's unit and the room; Keep Canopy's adjusts by the difference, Take METRC's moves the record", async () => {
    const pk = emu.state.facilities[GROW_LICENSE].packages as unknown as Pkg[]
    const [same, more, moved] = pk.filter((p) => p.UnitOfMeasureName === 'Grams')
    const inv = async (p: Pkg, v: Record<string, unknown>) => (await t.store.insert(admin, ORG, 'fac_inventory', { tag: p.Label, room: rooms[p.LocationName], qty: { qty: p.Quantity, unit: 'g' }, ...v }))._id
    await inv(same, { qty: { qty: same.Quantity / 28.3495, unit: 'oz' } }) // the same weight in ounces: no drift
    const moreId = await inv(more, { qty: { qty: 1, unit: 'kg' } })
    const movedId = await inv(moved, { room: rooms['Mother Room'] })
    const r = await syncTable(o(), ORG, 'metrc_packages')
    expect(r.drift).toEqual([{ table: 'packages', pairs: 3, open: 2, opened: 2, cleared: 0 }])
    const open = await openOf()
    const qty = find(open, more.Label, 'Quantity')!
    expect(qty).toMatchObject({ table: 'Packages', canopy: '1000 Grams', metrc: `${more.Quantity} Grams` })
    expect(find(open, same.Label, 'Quantity')).toBeUndefined()
    const room = find(open, moved.Label, 'Room')!
    expect(room).toMatchObject({ canopy: 'Mother Room', metrc: 'Vault' })

    const kept = await resolveDrift(t, admin, ORG, qty.id, 'canopy')
    const [push] = (await t.db.query<{ endpoint: string; payload: Record<string, unknown> }>('SELECT endpoint, payload FROM metrc_outbox WHERE org = $1 AND id = $2', [ORG, kept.push!.id])).rows
    const delta = Math.round((1000 - more.Quantity) * 10_000) / 10_000
    expect(push).toMatchObject({ endpoint: 'POST /packages/v2/adjust', payload: { Label: more.Label, Quantity: delta, UnitOfMeasure: 'Grams', AdjustmentReason: 'Entry Error', ReasonNote: expect.stringContaining(`[canopy:${kept.push!.id}]`) } })
    const took = await resolveDrift(t, admin, ORG, room.id, 'metrc')
    expect(took.change).toEqual({ room: rooms.Vault })
    expect((await t.store.get(ORG, 'fac_inventory', movedId))!.room).toBe(rooms.Vault)
    expect((await t.store.get(ORG, 'fac_inventory', moreId))!.qty).toEqual({ qty: 1, unit: 'kg' })
    // the adjustment reaches METRC as queued: the sides agree, nothing reopens
    const res = await fetch(`${emu.url}/packages/v2/adjust?licenseNumber=${GROW_LICENSE}`, { method: 'POST', headers: { Authorization: 'Basic ' + Buffer.from(`${emu.vendorKey}:${DEMO_USER_KEY}`).toString('base64'), 'Content-Type': 'application/json' }, body: JSON.stringify([push.payload]) })
    expect(res.status).toBe(200)
    const again = await syncTable(o(), ORG, 'metrc_packages')
    expect(again.drift![0]).toMatchObject({ opened: 0, open: 0 })
    expect(more.Quantity).toBe(1000)
  })
})
