/**
 * Issue 23 on both databases: the cultivation lifecycle as row actions (decision 038), against the
 * METRC emulator — clones from a mother, tag 10 with a starting tag, to flowering in another room,
 * destroy 1 with its waste, harvest 9 weighed one by one, dry weight, 3 packages: each step one
 * transaction, and the worker's pushes in that order confirmed by METRC. An action that fails
 * half way changes nothing (no records, audit rows or outbox items); two people acting on the
 * same plants: one wins, the other is told what changed; "all matching" is exactly the view's rows.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import { loadEnv, type Env } from '#app/config/env.server'
import type { Doc } from '#app/db/types'
import type { MetrcEndpoint } from '#app/metrc/connection.server'
import { GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { DEMO_USER_KEY } from '#app/metrc/emulator/model'
import { actOnItem } from '#app/metrc/outbox/actions.server'
import type { OutboxRow } from '#app/metrc/outbox/applied.server'
import { pushFacility } from '#app/metrc/outbox/worker.server'
import { saveLink } from '#app/metrc/sync/links.server'
import { actionContext, registerRowAction, runRowAction } from '#app/records/row-actions.server'
import { findRoute } from '#app/route-map'
import { selectedIds } from '#app/screens/row-action.server'
import { readView } from '#app/screens/table-page.server'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let emu: RunningEmulator
let t: TestDatabase
let env: Env
let endpoint: MetrcEndpoint
const ORG = 'greenleaf'
const silent = pino({ level: 'silent' })
const context = () => ({ database: t, logger: silent, requestId: 'i23' }) as unknown as AppLoadContext
const grower = (uid: string) => ({ uid, email: `${uid}@x.test`, role: 'user', org: ORG }) as SessionUser
const ctxOf = (uid = 'u-maria') => actionContext(t.store, ORG, ORG, grower(uid), { uid, requestId: 'i23' }, 'America/Los_Angeles')
const form = (o: Record<string, string>) => {
  const f = new URLSearchParams(o)
  return { get: (k: string) => (f.get(k) ?? '').trim(), getAll: (k: string) => f.getAll(k) }
}
const act = (collection: string, key: string, rows: Doc[], input: Record<string, string>, uid = 'u-maria', stamp = '') =>
  runRowAction(ctxOf(uid), { collection, key, ids: rows.map((r) => r._id), stamp, input: form(input), canEdit: () => true })
const push = () => pushFacility({ database: t, secret: env.SESSION_SECRET, endpoint, logger: silent, client: { attempts: 2, maxRetryAfterMs: 20, backoff: { baseMs: 5, maxMs: 10 }, timeoutMs: 3000 } }, ORG)
const outbox = async () => (await t.db.query<OutboxRow & { seq: string }>('SELECT * FROM metrc_outbox WHERE org = $1 ORDER BY seq', [ORG])).rows
const counts = async () => {
  const q = async (sql: string) => Number((await t.db.query<{ n: string }>(sql, [ORG])).rows[0].n)
  return {
    plants: await q('SELECT count(*) AS n FROM c_fac_plants WHERE org = $1'),
    harvests: await q('SELECT count(*) AS n FROM c_fac_harvests WHERE org = $1'),
    audit: await q('SELECT count(*) AS n FROM audit_log WHERE org = $1'),
    outbox: await q('SELECT count(*) AS n FROM metrc_outbox WHERE org = $1'),
  }
}
const idOf = async (table: string, name: string) => (await t.store.find(ORG, table, { name }, 1))[0]._id
const plantsOf = async (batch: string) => (await t.store.find(ORG, 'fac_plants', { planting: batch }, 100)).sort((a, b) => String(a.tag).localeCompare(String(b.tag)))

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 30, packages: 10 } })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
  endpoint = { vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true }
  await seedDemo(t, env, { force: true })
  await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin' }, ORG, { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
}, 120_000)
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})

describe('the lifecycle, step by step, confirmed by METRC', () => {
  it('12 clones from a mother → tag 10 → flowering in another room → destroy 1 → harvest 9 → dry → 3 packages', async () => {
    const f = emu.state.facilities[GROW_LICENSE]
    const motherTag = String(f.plants.find((p) => p.GrowthPhase === 'Mother' && p.State === 'Tracked')!.Label)
    const [plantTag] = f.tags.plant
    const pkgTags = f.tags.package.slice(0, 3)
    const item = f.items.find((i) => i.QuantityType === 'WeightBased')!
    const [mom] = await t.store.insertRows(t.db, { uid: 'u-test' }, ORG, 'fac_moms', [{ name: 'MOM-I23 Blue Dream', tag: motherTag, strain: await idOf('set_strains', 'Blue Dream'), room: await idOf('set_rooms', 'Mother Room'), active: 'yes', clonesTaken: 0 }])
    const seq0 = (await outbox()).length

    expect(await act('fac_moms', 'clone', [mom], { name: 'PB-I23-1', count: '12', room: await idOf('set_rooms', 'Veg Room 1'), mtag: 'BATCH-I23-1', date: '2026-11-20' })).toBe('Batch PB-I23-1: 12 clones from MOM-I23 Blue Dream in Veg Room 1.')
    const [batch] = await t.store.find(ORG, 'fac_plantings', { name: 'PB-I23-1' }, 1)
    expect(batch).toMatchObject({ orig: 12, count: 12, type: 'Clone', origin: motherTag, mother: mom._id })
    expect((await t.store.get(ORG, 'fac_moms', mom._id))!.clonesTaken).toBe(12)

    expect(await act('fac_plantings', 'tag', [batch], { count: '10', start: plantTag, phase: 'Vegetative', room: await idOf('set_rooms', 'Veg Room 1'), date: '2026-11-21' })).toMatch(/^10 plants tagged from batch PB-I23-1 .*; 2 left untagged\.$/)
    const plants = await plantsOf(batch._id)
    expect(plants.map((p) => p.tag)).toEqual(f.tags.plant.slice(0, 10))
    expect((await t.store.get(ORG, 'fac_plantings', batch._id))!.count).toBe(2)

    const flower2 = await idOf('set_rooms', 'Flower Room 2')
    expect(await act('fac_plants', 'phase', plants, { phase: 'Flowering', room: flower2, date: '2026-11-22' })).toBe('10 plants now Flowering in Flower Room 2.')
    expect(await act('fac_plants', 'destroy', [plants[9]], { waste_reason: 'Male Plants', waste_method: 'Compost', mix_material: 'Soil', weight: '120', unit: 'g', note: 'male', date: '2026-11-23' })).toBe('1 plant destroyed (120 g waste).')
    const nine = plants.slice(0, 9)
    const weights = Object.fromEntries(nine.map((p, i) => [`wet.${p._id}`, String(400 + i)]))
    expect(await act('fac_plants', 'harvest', nine, { name: 'H-I23-1', dryRoom: await idOf('set_rooms', 'Dry Room'), date: '2026-11-24', 'wet.unit': 'g', ...weights })).toBe('Harvest H-I23-1: 9 plants, 3636 g wet, drying in Dry Room.')
    const [h] = await t.store.find(ORG, 'fac_harvests', { name: 'H-I23-1' }, 1)
    expect(h).toMatchObject({ plants: 9, wetWeight: { qty: 3636, unit: 'g' }, status: 'Drying' })
    expect(await act('fac_harvests', 'dry', [h], { dry: '900', unit: 'g', date: '2026-12-01' })).toBe('Harvest H-I23-1: 900 g dry.')
    const lines = Object.fromEntries(pkgTags.flatMap((tag, i) => [[`pkg.${i}.tag`, tag], [`pkg.${i}.item`, String(item.Name)], [`pkg.${i}.qty`, '250'], [`pkg.${i}.unit`, 'Grams']]))
    expect(await act('fac_harvests', 'package', [(await t.store.get(ORG, 'fac_harvests', h._id))!], { ...lines, date: '2026-12-02' })).toBe('3 packages made from harvest H-I23-1.')

    const queued = (await outbox()).slice(seq0)
    expect(queued.map((q) => q.endpoint)).toEqual([
      'POST /plants/v2/plantings',
      'POST /plantbatches/v2/growthphase',
      ...Array(10).fill('PUT /plants/v2/growthphase'),
      'DELETE /plants/v2',
      ...Array(9).fill('PUT /plants/v2/harvest'),
      ...Array(3).fill('POST /harvests/v2/packages'),
    ])
    expect(queued[0].payload).toEqual({ PlantLabel: motherTag, PlantBatchName: 'PB-I23-1', PlantBatchType: 'Clone', PlantCount: 12, LocationName: 'Veg Room 1', SublocationName: null, StrainName: 'Blue Dream', PatientLicenseNumber: null, ActualDate: '2026-11-20' })
    expect(queued[1].payload).toEqual({ Name: 'PB-I23-1', Count: 10, StartingTag: plantTag, GrowthPhase: 'Vegetative', NewLocation: 'Veg Room 1', NewSublocation: null, GrowthDate: '2026-11-21', PatientLicenseNumber: null })
    expect(queued[12].payload).toMatchObject({ Label: plants[9].tag, WasteMethodName: 'Compost', WasteMaterialMixed: 'Soil', WasteWeight: 120, WasteUnitOfMeasureName: 'Grams', WasteReasonName: 'Male Plants', Count: 1 })
    // each plant with its own weight off the scale
    for (const [i, p] of nine.entries()) expect(queued.find((q) => q.endpoint === 'PUT /plants/v2/harvest' && q.payload.Plant === p.tag)?.payload).toMatchObject({ Weight: 400 + i, UnitOfWeight: 'Grams', DryingLocation: 'Dry Room', HarvestName: 'H-I23-1' })
    // the demo facility's /MetrcPrefs hold destroys, harvests and packages for an approver: approved as on /MetrcOutbox
    const held = queued.filter((q) => q.status === 'held')
    expect(held.map((q) => q.endpoint)).toEqual(queued.slice(12).map((q) => q.endpoint))
    expect(queued.slice(0, 12).every((q) => q.status === 'pending')).toBe(true)
    for (const q of held) await actOnItem(t, ORG, { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'approve', id: q.id })

    await push()
    const done = (await outbox()).slice(seq0)
    expect(done.filter((q) => q.status !== 'confirmed').map((q) => `${q.endpoint}: ${q.message}`)).toEqual([])
    const b = f.plantBatches.find((x) => x.Name === 'PB-I23-1')!
    expect(b).toMatchObject({ UntrackedCount: 2, TrackedCount: 9 })
    expect(f.harvests.find((x) => x.Name === 'H-I23-1')).toMatchObject({ PlantCount: 9, TotalWetWeight: 3636, PackageCount: 3 })
    expect(f.packages.filter((p) => pkgTags.includes(String(p.Label)))).toHaveLength(3)
  })
})

describe('package actions, confirmed by METRC', () => {
  const pkg = async (tag: string) => (await t.store.find(ORG, 'metrc_packages', { Label: tag }, 1))[0]
  it('split, lab sample, adjust with a reason, move; a held package refuses a split and sends nothing', async () => {
    const f = emu.state.facilities[GROW_LICENSE]
    // the lifecycle's three packages of 250 g, confirmed by METRC above
    const [a, b, c] = (await t.store.find(ORG, 'metrc_packages', { SourceHarvestNames: 'H-I23-1' }, 5)).sort((x, y) => String(x.Label).localeCompare(String(y.Label)))
    expect([a, b, c].map((x) => x.Quantity)).toEqual([250, 250, 250])
    const fresh = f.tags.package.slice(0, 3)
    const seq0 = (await outbox()).length

    expect(await act('metrc_packages', 'split', [a], { 'pkg.0.tag': fresh[0], 'pkg.0.qty': '100', 'pkg.1.tag': fresh[1], 'pkg.1.qty': '50.5', date: '2026-12-03' })).toBe(`Package ${a.Label} split into 2 new packages (150.5 Grams); 99.5 Grams left in it.`)
    expect(await pkg(fresh[0])).toMatchObject({ Quantity: 100, UnitOfMeasureName: 'Grams', ItemName: a.ItemName, SourcePackageLabels: a.Label })
    expect((await pkg(String(a.Label)))!.Quantity).toBe(99.5)
    expect(await act('metrc_packages', 'sample', [b], { tag: fresh[2], qty: '2', date: '2026-12-03' })).toBe(`Lab sample ${fresh[2]}: 2 Grams from package ${b.Label}.`)
    expect(await pkg(fresh[2])).toMatchObject({ Quantity: 2, IsTestingSample: 'yes', SourcePackageLabels: b.Label })
    // Theft needs a note: refused, nothing changed
    const before = await counts()
    await expect(act('metrc_packages', 'adjust', [(await pkg(String(b.Label)))!], { qty: '240', reason: 'Theft', date: '2026-12-03' })).rejects.toThrow('Reason Theft needs a note: say what happened.')
    expect(await counts()).toEqual(before)
    expect(await act('metrc_packages', 'adjust', [(await pkg(String(b.Label)))!], { qty: '240', reason: 'Scale Variance', note: 'recalibrated', date: '2026-12-03' })).toBe(`Package ${b.Label}: 248 → 240 Grams (Scale Variance).`)
    expect(await act('metrc_packages', 'move', [c], { room: await idOf('set_rooms', 'Vault') })).toBe('1 package moved to Vault.')
    expect(await act('metrc_packages', 'hold', [(await pkg(String(c.Label)))!], { reason: 'mould seen on one bag', date: '2026-12-03' })).toBe('1 package put on hold.')
    const held = (await pkg(String(c.Label)))!
    expect(held).toMatchObject({ IsOnHold: 'yes', Note: 'On hold 2026-12-03: mould seen on one bag' })
    await expect(act('metrc_packages', 'split', [held], { 'pkg.0.tag': 'X', 'pkg.0.qty': '1', date: '2026-12-03' })).rejects.toThrow(/^1 of the 1 selected packages cannot be split: .*\(on hold\)\. Nothing was changed\.$/)
    expect(await act('metrc_packages', 'release', [held], { date: '2026-12-04' })).toBe('1 package released.')

    const queued = (await outbox()).slice(seq0)
    expect(queued.map((q) => q.endpoint)).toEqual(['POST /packages/v2', 'POST /packages/v2', 'POST /packages/v2/testing', 'POST /packages/v2/adjust', 'PUT /packages/v2/location'])
    expect(queued[0].payload).toMatchObject({ Tag: fresh[0], Item: a.ItemName, Quantity: 100, UnitOfMeasure: 'Grams', Ingredients: [{ Package: a.Label, Quantity: 100, UnitOfMeasure: 'Grams' }], ActualDate: '2026-12-03' })
    expect(queued[2].payload).toMatchObject({ Tag: fresh[2], Quantity: 2, Ingredients: [{ Package: b.Label, Quantity: 2, UnitOfMeasure: 'Grams' }] })
    expect(queued[3].payload).toEqual({ Label: b.Label, Quantity: -8, UnitOfMeasure: 'Grams', AdjustmentReason: 'Scale Variance', AdjustmentDate: '2026-12-03', ReasonNote: 'recalibrated' })
    expect(queued[4].payload).toMatchObject({ Label: c.Label, Location: 'Vault', Sublocation: null })
    for (const q of queued.filter((x) => x.status === 'held')) await actOnItem(t, ORG, { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'approve', id: q.id })
    await push()
    expect((await outbox()).slice(seq0).filter((q) => q.status !== 'confirmed').map((q) => `${q.endpoint}: ${q.message}`)).toEqual([])
    const m = (tag: unknown) => f.packages.find((p) => p.Label === tag)!
    expect([m(a.Label).Quantity, m(fresh[0]).Quantity, m(fresh[1]).Quantity, m(b.Label).Quantity, m(fresh[2]).Quantity]).toEqual([99.5, 100, 50.5, 240, 2])
    expect(m(fresh[2])).toMatchObject({ IsTestingSample: true, SourcePackageLabels: b.Label })
    expect(m(c.Label).LocationName).toBe('Vault')
  })
})

describe('one transaction', () => {
  it('an action that fails half way changes nothing: no records, no audit rows, no outbox items', async () => {
    registerRowAction('fac_plants', 'test-half-way', {
      describe: () => [],
      async run(w, rows) {
        const [h] = await w.insert('fac_harvests', [{ name: 'H-HALF', plants: rows.length, wetWeight: { qty: 1, unit: 'g' } }])
        await w.update('fac_plants', rows.map((before) => ({ before, patch: { harvest: h._id, phase: 'Harvested', wetWeight: { qty: 5, unit: 'g' } } })))
        await w.queue([{ endpoint: 'PUT /harvests/v2/finish', payload: { Id: 1, ActualDate: '2026-11-27' }, label: 'x' }])
        throw new Error('the scale fell over')
      },
    })
    const rows = (await t.store.find(ORG, 'fac_plants', { phase: 'Flowering' }, 20)).filter((p) => p.tag)
    expect(rows.length).toBeGreaterThan(5)
    const before = await counts()
    const outboxBefore = await outbox()
    await expect(act('fac_plants', 'test-half-way', rows, {})).rejects.toThrow('the scale fell over')
    expect(await counts()).toEqual(before)
    expect(await outbox()).toEqual(outboxBefore)
    for (const r of rows) expect((await t.store.get(ORG, 'fac_plants', r._id))!.ts).toBe(r.ts)
  })

  it('a refused row refuses the action: every plant or none, and it says which and why', async () => {
    const rows = (await t.store.find(ORG, 'fac_plants', { phase: 'Flowering' }, 5)).filter((p) => p.tag)
    const before = await counts()
    await expect(act('fac_plants', 'phase', rows, { phase: 'Vegetative' })).rejects.toThrow(/^5 of the 5 selected plants cannot change phase: .*\(cannot go back from Flowering to Vegetative\).*Nothing was changed\.$/)
    expect(await counts()).toEqual(before)
  })
})

describe('two people acting on the same plants', () => {
  it('the first wins; the second is told what changed, by whom, and nothing of theirs is written', async () => {
    const rows = (await t.store.find(ORG, 'fac_plants', { phase: 'Vegetative' }, 8)).filter((p) => p.tag)
    const stamp = rows.reduce((m, r) => (r.ts > m ? r.ts : m), '')
    const r1 = await idOf('set_rooms', 'Clone Room')
    const r2 = await idOf('set_rooms', 'Flower Room 3')
    expect(await act('fac_plants', 'move', rows.slice(0, 3), { room: r1 }, 'u-maria', stamp)).toBe('3 plants moved to Clone Room.')
    const before = await counts()
    const e = await act('fac_plants', 'move', rows, { room: r2 }, 'u-jordan', stamp).catch((x: Error) => x)
    expect(e).toBeInstanceOf(Error)
    expect((e as { code?: string }).code).toBe('CONFLICT')
    expect((e as Error).message).toContain(`3 of the ${rows.length} selected rows were changed by someone else since you opened this page`)
    expect((e as Error).message).toContain(`${String(rows[0].tag)} (room by u-maria)`)
    expect((e as Error).message).toMatch(/Nothing was changed\./)
    expect(await counts()).toEqual(before)
  })

  it('at the same moment: one commits, the other waits for its lock and is refused', async () => {
    const rows = (await t.store.find(ORG, 'fac_plants', { phase: 'Vegetative' }, 20)).filter((p) => p.tag).slice(8, 14)
    const stamp = rows.reduce((m, r) => (r.ts > m ? r.ts : m), '')
    const [a, b] = await Promise.allSettled([
      act('fac_plants', 'move', rows, { room: await idOf('set_rooms', 'Flower Room 1') }, 'u-maria', stamp),
      act('fac_plants', 'move', rows, { room: await idOf('set_rooms', 'Flower Room 3') }, 'u-jordan', stamp),
    ])
    const won = [a, b].filter((x) => x.status === 'fulfilled')
    const lost = [a, b].filter((x) => x.status === 'rejected') as PromiseRejectedResult[]
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(1)
    expect((lost[0].reason as { code?: string }).code).toBe('CONFLICT')
    const rooms = new Set((await Promise.all(rows.map((r) => t.store.get(ORG, 'fac_plants', r._id)))).map((r) => r!.room))
    expect(rooms.size).toBe(1)
  })
})

describe('select all that match the view', () => {
  it('acts on exactly the rows of the view, never another facility\'s', async () => {
    const route = findRoute('/culPlants')!
    const url = new URL('http://x/culPlants/act/move?pick=all&col=tag&q=1A4')
    const view = await readView(context(), route, ORG, new URL('http://x/culPlants?col=tag&q=1A4'))
    const ids = await selectedIds(context(), view, url)
    // the same rows as the table's own page query, all of them
    const page = await t.store.page(ORG, 'fac_plants', { ...view.pageQuery, offset: 0, limit: 10_000 })
    expect(ids.length).toBeGreaterThan(20)
    expect(new Set(ids)).toEqual(new Set(page.rows.map((r) => r._id)))
    // another facility's plant with the same id and a matching tag: never selected, never touched
    const twin = page.rows[0]
    await t.store.insertRows(t.db, { uid: 'u-test' }, 'harbor', 'fac_plants', [{ _id: twin._id, tag: String(twin.tag), phase: 'Vegetative', room: 'r-harbor', alive: 'yes' }])
    const harborBefore = await t.db.query(`SELECT id, doc, ts::text FROM c_fac_plants WHERE org = 'harbor' ORDER BY id`)
    const rows = await t.store.lockRows(t.db, ORG, 'fac_plants', ids)
    expect(rows).toHaveLength(ids.length)
    const live = rows.filter((r) => r.mark_as_dead !== 'yes' && !r.harvest && r.alive !== 'no' && !['Harvested', 'Destroyed'].includes(String(r.phase)))
    const moved = await act('fac_plants', 'move', live, { room: await idOf('set_rooms', 'Flower Room 1') })
    expect(moved).toMatch(/plants? moved to Flower Room 1/)
    expect((await t.db.query(`SELECT id, doc, ts::text FROM c_fac_plants WHERE org = 'harbor' ORDER BY id`)).rows).toEqual(harborBefore.rows)
    const audit = await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM audit_log WHERE org = 'harbor' AND collection = 'fac_plants' AND action = 'update'`)
    expect(Number(audit.rows[0].n)).toBe(0)
  })
})
