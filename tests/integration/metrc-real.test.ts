/**
 * METRC as METRC really answers (issue 21), on both databases, against the emulator (which follows
 * METRC's published shapes: tests/integration/metrc-contract.test.ts):
 *   - a key without the employees permission syncs every other table; the refusal is marked on
 *     that table with METRC's message and the permission it needs; the link stays good
 *   - packages keep METRC's nested item, and save from the edit form's write path
 *   - a plant on hold (and a mother plant) stays on a whole read; reading all again changes nothing
 *   - a plant waste whose answer was lost is not sent twice, and a sync does not copy it again
 *   - a refused item push is corrected (fields METRC's body takes, checked) and resent
 *   - METRC's own pick-list values (a waste method "Clipping", a category "Vape Cartridge…") save
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import { loadEnv, type Env } from '#app/config/env.server'
import type { MetrcEndpoint } from '#app/metrc/connection.server'
import { credentialChecker } from '#app/metrc/credentials.server'
import { GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { DEMO_USER_KEY, NO_EMPLOYEES_USER_KEY } from '#app/metrc/emulator/model'
import { actOnItem } from '#app/metrc/outbox/actions.server'
import type { OutboxRow } from '#app/metrc/outbox/applied.server'
import { pushFacility } from '#app/metrc/outbox/worker.server'
import { linkOf, saveLink } from '#app/metrc/sync/links.server'
import { metrcPanel } from '#app/metrc/sync/panel.server'
import { syncFacility, syncStatus, syncTable } from '#app/metrc/sync/run.server'
import { createRecord, updateRecord, type Writer } from '#app/records/write.server'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let emu: RunningEmulator
let t: TestDatabase
let env: Env
let endpoint: MetrcEndpoint
const silent = pino({ level: 'silent' })
const superUser = { uid: 'u-super', email: 'super@x.test', role: 'super', org: 'greenleaf' } as SessionUser
const w: Writer = { user: superUser, actor: { uid: 'u-super', requestId: 'metrc-real' }, facility: 'greenleaf' }
const context = () => ({ database: t, logger: silent, requestId: 'metrc-real', env }) as unknown as AppLoadContext
const o = () => ({ database: t, secret: env.SESSION_SECRET, endpoint, logger: silent, client: { attempts: 2, maxRetryAfterMs: 20, backoff: { baseMs: 5, maxMs: 10 }, timeoutMs: 3000 } })
const push = (org = 'greenleaf') => pushFacility(o(), org)
const su = { uid: 'u-super', role: 'super' }
const itemOf = async (sourceId: string) => (await t.db.query<OutboxRow>('SELECT * FROM metrc_outbox WHERE source_id = $1 ORDER BY seq DESC LIMIT 1', [sourceId])).rows[0]
const item = async (id: string) => (await t.db.query<OutboxRow>('SELECT * FROM metrc_outbox WHERE id = $1', [id])).rows[0]
const grow = () => emu.state.facilities[GROW_LICENSE]
const posted = (path: string) => emu.requests.filter((r) => r.method !== 'GET' && r.path === path)

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 30, packages: 10 } })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
  endpoint = { vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true }
  await seedDemo(t, env, { force: true })
  await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin' }, 'greenleaf', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
  // pushes go without approval here
  await t.db.query(`UPDATE c_metrc_prefs SET doc = doc || '{"AutoPush":"yes","NeedsApproval":"no"}' WHERE org = 'greenleaf'`)
  const r = await syncFacility(o(), 'greenleaf')
  expect(r.filter((x) => x.status !== 'done').map((x) => [x.collection, x.status])).toEqual([['metrc_patients', 'skipped']])
}, 180_000)
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})
beforeEach(() => emu.clearRequests())

describe("a user key carries its METRC user's permissions", () => {
  it('without the employees permission, every other table syncs; the refusal is shown with the permission it needs; the link stays good', async () => {
    // the key is checked as any other (METRC lists the license for it)
    await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin' }, 'gt', { state: 'CA', license: GROW_LICENSE, key: NO_EMPLOYEES_USER_KEY }, credentialChecker(env))
    const r = await syncFacility(o(), 'gt')
    const of = (c: string) => r.find((x) => x.collection === c)!
    expect(of('metrc_employees')).toMatchObject({ status: 'refused', refused: 'Manage Employees or View Employees', error: 'Authorization has been denied for this request.' })
    // every table after employees ran too (before: the sync stopped there and the link failed)
    expect(r.filter((x) => x.status !== 'done').map((x) => x.collection).sort()).toEqual(['metrc_employees', 'metrc_patients'])
    expect(await t.store.count('gt', 'metrc_plants')).toBe(30)
    expect(await t.store.count('gt', 'metrc_packages')).toBe(10)
    expect(await t.store.count('gt', 'metrc_harvests')).toBe(3)
    expect(await linkOf(t, 'gt')).toMatchObject({ status: 'ok', failingSince: null })
    expect(await syncStatus(t, 'gt', 'metrc_employees')).toMatchObject({ status: 'failed', refused: 'Manage Employees or View Employees' })
    const panel = await metrcPanel({ database: t, env } as unknown as AppLoadContext, superUser, 'gt', 'metrc_employees', new URL('http://x/MetrcEmployees'))
    expect(panel?.sync).toMatchObject({ refused: 'Manage Employees or View Employees', error: 'Authorization has been denied for this request.' })
    expect(panel?.link?.status).toBe('ok')
    // the other facility, on a full key, has its employees
    expect(await t.store.count('greenleaf', 'metrc_employees')).toBe(3)
  })
})

describe('the mirror is complete', () => {
  it('packages keep the item METRC nests in them, and save from the edit form', async () => {
    // METRC's packages (the demo's own stay beside them)
    const pkgs = (await t.store.find('greenleaf', 'metrc_packages', {}, 1000)).filter((p) => /^m\d+$/.test(p._id))
    expect(pkgs).toHaveLength(10)
    for (const p of pkgs) {
      const m = grow().packages.find((x) => `m${x.Id}` === p._id)!
      const it = grow().items.find((i) => i.Id === m.ItemId)!
      expect(p).toMatchObject({ ItemName: it.Name, ItemCategoryName: it.ProductCategoryName, ItemStrainName: it.StrainName })
    }
    // the edit form posts every field back: nothing refuses it for a missing item
    const p = pkgs[0]
    const { _id, cts: _c, ts: _t, ...fields } = p
    const r = await updateRecord(context(), w, 'metrc_packages', _id, { ...fields, Note: 'counted twice' })
    expect(r.doc).toMatchObject({ Note: 'counted twice', ItemName: p.ItemName })
  })

  it("keeps METRC's date-only values as the facility's calendar day", async () => {
    const p = grow().packages[0]
    const doc = (await t.store.get('greenleaf', 'metrc_packages', `m${p.Id}`))!
    // greenleaf is in Los Angeles: the day starts at 08:00 or 07:00 UTC, never the evening before
    expect(String(doc.PackagedDate)).toMatch(new RegExp(`^${String(p.PackagedDate)}T0[78]:00:00.000Z$`))
  })

  it('a plant put on hold and a mother plant stay; reading all again changes nothing', async () => {
    const onHold = grow().plants.find((p) => p.IsOnHold)!
    const mother = grow().plants.find((p) => p.GrowthPhase === 'Mother')!
    expect(await t.store.get('greenleaf', 'metrc_plants', `m${onHold.Id}`)).toMatchObject({ IsOnHold: 'yes' })
    expect(await t.store.get('greenleaf', 'metrc_plants', `m${mother.Id}`)).toMatchObject({ GrowthPhase: 'Mother' })
    // put another on hold in METRC: an incremental read and then a whole one keep it
    const next = grow().plants.find((p) => p.State === 'Tracked' && !p.IsOnHold && p.GrowthPhase === 'Vegetative')!
    Object.assign(next, { IsOnHold: true, LastModified: new Date().toISOString() })
    expect(await syncTable(o(), 'greenleaf', 'metrc_plants')).toMatchObject({ status: 'done', changed: 1 })
    expect(await syncTable({ ...o(), full: true }, 'greenleaf', 'metrc_plants')).toMatchObject({ status: 'done', changed: 0, seen: 30 })
    expect(await t.store.get('greenleaf', 'metrc_plants', `m${next.Id}`)).toMatchObject({ IsOnHold: 'yes' })
    expect(emu.requests.some((r) => r.path === '/plants/v2/onhold')).toBe(true)
    // finished harvests are read too
    expect(await t.store.count('greenleaf', 'metrc_harvests')).toBe(3)
  })
})

describe('plant waste is never sent twice', () => {
  const waste = (weight: number) => createRecord(context(), w, 'metrc_wmix', { WasteDate: '2026-11-21T17:00:00.000Z', WasteMethodName: 'Clipping', MixedMaterial: 'Soil', WasteWeight: weight, UnitOfMeasureName: 'Grams', ReasonName: 'Trim', LocationName: 'Flower Room 1', Note: 'bench trim' }, { anyMinute: true })
  const inMetrc = (weight: number) => grow().plantWaste.filter((x) => x.WasteWeight === weight)

  it("a waste whose answer was lost is found in METRC by what METRC lists (no id, no note) and not resent", async () => {
    // "Clipping" and "Trim" are METRC's values (the facility's METRC lists), not Canopy's own
    const doc = (await waste(15.69)).doc!
    const q = await itemOf(doc._id)
    expect(q).toMatchObject({ endpoint: 'POST /plants/v2/waste', status: 'pending' })
    expect(q.payload).toMatchObject({ LocationName: 'Flower Room 1', SublocationName: null, WasteMethodName: 'Clipping' })
    emu.faults.dropAnswers = 1
    expect((await push()).stopped).toBe('in-doubt')
    expect(await item(q.id)).toMatchObject({ status: 'sent', check_before: { count: 0 } })
    await push()
    expect(await item(q.id)).toMatchObject({ status: 'confirmed', message: 'METRC had taken it (found after its answer was lost).' })
    expect(posted('/plants/v2/waste')).toHaveLength(1)
    expect(inMetrc(15.69)).toHaveLength(1)
  })

  it('a waste that never reached METRC is sent (once) after the check', async () => {
    const doc = (await waste(12.82)).doc!
    const q = await itemOf(doc._id)
    // as if the process died after marking it sent, before the request left
    await t.db.query(`UPDATE metrc_outbox SET status = 'sent', sent_at = now(), check_before = '{"count":0}' WHERE id = $1`, [q.id])
    await push()
    expect(await item(q.id)).toMatchObject({ status: 'confirmed' })
    expect(posted('/plants/v2/waste')).toHaveLength(1)
    expect(inMetrc(12.82)).toHaveLength(1)
  })

  it('a sync takes METRC\'s row for a confirmed waste instead of adding a second copy', async () => {
    const before = await t.store.count('greenleaf', 'metrc_wmix')
    const r = await syncTable(o(), 'greenleaf', 'metrc_wmix')
    expect(r.status).toBe('done')
    expect(await t.store.count('greenleaf', 'metrc_wmix')).toBe(before)
    const mine = (await t.store.find('greenleaf', 'metrc_wmix', {}, 1000)).filter((d) => d.WasteWeight === 15.69)
    expect(mine).toHaveLength(1)
    expect(mine[0]._id).toBe(`w${String(inMetrc(15.69)[0].PlantWasteNumber)}`)
    expect((await syncTable(o(), 'greenleaf', 'metrc_wmix')).changed).toBe(0)
  })
})

describe('pushes carry every field METRC documents', () => {
  it('a refused item is corrected with fields METRC takes (checked against its body) and resent', async () => {
    const doc = (await createRecord(context(), w, 'metrc_items', { Name: 'Blue Dream Cart 1g', ProductCategoryName: 'Vape Cartridge (volume - each)', UnitOfMeasureName: 'Each', StrainName: 'Blue Dream', UnitThcContent: 850 })).doc!
    const q = await itemOf(doc._id)
    expect(q.endpoint).toBe('POST /items/v2')
    // the whole of METRC's item body goes, not five fields
    expect(q.payload).toMatchObject({ Name: 'Blue Dream Cart 1g', ItemCategory: 'Vape Cartridge (volume - each)', UnitOfMeasure: 'Each', Strain: 'Blue Dream', UnitThcContent: 850, UnitVolume: null, UnitWeight: null, UnitThcContentUnitOfMeasure: null })
    await push()
    const failed = await item(q.id)
    expect(failed.status).toBe('failed')
    expect(failed.message).toContain('require UnitVolume')
    const resend = (fields: Record<string, string>) => actOnItem(t, 'greenleaf', su, { uid: 'u-super' }, { intent: 'resend', id: q.id, fields })
    await expect(resend({ UnitVolume: 'one' })).rejects.toThrow('UnitVolume: enter a number.')
    await expect(resend({ Colour: 'blue' })).rejects.toThrow("METRC's POST /items/v2 takes no such field")
    expect((await item(q.id)).status).toBe('failed')
    // ProcessingJobTypeName is not in the push (Canopy keeps no processing jobs) but METRC's body takes it
    await resend({ UnitVolume: '1', UnitVolumeUnitOfMeasure: 'Milliliters', UnitThcContentUnitOfMeasure: 'Milligrams', ProcessingJobTypeName: '' })
    await push()
    expect(await item(q.id)).toMatchObject({ status: 'confirmed' })
    const made = grow().items.find((i) => i.Name === 'Blue Dream Cart 1g')!
    expect(made).toMatchObject({ UnitVolume: 1, UnitVolumeUnitOfMeasureName: 'Milliliters', UnitThcContent: 850, UnitThcContentUnitOfMeasureName: 'Milligrams', ProductCategoryName: 'Vape Cartridge (volume - each)' })
    expect(posted('/items/v2')).toHaveLength(2)
    // a change of the unit weight alone is a change METRC hears about
    const adopted = `m${made.Id}`
    await updateRecord(context(), w, 'metrc_items', adopted, { UnitWeight: 1.2, UnitWeightUnitOfMeasureName: 'Grams' }, { partial: true })
    const put = await itemOf(adopted)
    expect(put).toMatchObject({ endpoint: 'PUT /items/v2', payload: { Id: made.Id, UnitWeight: 1.2, UnitWeightUnitOfMeasure: 'Grams' } })
  })
})
