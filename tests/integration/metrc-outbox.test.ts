/**
 * METRC pushes through the outbox (issue 9 item 5), on both databases, against the METRC emulator:
 * a change and its pushes commit together (or neither); the worker sends in order, in batches of
 * 10, once; /MetrcPrefs hold what needs approval; METRC's refusals fail the rows it names with its
 * words, and a person fixes and resends or discards; METRC down the whole time, a 429 storm and a
 * lost answer lose nothing and send nothing twice; another facility is never touched.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import { loadEnv, type Env } from '#app/config/env.server'
import type { MetrcEndpoint } from '#app/metrc/connection.server'
import { GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { DEMO_USER_KEY } from '#app/metrc/emulator/model'
import { actOnItem, outboxView } from '#app/metrc/outbox/actions.server'
import type { OutboxRow } from '#app/metrc/outbox/applied.server'
import { NEEDS_INGREDIENTS, NEEDS_REASON } from '#app/metrc/outbox/pushes.server'
import { startOutboxWorker } from '#app/metrc/outbox/scheduler.server'
import { pushFacility } from '#app/metrc/outbox/worker.server'
import { linkOf, saveLink } from '#app/metrc/sync/links.server'
import { syncTable } from '#app/metrc/sync/run.server'
import { createRecord, updateRecord, type Writer } from '#app/records/write.server'
import type { SignedIn } from '#app/auth/require.server'
import { findRoute } from '#app/route-map'
import { toggleCheck } from '#app/screens/table-actions.server'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let emu: RunningEmulator
let t: TestDatabase
let env: Env
let endpoint: MetrcEndpoint
const silent = pino({ level: 'silent' })
const context = () => ({ database: t, logger: silent, requestId: 'outbox' }) as unknown as AppLoadContext
const superUser = { uid: 'u-super', email: 'super@x.test', role: 'super', org: 'greenleaf' } as SessionUser
const w: Writer = { user: superUser, actor: { uid: 'u-super', requestId: 'outbox' }, facility: 'greenleaf' }
const push = (org = 'greenleaf') => pushFacility({ database: t, secret: env.SESSION_SECRET, endpoint, logger: silent, client: { attempts: 2, maxRetryAfterMs: 20, backoff: { baseMs: 5, maxMs: 10 }, timeoutMs: 3000 } }, org)
const items = async (org = 'greenleaf') => (await t.db.query<OutboxRow>('SELECT * FROM metrc_outbox WHERE org = $1 ORDER BY seq', [org])).rows
const item = async (id: string) => (await t.db.query<OutboxRow>('SELECT * FROM metrc_outbox WHERE id = $1', [id])).rows[0]
const due = () => t.db.query(`UPDATE metrc_outbox SET next_at = now() - interval '1 second' WHERE status = 'pending'`)
const batches = () => emu.state.facilities[GROW_LICENSE].plantBatches
const posted = (path: string) => emu.requests.filter((r) => r.method !== 'GET' && r.path === path)
let ids: { strain: (n: string) => Promise<string>; room: (n: string) => Promise<string> }
let n = 0
async function planting(over: Record<string, unknown> = {}) {
  n++
  const r = await createRecord(context(), w, 'fac_plantings', { name: `PB-T-${String(n).padStart(3, '0')}`, strain: await ids.strain('Blue Dream'), room: await ids.room('Flower Room 1'), mtag: `1A4TEST${n}`, origin: '1A4SRC0001', type: 'Clone', orig: 12, count: 12, planted: '2026-11-20T16:00:00.000Z', ...over }, { anyMinute: true })
  return r.doc!
}
async function wmix(i: number, over: Record<string, unknown> = {}) {
  const r = await createRecord(context(), w, 'metrc_wmix', { WasteDate: '2026-11-21T17:00:00.000Z', WasteMethodName: 'Grinder', MixedMaterial: 'Soil', WasteWeight: 100 + i, UnitOfMeasureName: 'Grams', ReasonName: 'Trimming/Pruning', Note: `bench ${i}`, ...over }, { anyMinute: true })
  return r.doc!
}

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 30, packages: 10 } })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
  endpoint = { vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true }
  await seedDemo(t, env, { force: true })
  const find = (table: string) => async (name: string) => (await t.store.find('greenleaf', table, { name }, 1))[0]._id
  ids = { strain: find('set_strains'), room: find('set_rooms') }
  await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin' }, 'greenleaf', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
}, 120_000)
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})
beforeEach(() => {
  emu.clearRequests()
})

describe('queued with the change', () => {
  it('a planting queues its METRC planting in the same transaction; a refused one queues nothing', async () => {
    const before = (await items()).length
    const doc = await planting()
    const [q] = (await items()).slice(before)
    expect(q).toMatchObject({ endpoint: 'POST /plantbatches/v2/plantings', status: 'pending', source_collection: 'fac_plantings', source_id: doc._id, created_by: 'u-super' })
    expect(q.payload).toEqual({ Name: doc.name, Type: 'Clone', Count: 12, Strain: 'Blue Dream', Location: 'Flower Room 1', Sublocation: null, PatientLicenseNumber: null, ActualDate: '2026-11-20', SourcePlantBatches: null })
    // the save rules refuse a batch of 150: no record and no push
    await expect(planting({ orig: 150 })).rejects.toThrow()
    expect((await items()).length).toBe(before + 1)
    // a push that cannot be queued undoes the record with it
    await expect(t.store.insert(w.actor, 'greenleaf', 'fac_plantings', { name: 'PB-ROLLBACK' }, { also: async () => { throw new Error('outbox full') } })).rejects.toThrow('outbox full')
    expect(await t.store.find('greenleaf', 'fac_plantings', { name: 'PB-ROLLBACK' })).toHaveLength(0)
  })

  it('a facility without a METRC link queues nothing', async () => {
    const harbor: Writer = { ...w, facility: 'harbor' }
    await createRecord(context(), harbor, 'metrc_items', { Name: 'Harbor Test Item', ProductCategoryName: 'Buds', UnitOfMeasureName: 'Grams' })
    expect(await items('harbor')).toHaveLength(0)
  })
})

describe('the worker', () => {
  it('sends each pending push once and confirms it with METRC\'s Id', async () => {
    const r = await push()
    expect(r.stopped).toBeUndefined()
    const done = (await items()).filter((i) => i.endpoint === 'POST /plantbatches/v2/plantings')
    expect(done.every((i) => i.status === 'confirmed')).toBe(true)
    const batch = batches().find((b) => b.Name === done[0].payload.Name)!
    expect(batch).toMatchObject({ StrainName: 'Blue Dream', LocationName: 'Flower Room 1', UntrackedCount: 12 })
    expect(Number(done[0].metrc_id)).toBe(batch.Id)
    emu.clearRequests()
    expect((await push()).requests).toBe(0)
    expect(posted('/plantbatches/v2/plantings')).toHaveLength(0)
  })

  it('the worker in the server sends on its own, facility by facility, and stops cleanly', async () => {
    const doc = await planting()
    const loop = startOutboxWorker({ env, database: t, logger: silent, everyMs: 50, client: { attempts: 2, backoff: { baseMs: 5, maxMs: 10 } } })
    try {
      for (let i = 0; i < 100 && (await itemOf(doc._id)).status !== 'confirmed'; i++) await new Promise((r) => setTimeout(r, 50))
      expect(await itemOf(doc._id)).toMatchObject({ status: 'confirmed' })
    } finally {
      loop.stop()
      await loop.idle()
    }
    expect(batches().filter((b) => b.Name === doc.name)).toHaveLength(1)
  })

  it('a pass whose run lock is lost (decision 069) sends nothing more; the next pass sends the rest', async () => {
    await push()
    const first = await planting()
    const then = await wmix(900)
    // approved at once (the demo's /MetrcPrefs hold waste for compliance)
    await t.db.query(`UPDATE metrc_outbox SET status = 'pending' WHERE source_id = $1 AND status = 'held'`, [then._id])
    let lost = false
    emu.clearRequests()
    const r = await pushFacility({ database: t, secret: env.SESSION_SECRET, endpoint, logger: silent, stopped: () => lost, client: { attempts: 2, maxRetryAfterMs: 20, backoff: { baseMs: 5, maxMs: 10 }, timeoutMs: 3000, onRequest: () => void (lost = true) } }, 'greenleaf')
    expect(r.stopped).toBe('stopped')
    // the lock went during the first send: that one is answered, the next is never claimed
    expect(await itemOf(first._id)).toMatchObject({ status: 'confirmed' })
    const waiting = await itemOf(then._id)
    expect(waiting, JSON.stringify(waiting)).toMatchObject({ status: 'pending' })
    expect(emu.requests.filter((q) => q.method !== 'GET' && `${q.method} ${q.path}` === waiting.endpoint)).toHaveLength(0)
    expect((await push()).stopped).toBeUndefined()
    expect(await itemOf(then._id)).toMatchObject({ status: 'confirmed' })
  })

  it('holds what /MetrcPrefs say needs approval until an approver approves it', async () => {
    const doc = await wmix(0)
    const [q] = (await items()).filter((i) => i.source_id === doc._id)
    expect(q).toMatchObject({ endpoint: 'POST /plants/v2/waste', status: 'held', approver_role: 'compliance' })
    expect(q.payload.Note).toBe(`bench 0 [${q.marker}]`)
    await push()
    expect((await item(q.id)).status).toBe('held')
    const grower = { uid: 'u-grower', role: 'user' }
    await expect(actOnItem(t, 'greenleaf', grower, { uid: 'u-grower' }, { intent: 'approve', id: q.id })).rejects.toThrow(/compliance or an administrator/)
    await expect(actOnItem(t, 'harbor', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'approve', id: q.id })).rejects.toThrow(/does not exist in this facility/)
    // the demo's compliance officer: role user, job role compliance (users.props.roles)
    await actOnItem(t, 'greenleaf', { uid: 'u-comp', role: 'user', roles: ['compliance'] }, { uid: 'u-comp' }, { intent: 'approve', id: q.id })
    await push()
    expect((await item(q.id)).status).toBe('confirmed')
    expect(emu.state.facilities[GROW_LICENSE].plantWaste.filter((x) => String(x.Note).includes(q.marker))).toHaveLength(1)
    const audit = await t.db.query<{ uid: string }>(`SELECT uid FROM audit_log WHERE collection = 'metrc_outbox' AND doc_id = $1`, [q.id])
    expect(audit.rows.map((a) => a.uid)).toEqual(['u-comp'])
  })

  it('a plant moved to another room is moved in METRC', async () => {
    const [, plant] = await t.store.find('greenleaf', 'fac_plants', {}, 2)
    const metrcPlant = emu.state.facilities[GROW_LICENSE].plants.filter((p) => p.State === 'Tracked').at(-1)!
    await t.store.update(w.actor, 'greenleaf', 'fac_plants', plant._id, { tag: metrcPlant.Label, mark_as_dead: 'no', room: await ids.room('Flower Room 1') })
    await updateRecord(context(), w, 'fac_plants', plant._id, { room: await ids.room('Veg Room 2') }, { partial: true })
    const q = await itemOf(plant._id)
    expect(q).toMatchObject({ endpoint: 'PUT /plants/v2/location', status: 'pending', payload: { Label: metrcPlant.Label, Location: 'Veg Room 2' } })
    await push()
    expect(await item(q.id)).toMatchObject({ status: 'confirmed' })
    expect(metrcPlant.LocationName).toBe('Veg Room 2')
  })

  it('sends a run of one endpoint in batches of 10, in order', async () => {
    await t.db.query(`UPDATE c_metrc_prefs SET doc = doc || '{"AutoPush":"yes","NeedsApproval":"no"}' WHERE org = 'greenleaf' AND doc->>'Endpoint' = 'POST /plants/v2/waste'`)
    const docs: Array<{ _id: string }> = []
    for (let i = 1; i <= 25; i++) docs.push(await wmix(i))
    await push()
    const sent = posted('/plants/v2/waste')
    expect(sent.map((r) => r.rows)).toEqual([10, 10, 5])
    expect(sent.flatMap((r) => (r.body as Array<{ WasteWeight: number }>).map((x) => x.WasteWeight))).toEqual(docs.map((_, i) => 101 + i))
    expect((await items()).filter((i) => docs.some((d) => d._id === i.source_id)).every((i) => i.status === 'confirmed')).toBe(true)
  })
})

describe("METRC's refusals", () => {
  it("fail the rows METRC names with METRC's words; fixed, they go; the rest of the batch goes anyway", async () => {
    // 'Wedding Cake' is a Canopy strain that METRC does not know at this license
    const bad = await planting({ strain: await ids.strain('Wedding Cake') })
    const good = await planting()
    // as if a drift decision ("Keep Canopy's") had queued the bad one: it must hear that it failed
    const queued = await itemOf(bad._id)
    await t.db.query(`INSERT INTO metrc_drift (org, id, tbl, tag, field, record_id, metrc_doc, status, side, push_id) VALUES ('greenleaf', 'd-test', 'plants', 'T', 'room', 'r', 'm', 'resolved', 'canopy', $1)`, [queued.id])
    await push()
    expect((await t.db.query<{ settled: boolean }>(`SELECT settled_at IS NOT NULL AS settled FROM metrc_drift WHERE id = 'd-test'`)).rows[0].settled).toBe(true)
    const [b, g] = [await itemOf(bad._id), await itemOf(good._id)]
    expect(b).toMatchObject({ status: 'failed', message: 'Strain Wedding Cake does not exist in the current Facility.' })
    expect(g.status).toBe('confirmed')
    await expect(actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'resend', id: b.id, fields: { Count: 'twelve' } })).rejects.toThrow('Count: enter a number.')
    await expect(actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'resend', id: b.id, fields: { Evil: 'x' } })).rejects.toThrow('no such field')
    expect((await item(b.id)).status).toBe('failed')
    await actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'resend', id: b.id, fields: { Strain: 'OG Kush', Count: '8' } })
    await push()
    expect(await item(b.id)).toMatchObject({ status: 'confirmed' })
    expect(batches().find((x) => x.Name === bad.name)).toMatchObject({ StrainName: 'OG Kush', UntrackedCount: 8 })
  })

  it("a plant marked dead with the table's check cell is queued for METRC as on the edit form", async () => {
    const plant = (await t.store.find('greenleaf', 'fac_plants', { mark_as_dead: 'no' }, 1))[0]
    const label = String(emu.state.facilities[GROW_LICENSE].plants.filter((p) => p.State === 'Tracked').at(-1)!.Label)
    const row = await t.store.update(w.actor, 'greenleaf', 'fac_plants', plant._id, { tag: label, waste_method: 'Grinder', mix_material: 'Soil', dead_weight: { qty: 400, unit: 'g' } })
    const form = new FormData()
    for (const [k, v] of Object.entries({ id: plant._id, field: 'mark_as_dead', value: 'yes', ts: String(row.ts) })) form.set(k, v)
    const s = { id: 'sess', user: superUser, session: { orig_uid: 'u-super', id_hash: 'h', facility: 'greenleaf' } } as unknown as SignedIn
    await toggleCheck(context(), s, findRoute('/culPlants')!, 'greenleaf', new URL('http://x/culPlants'), form)
    expect((await t.store.get('greenleaf', 'fac_plants', plant._id))!.mark_as_dead).toBe('yes')
    const q = await itemOf(plant._id)
    expect(q).toMatchObject({ endpoint: 'DELETE /plants/v2', message: NEEDS_REASON })
    expect(q.payload).toMatchObject({ Label: label, WasteMethodName: 'Grinder', WasteWeight: 400, WasteUnitOfMeasureName: 'Grams' })
  })

  it('a destroyed plant waits for the waste reason METRC needs; discarding needs a reason and sends nothing', async () => {
    const plant = (await t.store.find('greenleaf', 'fac_plants', { alive: 'yes' }, 1))[0] ?? (await t.store.find('greenleaf', 'fac_plants', {}, 1))[0]
    const label = String(emu.state.facilities[GROW_LICENSE].plants.find((p) => p.State === 'Tracked')!.Label)
    await t.store.update(w.actor, 'greenleaf', 'fac_plants', plant._id, { tag: label, mark_as_dead: 'no' })
    await updateRecord(context(), w, 'fac_plants', plant._id, { mark_as_dead: 'yes', waste_method: 'Grinder', mix_material: 'Soil', dead_weight: { qty: 850, unit: 'g' } }, { partial: true })
    const q = await itemOf(plant._id)
    expect(q).toMatchObject({ endpoint: 'DELETE /plants/v2', status: 'failed', message: NEEDS_REASON })
    expect(q.payload).toMatchObject({ Label: label, WasteMethodName: 'Grinder', WasteWeight: 850, WasteUnitOfMeasureName: 'Grams', WasteReasonName: '' })
    await expect(actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'discard', id: q.id, reason: '' })).rejects.toThrow(/Say why/)
    await actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'resend', id: q.id, fields: { WasteReasonName: 'Contamination' } })
    await push()
    expect(await item(q.id)).toMatchObject({ status: 'confirmed' })
    expect(emu.state.facilities[GROW_LICENSE].plants.find((p) => p.Label === label)).toMatchObject({ State: 'Destroyed' })
    // a second planting discarded with a reason: never sent, the reason kept
    const other = await planting({ strain: await ids.strain('Wedding Cake') })
    await push()
    const f = await itemOf(other._id)
    emu.clearRequests()
    const after = await actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'discard', id: f.id, reason: 'Entered by mistake' })
    expect(after).toMatchObject({ status: 'discarded', message: 'Discarded: Entered by mistake' })
    await push()
    expect(posted('/plantbatches/v2/plantings')).toHaveLength(0)
    await expect(actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'resend', id: f.id })).rejects.toThrow(/discarded: it cannot be resent/)
  })
})

describe('faults', () => {
  it('METRC down the whole time: work queues, nothing is lost, the screen says since when; all of it goes once METRC is back', async () => {
    emu.faults.down = true
    const docs = [await planting(), await planting(), await planting()]
    const r = await push()
    expect(r.stopped).toBe('unavailable')
    const waiting = await Promise.all(docs.map((d) => itemOf(d._id)))
    expect(waiting.map((i) => i.status)).toEqual(['pending', 'pending', 'pending'])
    expect(waiting[0].message).toMatch(/METRC is not answering/)
    const view = await outboxView(t, 'greenleaf', 'queued')
    expect(view.unreachableSince).not.toBeNull()
    // not before its time
    emu.clearRequests()
    await push()
    expect(emu.requests).toHaveLength(0)
    emu.faults.down = false
    await due()
    await push()
    for (const d of docs) expect(await itemOf(d._id)).toMatchObject({ status: 'confirmed' })
    for (const d of docs) expect(batches().filter((b) => b.Name === d.name)).toHaveLength(1)
    expect((await outboxView(t, 'greenleaf', 'queued')).unreachableSince).toBeNull()
  })

  it('a key METRC stops taking: nothing is sent, the link is failing; a new key and the queue goes out', async () => {
    const doc = await planting()
    emu.faults.expiredKeys = [DEMO_USER_KEY]
    const r = await push()
    expect(r.stopped).toBe('unauthorized')
    expect(await itemOf(doc._id)).toMatchObject({ status: 'pending' })
    expect((await itemOf(doc._id)).message).toMatch(/METRC refused the facility's key/)
    expect(await linkOf(t, 'greenleaf')).toMatchObject({ status: 'failing' })
    // while the link is failing the worker does not even try
    emu.clearRequests()
    expect((await push()).requests).toBe(0)
    emu.faults.expiredKeys = []
    await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin' }, 'greenleaf', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
    await push()
    expect(await itemOf(doc._id)).toMatchObject({ status: 'confirmed' })
    expect(batches().filter((b) => b.Name === doc.name)).toHaveLength(1)
  })

  it('a 429 storm: the client waits it out, nothing dropped', async () => {
    const docs = [await planting(), await planting()]
    await t.db.query(`UPDATE c_metrc_prefs SET doc = doc || '{"AutoPush":"yes","NeedsApproval":"no"}' WHERE org = 'greenleaf'`)
    emu.faults.storm429 = 3
    const r = await push()
    expect(r.stopped).toBeUndefined()
    for (const d of docs) expect(await itemOf(d._id)).toMatchObject({ status: 'confirmed' })
    emu.faults.storm429 = 0
  })

  it("a lost answer: METRC took it, Canopy checks before sending again, and it goes once", async () => {
    const lost = await planting()
    const waste = await wmix(99)
    emu.faults.dropAnswers = 2
    const first = await push()
    expect(first.stopped).toBe('in-doubt')
    expect((await itemOf(lost._id)).status).toBe('sent')
    await push()
    await push()
    expect(await itemOf(lost._id)).toMatchObject({ status: 'confirmed', message: 'METRC had taken it (found after its answer was lost).' })
    expect(await itemOf(waste._id)).toMatchObject({ status: 'confirmed' })
    expect(batches().filter((b) => b.Name === lost.name)).toHaveLength(1)
    const wq = await itemOf(waste._id)
    expect(emu.state.facilities[GROW_LICENSE].plantWaste.filter((x) => String(x.Note).includes(wq.marker))).toHaveLength(1)
    expect(posted('/plantbatches/v2/plantings').filter((r) => JSON.stringify(r.body).includes(String(lost.name)))).toHaveLength(1)
  })
})

async function itemOf(sourceId: string) {
  return (await t.db.query<OutboxRow>('SELECT * FROM metrc_outbox WHERE source_id = $1 ORDER BY seq DESC LIMIT 1', [sourceId])).rows[0]
}

describe('harvests and new packages', () => {
  const f = () => emu.state.facilities[GROW_LICENSE]
  it("a plant put in a harvest is harvested in METRC with the harvest's wet weight per plant", async () => {
    const [, , plant] = await t.store.find('greenleaf', 'fac_plants', {}, 3)
    const flowering = f().plants.find((p) => p.State === 'Tracked' && p.GrowthPhase === 'Flowering')!
    await t.store.update(w.actor, 'greenleaf', 'fac_plants', plant._id, { tag: flowering.Label, mark_as_dead: 'no', harvest: '' })
    const [harvest] = await t.store.find('greenleaf', 'fac_harvests', {}, 1)
    await updateRecord(context(), w, 'fac_plants', plant._id, { harvest: harvest._id }, { partial: true })
    const q = await itemOf(plant._id)
    const wet = harvest.wetWeight as { qty: number; unit: string }
    expect(q).toMatchObject({ endpoint: 'PUT /plants/v2/harvest', payload: { Plant: flowering.Label, HarvestName: harvest.name, UnitOfWeight: wet.unit === 'lb' ? 'Pounds' : 'Grams' } })
    expect(q.payload.Weight).toBeCloseTo(wet.qty / Number(harvest.plants), 3)
    if (q.status === 'held') await actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'approve', id: q.id })
    await push()
    expect(await item(q.id)).toMatchObject({ status: 'confirmed' })
    expect(flowering).toMatchObject({ State: 'Harvested' })
    expect(f().harvests.find((h) => h.Name === harvest.name)).toMatchObject({ PlantCount: 1 })
  })

  it('a package made on /MetrcPackages from a harvest is created in METRC and takes its METRC id; its tag is no longer on hand after the next sync', async () => {
    const tag = f().tags.package[0]
    const syncTags = () => syncTable({ database: t, secret: env.SESSION_SECRET, endpoint, logger: silent }, 'greenleaf', 'metrc_tags')
    expect(await syncTags()).toMatchObject({ status: 'done' })
    expect(await t.store.get('greenleaf', 'metrc_tags', `t-${tag}`)).toMatchObject({ Label: tag, Type: 'Package' })
    const source = f().harvests.find((h) => !h.FinishedDate)!
    const doc = (await createRecord(context(), w, 'metrc_packages', { Label: tag, PackageType: 'Product', ItemName: 'Blue Dream Buds', Quantity: 100, UnitOfMeasureName: 'Grams', SourceHarvestNames: String(source.Name), PackagedDate: '2026-11-24T17:00:00.000Z' }, { anyMinute: true })).doc!
    const q = await itemOf(doc._id)
    expect(q).toMatchObject({ endpoint: 'POST /harvests/v2/packages', payload: { Tag: tag, Item: 'Blue Dream Buds', Ingredients: [{ HarvestName: source.Name, Weight: 100, UnitOfWeight: 'Grams' }] } })
    if (q.status === 'held') await actOnItem(t, 'greenleaf', { uid: 'u-super', role: 'super' }, { uid: 'u-super' }, { intent: 'approve', id: q.id })
    await push()
    const done = await item(q.id)
    expect(done.status).toBe('confirmed')
    const made = f().packages.find((p) => p.Label === tag)!
    expect(made).toMatchObject({ Quantity: 100, SourceHarvestNames: source.Name })
    // the local record now carries METRC's identity, so the next sync updates it instead of copying it
    expect(await t.store.get('greenleaf', 'metrc_packages', doc._id)).toBeNull()
    expect(await t.store.get('greenleaf', 'metrc_packages', `m${made.Id}`)).toMatchObject({ Label: tag, MetrcId: made.Id })
    expect(done.source_id).toBe(`m${made.Id}`)
    // the tag is used: METRC lists it no more, so the sync takes it off the tags on hand
    expect(await syncTags()).toMatchObject({ status: 'done', changed: 1 })
    expect(await t.store.get('greenleaf', 'metrc_tags', `t-${tag}`)).toBeNull()
  })

  it('a package from other packages waits for its Ingredients; typed on the outbox screen, it goes', async () => {
    const tag = f().tags.package[0]
    const src = f().packages.find((p) => !p.IsFinished && !p.IsOnHold && p.UnitOfMeasureName === 'Grams' && Number(p.Quantity) > 20)!
    const before = Number(src.Quantity)
    const doc = (await createRecord(context(), w, 'metrc_packages', { Label: tag, PackageType: 'Product', ItemName: String(src.ItemName), Quantity: 10, UnitOfMeasureName: 'Grams' })).doc!
    const q = await itemOf(doc._id)
    expect(q).toMatchObject({ endpoint: 'POST /packages/v2', status: 'failed', message: NEEDS_INGREDIENTS })
    const su = { uid: 'u-super', role: 'super' }
    await expect(actOnItem(t, 'greenleaf', su, { uid: 'u-super' }, { intent: 'resend', id: q.id, fields: { Ingredients: `${String(src.Label)} lots Grams` } })).rejects.toThrow(/Ingredients: write each as Package Quantity UnitOfMeasure/)
    await actOnItem(t, 'greenleaf', su, { uid: 'u-super' }, { intent: 'resend', id: q.id, fields: { Ingredients: `${String(src.Label)} 10 Grams` } })
    expect((await item(q.id)).payload.Ingredients).toEqual([{ Package: src.Label, Quantity: 10, UnitOfMeasure: 'Grams' }])
    await push()
    expect(await item(q.id)).toMatchObject({ status: 'confirmed' })
    expect(Number(src.Quantity)).toBeCloseTo(before - 10, 4)
    expect(f().packages.filter((p) => p.Label === tag)).toHaveLength(1)
  })
})
