/**
 * Issue 23 item 3 on both databases: the trace of a mother, a batch, a plant, a harvest and a
 * package, built through the row actions (mother → batch → plants → harvest → packages) plus a
 * package made from a package and an order that took it. Read both ways, with each record's audit
 * steps and METRC pushes; the same queries whatever the number of plants; another organisation's
 * records with the same names and links never show.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import type { SignedIn } from '#app/auth/require.server'
import { loadEnv, type Env } from '#app/config/env.server'
import type { Queryable } from '#app/db/driver.server'
import type { Doc } from '#app/db/types'
import type { MetrcEndpoint } from '#app/metrc/connection.server'
import { GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { DEMO_USER_KEY } from '#app/metrc/emulator/model'
import { pushFacility } from '#app/metrc/outbox/worker.server'
import { saveLink } from '#app/metrc/sync/links.server'
import { actionContext, runRowAction } from '#app/records/row-actions.server'
import { findRoute } from '#app/route-map'
import { recordTrace, TRACE_LIMIT, type TraceData } from '#app/screens/record-trace.server'
import { tablePage } from '#app/screens/table-page.server'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let emu: RunningEmulator
let t: TestDatabase
let env: Env
let endpoint: MetrcEndpoint
const ORG = 'greenleaf'
const OTHER = 'harbor'
const silent = pino({ level: 'silent' })
let queries = 0
const counting = (db: Queryable): Queryable =>
  new Proxy(db, {
    get(target, p, recv) {
      if (p === 'query') return (...a: Parameters<Queryable['query']>) => ((queries += 1), target.query(...a))
      return Reflect.get(target, p, recv) as unknown
    },
  })
const context = () => ({ database: { ...t, db: counting(t.db), store: t.store, schemas: t.schemas }, logger: silent, requestId: 'trace' }) as unknown as AppLoadContext
const superUser = { uid: 'u-super', email: 'super@x.test', role: 'super', org: ORG } as SessionUser
const grower = { uid: 'u-grower', email: 'grower@x.test', role: 'user', org: ORG, props: { facilities: [ORG], modules: { [ORG]: ['cul'] } } } as unknown as SessionUser
const signedIn = (user: SessionUser) => ({ id: 's', user, session: { facility: ORG } }) as unknown as SignedIn
const form = (o: Record<string, string>) => {
  const f = new URLSearchParams(o)
  return { get: (k: string) => (f.get(k) ?? '').trim(), getAll: (k: string) => f.getAll(k) }
}
const act = (collection: string, key: string, rows: Doc[], input: Record<string, string>) =>
  runRowAction(actionContext(t.store, ORG, ORG, { uid: 'u-maria', email: 'm@x.test', role: 'user', org: ORG } as SessionUser, { uid: 'u-maria', requestId: 'trace' }, 'America/Los_Angeles'), { collection, key, ids: rows.map((r) => r._id), stamp: '', input: form(input), canEdit: () => true })
const idOf = async (table: string, name: string) => (await t.store.find(ORG, table, { name }, 1))[0]._id
const trace = (screen: string, id: string, user = superUser) => recordTrace(context(), signedIn(user), findRoute(screen)!, ORG, new URL(`http://x${screen}/${id}/trace`), id)
const group = (d: TraceData, side: 'from' | 'to', label: string) => d[side].find((g) => g.label === label)
const titles = (d: TraceData, side: 'from' | 'to', label: string) => group(d, side, label)?.nodes.map((n) => n.title) ?? []
const everyId = (d: TraceData) => [d.self, ...d.from.flatMap((g) => g.nodes), ...d.to.flatMap((g) => g.nodes)].map((n) => n.id)

let mom: Doc
let batch: Doc
let plants: Doc[]
let harvest: Doc
let packages: Doc[]
let split: Doc
let order: Doc
const foreign: string[] = []
const H = 'H-TRACE-1'

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 30, packages: 10 } })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
  endpoint = { vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true }
  await seedDemo(t, env, { force: true })
  await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin' }, ORG, { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)

  // through the row actions, as a grower does it
  const f = emu.state.facilities[GROW_LICENSE]
  const motherTag = String(f.plants.find((p) => p.GrowthPhase === 'Mother' && p.State === 'Tracked')!.Label)
  const item = f.items.find((i) => i.QuantityType === 'WeightBased')!
  ;[mom] = await t.store.insertRows(t.db, { uid: 'u-test' }, ORG, 'fac_moms', [{ name: 'MOM-TRACE', tag: motherTag, strain: await idOf('set_strains', 'Blue Dream'), room: await idOf('set_rooms', 'Mother Room'), active: 'yes', clonesTaken: 0 }])
  await act('fac_moms', 'clone', [mom], { name: 'PB-TRACE-1', count: '4', room: await idOf('set_rooms', 'Veg Room 1'), mtag: 'BATCH-TRACE-1', date: '2026-11-20' })
  ;[batch] = await t.store.find(ORG, 'fac_plantings', { name: 'PB-TRACE-1' }, 1)
  await act('fac_plantings', 'tag', [batch], { count: '3', start: f.tags.plant[0], phase: 'Vegetative', room: await idOf('set_rooms', 'Veg Room 1'), date: '2026-11-21' })
  plants = (await t.store.find(ORG, 'fac_plants', { planting: batch._id }, 100)).sort((a, b) => String(a.tag).localeCompare(String(b.tag)))
  await act('fac_plants', 'phase', plants, { phase: 'Flowering', room: await idOf('set_rooms', 'Flower Room 2'), date: '2026-11-22' })
  plants = await Promise.all(plants.map(async (p) => (await t.store.get(ORG, 'fac_plants', p._id))!))
  await act('fac_plants', 'harvest', plants, { name: H, dryRoom: await idOf('set_rooms', 'Dry Room'), date: '2026-11-24', 'wet.unit': 'g', ...Object.fromEntries(plants.map((p, i) => [`wet.${p._id}`, String(400 + i)])) })
  ;[harvest] = await t.store.find(ORG, 'fac_harvests', { name: H }, 1)
  const tags = f.tags.package.slice(0, 2)
  await act('fac_harvests', 'package', [harvest], { ...Object.fromEntries(tags.flatMap((tag, i) => [[`pkg.${i}.tag`, tag], [`pkg.${i}.item`, String(item.Name)], [`pkg.${i}.qty`, '250'], [`pkg.${i}.unit`, 'Grams']])), date: '2026-12-02' })
  packages = (await t.store.find(ORG, 'metrc_packages', { SourceHarvestNames: H }, 10)).sort((a, b) => String(a.Label).localeCompare(String(b.Label)))
  await push()
  // a split of the first package (SourcePackageLabels, being added on main) and an order that took it
  ;[split] = await t.store.insertRows(t.db, { uid: 'u-test' }, ORG, 'metrc_packages', [{ Label: 'SPLIT-TRACE-1', PackageType: 'Product', ItemName: String(item.Name), Quantity: 50, UnitOfMeasureName: 'Grams', SourcePackageLabels: `${String(packages[0].Label)}, NOT-A-TAG` }])
  ;[order] = await t.store.insertRows(t.db, { uid: 'u-test' }, ORG, 'dis_orders', [{ orderNo: 'SO-TRACE-1', status: 'Picking', items: [], packages: [{ line: '0', inv: 'x', tag: 'SPLIT-TRACE-1', qtyMilli: 50_000, unit: 'g' }] }])

  // another organisation with the same names and links: never on this one's trace
  const [fm] = await t.store.insertRows(t.db, { uid: 'u-test' }, OTHER, 'fac_moms', [{ name: 'MOM-FOREIGN' }])
  const [fb] = await t.store.insertRows(t.db, { uid: 'u-test' }, OTHER, 'fac_plantings', [{ name: 'PB-FOREIGN', mother: mom._id }])
  const fp = await t.store.insertRows(t.db, { uid: 'u-test' }, OTHER, 'fac_plants', [{ tag: 'FOREIGN-PLANT', planting: batch._id, harvest: harvest._id }])
  const [fh] = await t.store.insertRows(t.db, { uid: 'u-test' }, OTHER, 'fac_harvests', [{ name: H }])
  const fk = await t.store.insertRows(t.db, { uid: 'u-test' }, OTHER, 'metrc_packages', [{ Label: 'FOREIGN-PKG', SourceHarvestNames: H }, { Label: 'FOREIGN-SPLIT', SourcePackageLabels: String(packages[0].Label) }])
  const [fo] = await t.store.insertRows(t.db, { uid: 'u-test' }, OTHER, 'dis_orders', [{ orderNo: 'SO-FOREIGN', packages: [{ tag: 'SPLIT-TRACE-1' }] }])
  foreign.push(fm._id, fb._id, fh._id, fo._id, ...fp.map((x) => x._id), ...fk.map((x) => x._id))
}, 180_000)
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})

const push = () => pushFacility({ database: t, secret: env.SESSION_SECRET, endpoint, logger: silent, client: { attempts: 2, maxRetryAfterMs: 20, backoff: { baseMs: 5, maxMs: 10 }, timeoutMs: 3000 } }, ORG)

describe('the trace, both ways', () => {
  it('a plant: its batch and mother; its harvest, the packages, the split and the order', async () => {
    const d = await trace('/culPlants', plants[0]._id)
    expect(d.self).toMatchObject({ kind: 'Plant', title: plants[0].tag, link: `/culPlants/${plants[0]._id}/trace`, history: `/culPlants/${plants[0]._id}/history` })
    expect(d.self.facts).toEqual(expect.arrayContaining(['Flower Room 2', 'Harvested']))
    expect(d.from.map((g) => g.label)).toEqual(['Batches', 'Mothers'])
    expect(titles(d, 'from', 'Batches')).toEqual(['PB-TRACE-1'])
    expect(titles(d, 'from', 'Mothers')).toEqual(['MOM-TRACE'])
    expect(d.to.map((g) => g.label)).toEqual(['Harvests', 'Packages', 'Packages made from them', 'Orders'])
    expect(titles(d, 'to', 'Harvests')).toEqual([H])
    expect(titles(d, 'to', 'Packages')).toEqual(packages.map((p) => p.Label))
    expect(group(d, 'to', 'Packages')!.nodes[0].facts).toEqual(expect.arrayContaining(['250 Grams']))
    expect(titles(d, 'to', 'Packages made from them')).toEqual(['SPLIT-TRACE-1'])
    expect(group(d, 'to', 'Orders')!.nodes).toEqual([expect.objectContaining({ title: 'SO-TRACE-1', link: `/DisSales/${order._id}` })])
    // each node links to its own trace
    expect(group(d, 'from', 'Batches')!.nodes[0].link).toBe(`/CulPlantings/${batch._id}/trace`)
    expect(group(d, 'to', 'Packages')!.nodes[0].link).toBe(`/MetrcPackages/${packages[0]._id}/trace`)
  })

  it("a record's audit steps (newest last) and its METRC pushes with their status", async () => {
    const d = await trace('/culPlants', plants[0]._id)
    // tagged, to flowering, harvested
    expect(d.self.steps.map((s) => s.action)).toEqual(['insert', 'update', 'update'])
    expect(d.self.stepCount).toBe(3)
    expect(d.self.steps[1].changes).toEqual(expect.arrayContaining([expect.objectContaining({ before: 'Vegetative', after: 'Flowering' })]))
    expect(d.self.steps.map((s) => s.at)).toEqual([...d.self.steps.map((s) => s.at)].sort())
    expect(d.self.pushes.map((p) => `${p.endpoint} ${p.status}`)).toEqual(['PUT /plants/v2/growthphase confirmed', 'PUT /plants/v2/harvest held'])
    const b = group(d, 'from', 'Batches')!.nodes[0]
    expect(b.pushes.map((p) => p.endpoint)).toEqual(['POST /plants/v2/plantings', 'POST /plantbatches/v2/growthphase'])
    expect(b.steps[0].action).toBe('insert')
    expect(group(d, 'to', 'Packages')!.nodes[0].pushes.map((p) => `${p.endpoint} ${p.status}`)).toEqual(['POST /harvests/v2/packages held'])
  })

  it('a mother and a batch: everything below them', async () => {
    const m = await trace('/CulMoms', mom._id)
    expect(m.from).toEqual([])
    expect(m.to.map((g) => `${g.label} ${g.total}`)).toEqual(['Batches 1', 'Plants 3', 'Harvests 1', 'Packages 2', 'Packages made from them 1', 'Orders 1'])
    const b = await trace('/CulPlantings', batch._id)
    expect(titles(b, 'from', 'Mothers')).toEqual(['MOM-TRACE'])
    expect(titles(b, 'to', 'Plants')).toEqual(plants.map((p) => p.tag))
  })

  it('a harvest: its plants, batches and mother above, its packages below', async () => {
    const d = await trace('/CulHarvest', harvest._id)
    expect(d.from.map((g) => `${g.label} ${g.total}`)).toEqual(['Plants 3', 'Batches 1', 'Mothers 1'])
    expect(d.to.map((g) => `${g.label} ${g.total}`)).toEqual(['Packages 2', 'Packages made from them 1', 'Orders 1'])
  })

  it('a package up to the mother and down to the split and the order; the split up through its source package', async () => {
    const p = await trace('/MetrcPackages', packages[0]._id)
    expect(p.from.map((g) => g.label)).toEqual(['Harvests', 'Plants', 'Batches', 'Mothers'])
    expect(titles(p, 'to', 'Packages made from it')).toEqual(['SPLIT-TRACE-1'])
    expect(titles(p, 'to', 'Orders')).toEqual(['SO-TRACE-1'])
    const other = await trace('/MetrcPackages', packages[1]._id)
    expect(other.to).toEqual([])
    const s = await trace('/MetrcPackages', split._id)
    expect(s.from.map((g) => `${g.label} ${g.total}`)).toEqual(['Source packages 1', 'Harvests 1', 'Plants 3', 'Batches 1', 'Mothers 1'])
    expect(titles(s, 'from', 'Source packages')).toEqual([packages[0].Label])
    expect(titles(s, 'to', 'Orders')).toEqual(['SO-TRACE-1'])
  })

  it("never shows another organisation's records, and a foreign id is not found here", async () => {
    const all = await Promise.all([trace('/CulMoms', mom._id), trace('/CulPlantings', batch._id), trace('/culPlants', plants[0]._id), trace('/CulHarvest', harvest._id), trace('/MetrcPackages', packages[0]._id), trace('/MetrcPackages', split._id)])
    for (const d of all) expect(everyId(d).filter((id) => foreign.includes(id))).toEqual([])
    await expect(trace('/culPlants', foreign[4])).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('many plants', () => {
  it(`a batch of ${TRACE_LIMIT + 5} plants: the count, the first ${TRACE_LIMIT}, a link to the table; the same number of queries as for 3`, async () => {
    const [big] = await t.store.insertRows(t.db, { uid: 'u-test' }, ORG, 'fac_plantings', [{ name: 'PB-TRACE-BIG', type: 'Clone', mother: mom._id }])
    await t.store.insertRows(t.db, { uid: 'u-test' }, ORG, 'fac_plants', Array.from({ length: TRACE_LIMIT + 5 }, (_, i) => ({ tag: `BIG-${String(i).padStart(3, '0')}`, planting: big._id, alive: 'yes' })))
    queries = 0
    const small = await trace('/CulPlantings', batch._id)
    const few = queries
    queries = 0
    const d = await trace('/CulPlantings', big._id)
    const g = group(d, 'to', 'Plants')!
    expect(g.total).toBe(TRACE_LIMIT + 5)
    expect(g.nodes.map((n) => n.title)).toEqual(Array.from({ length: TRACE_LIMIT }, (_, i) => `BIG-${String(i).padStart(3, '0')}`))
    expect(g.more).toBe(`/culPlants?eq=${encodeURIComponent(`planting:${big._id}`)}`)
    expect(group(small, 'to', 'Plants')!.more).toBeUndefined()
    // no query per plant: the big batch's page costs no more than the small one's plus its one count
    expect(queries).toBeLessThanOrEqual(few + 1)
  })
})

describe('rights and the table', () => {
  it("a grower without the METRC module sees that packages exist, not which; the Trace link on the tables that have one", async () => {
    const d = await trace('/culPlants', plants[0]._id, grower)
    expect(group(d, 'to', 'Harvests')!.hidden).toBe(false)
    expect(group(d, 'to', 'Packages')).toMatchObject({ hidden: true, total: 2, nodes: [] })
    const plantsTable = await tablePage(context(), superUser, findRoute('/culPlants')!, ORG, new URL('http://x/culPlants'))
    const bins = await tablePage(context(), superUser, findRoute('/culBins')!, ORG, new URL('http://x/culBins'))
    expect(plantsTable.trace).toBe(true)
    expect(bins.trace).toBe(false)
  })
})
