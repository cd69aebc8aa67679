/**
 * Contract tests (issue 21): Canopy's METRC client against the emulator for every endpoint Canopy
 * calls, compared with METRC's own published API (tests/fixtures/metrc-real, through
 * app/metrc/reference):
 *   - every list the sync reads answers in the form METRC's collection gives it (a paged wrapper
 *     where METRC takes pageNumber, a bare array where it does not), and where METRC documents an
 *     example answer, every row has exactly its fields, nested objects included, each of the
 *     example's type (a field METRC shows null may hold anything)
 *   - every request body Canopy's planners make has only fields METRC's body has, each of its kind
 *   - writes answer `{Ids, Warnings}` where METRC documents it and nothing where it does not
 *   - a path METRC does not have is 404 (before the keys are looked at), a path a state's METRC
 *     does not have is 404 there, an endpoint the user lacks the permission for is 401 alone
 *   - the distribution pushes (issue 24): a shipped order's transfer template and a sale's receipt
 *     have METRC's fields, are taken with METRC's {Ids, Warnings} and listed as METRC lists them;
 *     refused with a message per row; per state and per key
 * Runs against no database (both TEST_DB settings run it the same).
 */
import { metrcPushesFor, type ShipFacts } from '#app/areas/distribution/metrc.server'
import type { Doc } from '#app/db/types'
import { MetrcClient } from '#app/metrc/client/client.server'
import { GetThrottle } from '#app/metrc/client/limits'
import { DEMO_USER_KEY, GROW_LICENSE, HARBOR_LICENSE, SHOP_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { NO_EMPLOYEES_USER_KEY } from '#app/metrc/emulator/model'
import { planPushes, type PlanContext } from '#app/metrc/outbox/pushes.server'
import { ALL_PERMISSIONS, bodyOf, fieldKind } from '#app/metrc/reference'
import { EXAMPLES, GET_PARAMS } from '#app/metrc/reference/generated'
import { SYNC_TABLES } from '#app/metrc/sync/tables'
import { tmpDir } from '#tests/helpers/db'

let emu: RunningEmulator
const auth = (user = DEMO_USER_KEY) => 'Basic ' + Buffer.from(`${emu.vendorKey}:${user}`).toString('base64')
async function raw(method: string, path: string, o: { license?: string | null; user?: string; body?: unknown; noAuth?: boolean } = {}) {
  const q = o.license ? `?licenseNumber=${o.license}` : ''
  const res = await fetch(`${emu.url}${path}${q}`, { method, headers: { ...(o.noAuth ? {} : { Authorization: auth(o.user) }), ...(o.body ? { 'Content-Type': 'application/json' } : {}) }, body: o.body ? JSON.stringify(o.body) : undefined })
  const text = await res.text()
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined }
}
const client = () => new MetrcClient({ baseUrl: emu.url, vendorKey: emu.vendorKey, userKey: DEMO_USER_KEY, throttle: new GetThrottle() })

type J = unknown
const typeOf = (v: J) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
/** where `actual` differs from METRC's `example` in shape: missing or extra fields, other types (null in the example: any) */
function shapeDiff(example: J, actual: J, at = '', names = false): string[] {
  if (example === null || actual === null) return []
  // an enumeration METRC sends as a number inside a package and by name in its item list
  if (names && typeof example === 'number' && typeof actual === 'string' && ENUM_FIELDS.has(at.replace(/\.$/, ''))) return []
  if (typeOf(example) !== typeOf(actual)) return [`${at || 'row'}: ${typeOf(actual)}, METRC: ${typeOf(example)}`]
  if (Array.isArray(example) && Array.isArray(actual)) return example.length && actual.length ? shapeDiff(example[0], actual[0], `${at}[0]`) : []
  if (example && typeof example === 'object') {
    const e = example as Record<string, J>
    const a = actual as Record<string, J>
    const out: string[] = []
    for (const k of Object.keys(e)) if (!(k in a)) out.push(`${at}${k}: missing`)
    for (const k of Object.keys(a)) if (!(k in e)) out.push(`${at}${k}: not in METRC's answer`)
    for (const k of Object.keys(e)) if (k in a) out.push(...shapeDiff(e[k], a[k], `${at}${k}.`, names))
    return out
  }
  return []
}

const ENUM_FIELDS = new Set(['ProductCategoryType', 'QuantityType', 'DefaultLabTestingState', 'ApprovalStatus'])

/** the example a list's rows follow: its own, or the one METRC documents for rows of the same kind */
const EXAMPLE_OF: Record<string, string> = {
  '/plants/v2/flowering': 'GET /plants/v2/vegetative',
  '/plants/v2/onhold': 'GET /plants/v2/vegetative',
  '/plants/v2/inactive': 'GET /plants/v2/vegetative',
  '/plants/v2/mother': 'GET /plants/v2/vegetative',
  '/plants/v2/mother/onhold': 'GET /plants/v2/vegetative',
  '/plants/v2/mother/inactive': 'GET /plants/v2/vegetative',
  '/packages/v2/onhold': 'GET /packages/v2/active',
  '/packages/v2/inactive': 'GET /packages/v2/active',
}

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 30, packages: 10 } })
  // a finished package and a destroyed plant, so the inactive lists have rows to compare
  const f = emu.state.facilities[GROW_LICENSE]
  Object.assign(f.packages[0], { Quantity: 0, IsFinished: true, FinishedDate: '2026-11-01' })
  Object.assign(f.plants[0], { State: 'Destroyed', DestroyedDate: '2026-11-01' })
  Object.assign(f.plants[1], { GrowthPhase: 'Mother', IsOnHold: true })
  Object.assign(f.plants[2], { GrowthPhase: 'Mother', State: 'Destroyed', DestroyedDate: '2026-11-01' })
  f.plantWaste.push({ Id: 9001, PlantWasteNumber: '0000009001', WasteMethodName: 'Compost', WasteWeight: 10, WasteUnitOfMeasureName: 'Grams', WasteReasonName: 'Trim', PlantBatchId: null, PlantBatchName: null, PlantCount: 0, WasteDate: '2026-11-01', Note: 'kept by the emulator only', LastModified: new Date().toISOString() })
})
afterAll(async () => {
  await emu?.close()
})

describe("every list Canopy reads answers as METRC's does", () => {
  const paths = [...new Set([...SYNC_TABLES.values()].flatMap((s) => s.paths.filter((p) => p !== '/labtests/v2/results')))]
  it.each(paths)('%s', async (path) => {
    const license = path.startsWith('/patients/') ? SHOP_LICENSE : SYNC_TABLES.get([...SYNC_TABLES.values()].find((s) => s.paths.includes(path))!.collection)!.license ? GROW_LICENSE : null
    const r = await raw('GET', path, { license })
    expect(r.status).toBe(200)
    // paged exactly where METRC's own collection takes pageNumber
    const params = GET_PARAMS[path]
    expect(params, `${path} is not in METRC's collection`).toBeDefined()
    if (/pageNumber/.test(params)) expect(Object.keys(r.json).sort()).toEqual(['CurrentPage', 'Data', 'Page', 'PageSize', 'RecordsOnPage', 'Total', 'TotalPages', 'TotalRecords'])
    else expect(Array.isArray(r.json)).toBe(true)
    const rows = (Array.isArray(r.json) ? r.json : r.json.Data) as J[]
    const ex = EXAMPLES[EXAMPLE_OF[path] ?? `GET ${path}`]
    if (!ex?.row) return
    expect(rows.length, `${path} has rows to compare`).toBeGreaterThan(0)
    for (const row of rows) expect(shapeDiff(ex.row, row)).toEqual([])
  })

  it("reads both tag lists (the tags on hand), each documented by METRC with an example row", () => {
    const paths = [...SYNC_TABLES.values()].flatMap((s) => s.paths)
    for (const p of ['/tags/v2/plant/available', '/tags/v2/package/available']) {
      expect(paths).toContain(p)
      expect(EXAMPLES[`GET ${p}`]).toMatchObject({ answer: 'bare', permissions: ['Manage Tags'], row: expect.objectContaining({ Id: expect.any(Number), Label: expect.any(String) }) })
    }
  })

  it("a plant and a package read by their tag have METRC's list row shape; an item has the package's nested item shape", async () => {
    const f = emu.state.facilities[GROW_LICENSE]
    expect(shapeDiff(EXAMPLES['GET /plants/v2/vegetative'].row, (await raw('GET', `/plants/v2/${String(f.plants[3].Label)}`, { license: GROW_LICENSE })).json)).toEqual([])
    expect(shapeDiff(EXAMPLES['GET /packages/v2/active'].row, (await raw('GET', `/packages/v2/${String(f.packages[2].Label)}`, { license: GROW_LICENSE })).json)).toEqual([])
    const items = await client().list('/items/v2/active', { license: GROW_LICENSE })
    for (const it of items) expect(shapeDiff((EXAMPLES['GET /packages/v2/active'].row as Record<string, J>).Item, it, '', true)).toEqual([])
  })

  it('keeps no Id, no note and no LastModified on rows METRC gives none (plant waste, employees, patients)', async () => {
    const waste = await client().list<Record<string, unknown>>('/plants/v2/waste', { license: GROW_LICENSE })
    expect(waste[0]).not.toHaveProperty('Id')
    expect(waste[0]).not.toHaveProperty('Note')
    expect(waste[0]).toMatchObject({ PlantWasteNumber: '0000009001', WasteReasonName: 'Trim' })
    expect((await client().list<Record<string, unknown>>('/employees/v2', { license: GROW_LICENSE }))[0]).not.toHaveProperty('Id')
    expect((await client().list<Record<string, unknown>>('/patients/v2/active', { license: SHOP_LICENSE }))[0]).not.toHaveProperty('Id')
  })
})

describe('keys, permissions, states and paths as METRC answers them', () => {
  it('a path METRC does not have is 404, before the keys are looked at', async () => {
    expect((await raw('GET', '/plants/v2/nonsense/list', { noAuth: true })).status).toBe(404)
    expect((await raw('GET', '/gardens/v2/active', { noAuth: true })).status).toBe(404)
    expect((await raw('POST', '/plants/v2/nonsense', { license: GROW_LICENSE, body: [{}] })).status).toBe(404)
    // /plants/v2/{label} is METRC's own route: without keys it is 401, as any other
    expect((await raw('GET', '/plants/v2/vegetative', { noAuth: true, license: GROW_LICENSE })).status).toBe(401)
  })

  it("a list a state's METRC lacks is 404 there (patients in California), present elsewhere", async () => {
    expect((await raw('GET', '/patients/v2/active', { license: GROW_LICENSE })).status).toBe(404)
    expect((await raw('GET', '/patients/v2/active', { license: SHOP_LICENSE })).status).toBe(200)
  })

  it("a user without an endpoint's permission gets 401 there and nowhere else", async () => {
    const r = await raw('GET', '/employees/v2', { license: GROW_LICENSE, user: NO_EMPLOYEES_USER_KEY })
    expect(r).toMatchObject({ status: 401, json: { Message: 'Authorization has been denied for this request.' } })
    for (const p of ['/facilities/v2', '/plants/v2/vegetative', '/packages/v2/active', '/plants/v2/waste']) expect((await raw('GET', p, { license: p === '/facilities/v2' ? null : GROW_LICENSE, user: NO_EMPLOYEES_USER_KEY })).status).toBe(200)
  })
})

describe("Canopy's request bodies are METRC's", () => {
  const names: Record<string, Record<string, unknown>> = {
    'set_strains/s1': { name: 'Blue Dream' },
    'set_rooms/r1': { name: 'Flower Room 1' },
    'set_rooms/r2': { name: 'Veg Room' },
    'fac_plantings/p1': { name: 'PB-CONTRACT-1' },
    'fac_harvests/h1': { name: '2026-11-20-Flower Room 1-H', dryRoom: 'r1', plants: 4, wetWeight: { qty: 4000, unit: 'g' }, harvested: '2026-11-20T18:00:00.000Z' },
  }
  const c: PlanContext = { org: 'x', timeZone: 'America/Los_Angeles', record: async (col, id) => names[`${col}/${String(id)}`] ?? null }
  const tag = '1A4000000000000000000001'
  const cases: Array<[string, Record<string, unknown> | null, Record<string, unknown>]> = [
    ['fac_plantings', null, { name: 'PB-CONTRACT-1', type: 'Clone', orig: 10, strain: 's1', room: 'r1', planted: '2026-11-20T16:00:00.000Z' }],
    ['fac_plants', { tag, phase: 'Clone', room: 'r2', planting: 'p1' }, { tag, phase: 'Vegetative', room: 'r2', planting: 'p1', phaseDate: '2026-11-21T16:00:00.000Z' }],
    ['fac_plants', { tag, phase: 'Vegetative', room: 'r2' }, { tag, phase: 'Flowering', room: 'r1' }],
    ['fac_plants', { tag, phase: 'Flowering', room: 'r2' }, { tag, phase: 'Flowering', room: 'r1' }],
    ['fac_plants', { tag, phase: 'Flowering', room: 'r1' }, { tag, phase: 'Flowering', room: 'r1', harvest: 'h1' }],
    ['fac_plants', { tag, phase: 'Flowering', room: 'r1' }, { tag, phase: 'Flowering', room: 'r1', mark_as_dead: 'yes', waste_method: 'Grinder', mix_material: 'Soil', dead_weight: { qty: 300, unit: 'g' } }],
    ['metrc_wmix', null, { WasteDate: '2026-11-21T17:00:00.000Z', WasteMethodName: 'Clipping', MixedMaterial: 'Soil', WasteWeight: 15.69, UnitOfMeasureName: 'Grams', ReasonName: 'Trim', LocationName: 'Veg Room', PlantLabels: tag }],
    ['metrc_items', null, { Name: 'Gummies', ProductCategoryName: 'Infused', UnitOfMeasureName: 'Each', UnitThcContent: 10, UnitWeight: 5, UnitWeightUnitOfMeasureName: 'Grams' }],
    ['metrc_items', { MetrcId: 7, Name: 'Gummies', ProductCategoryName: 'Infused', UnitOfMeasureName: 'Each', UnitWeight: 5 }, { MetrcId: 7, Name: 'Gummies', ProductCategoryName: 'Infused', UnitOfMeasureName: 'Each', UnitWeight: 6 }],
    ['metrc_packages', null, { Label: tag, ItemName: 'Blue Dream Buds', Quantity: 100, UnitOfMeasureName: 'Grams', SourceHarvestNames: '2026-11-20-Flower Room 1-H', PackagedDate: '2026-11-24T17:00:00.000Z' }],
    ['metrc_packages', null, { Label: tag, ItemName: 'Blue Dream Buds', Quantity: 10, UnitOfMeasureName: 'Grams' }],
    ['metrc_packages', { Label: tag, Quantity: 100, UnitOfMeasureName: 'Grams' }, { Label: tag, Quantity: 98, UnitOfMeasureName: 'Grams' }],
    ['metrc_packages', null, { Label: tag, ItemName: 'Blue Dream Buds', Quantity: 10, UnitOfMeasureName: 'Grams', SourcePackageLabels: '1A4000000000000000000002' }],
    ['metrc_packages', null, { Label: tag, ItemName: 'Blue Dream Buds', Quantity: 2, UnitOfMeasureName: 'Grams', SourcePackageLabels: '1A4000000000000000000002', IsTestingSample: 'yes' }],
    ['metrc_packages', { Label: tag, Quantity: 100, UnitOfMeasureName: 'Grams', LocationName: 'Flower Room 1' }, { Label: tag, Quantity: 100, UnitOfMeasureName: 'Grams', LocationName: 'Vault' }],
  ]
  it('every field of every push is one METRC takes, as the kind of value it takes', async () => {
    const seen = new Set<string>()
    for (const [collection, before, after] of cases) {
      for (const p of await planPushes(collection, before, after, c)) {
        seen.add(p.endpoint)
        const example = bodyOf(p.endpoint)
        expect(example, `METRC documents ${p.endpoint}`).not.toBeNull()
        for (const [k, v] of Object.entries(p.payload)) {
          expect(Object.keys(example!), `${p.endpoint}: ${k}`).toContain(k)
          const want = fieldKind(example![k])
          // (an empty list fits a list of values or of rows)
          if (v !== null && want !== null && !(Array.isArray(v) && v.length === 0)) expect(fieldKind(v), `${p.endpoint}: ${k}`).toBe(want)
          if (want === 'rows' && Array.isArray(v)) for (const row of v) for (const rk of Object.keys(row as object)) expect(Object.keys((example![k] as Array<Record<string, unknown>>)[0]), `${p.endpoint}: ${k}.${rk}`).toContain(rk)
        }
      }
    }
    expect([...seen].sort()).toEqual([
      'DELETE /plants/v2', 'POST /harvests/v2/packages', 'POST /items/v2', 'POST /packages/v2', 'POST /packages/v2/adjust', 'POST /packages/v2/testing',
      'POST /plantbatches/v2/growthphase', 'POST /plantbatches/v2/plantings', 'POST /plants/v2/waste', 'PUT /items/v2', 'PUT /packages/v2/location', 'PUT /plants/v2/growthphase',
      'PUT /plants/v2/harvest', 'PUT /plants/v2/location',
    ])
  })

  it("the lifecycle calls take METRC's own example bodies (with this facility's names) and answer as documented", async () => {
    const f = emu.state.facilities[GROW_LICENSE]
    const batch = f.plantBatches.find((b) => Number(b.UntrackedCount) >= 5)!
    const mother = f.plants.find((p) => p.State === 'Tracked' && p.GrowthPhase !== 'Mother' && !p.IsOnHold)!
    const harvest = f.harvests.find((h) => !h.FinishedDate)!
    const names: Record<string, Record<string, unknown>> = {
      'DELETE /plantbatches/v2': { PlantBatch: batch.Name, Count: 1, WasteMethodName: 'Compost', WasteMaterialMixed: 'Soil', WasteReasonName: 'Trim', WasteWeight: 1.209, WasteUnitOfMeasure: 'Grams' },
      'POST /plantbatches/v2/split': { PlantBatch: batch.Name, GroupName: 'Split of the batch', Count: 2, Location: 'Veg Room', Strain: batch.StrainName, PatientLicenseNumber: null, Sublocation: null },
      'PUT /plantbatches/v2/location': { Name: batch.Name, Location: 'Veg Room', Sublocation: null },
      'POST /plants/v2/plantings': { PlantLabel: mother.Label, PlantBatchName: 'Clones of the mother', LocationName: 'Veg Room', SublocationName: null, StrainName: mother.StrainName, PatientLicenseNumber: null },
      'PUT /harvests/v2/finish': { Id: harvest.Id },
    }
    for (const [endpoint, values] of Object.entries(names)) {
      const [method, path] = endpoint.split(' ')
      const r = await raw(method, path, { license: GROW_LICENSE, body: [{ ...bodyOf(endpoint), ...values }] })
      expect(r.status, `${endpoint}: ${r.text}`).toBe(200)
      if (method === 'PUT') expect(r.text).toBe('')
      else expect(r.json).toEqual({ Ids: [expect.any(Number)], Warnings: null })
    }
    expect(f.plantBatches.find((b) => b.Name === 'Split of the batch')).toMatchObject({ UntrackedCount: 2, SourcePlantBatchNames: batch.Name })
    expect(f.plantBatches.find((b) => b.Name === 'Clones of the mother')).toMatchObject({ SourcePlantLabel: mother.Label, PlantBatchTypeName: 'Clone' })
    expect(harvest.FinishedDate).toBe('2015-12-15')
  })

  it('writes answer their Ids where METRC documents them (creates, destroys) and nothing where it does not (PUT)', async () => {
    const f = emu.state.facilities[GROW_LICENSE]
    const plant = f.plants.find((p) => p.State === 'Tracked' && p.GrowthPhase === 'Vegetative')!
    const put = await raw('PUT', '/plants/v2/location', { license: GROW_LICENSE, body: [{ Id: null, Label: plant.Label, Location: 'Veg Room', Sublocation: null, ActualDate: '2026-11-21' }] })
    expect(put).toMatchObject({ status: 200, text: '' })
    expect(EXAMPLES['PUT /plants/v2/growthphase'].answer).toBe('none')
    const phase = await raw('PUT', '/plants/v2/growthphase', { license: GROW_LICENSE, body: [{ Id: null, Label: plant.Label, NewTag: null, GrowthPhase: 'Flowering', NewLocation: 'Flower Room 1', NewSublocation: null, GrowthDate: '2026-11-21' }] })
    expect(phase).toMatchObject({ status: 200, text: '' })
    const waste = await raw('POST', '/plants/v2/waste', { license: GROW_LICENSE, body: [{ WasteMethodName: 'Clipping', MixedMaterial: 'Soil', WasteWeight: 15.69, UnitOfMeasureName: 'grams', ReasonName: 'Trim', Note: '', LocationName: 'Veg Room', SublocationName: null, WasteDate: '2017-01-31', PlantLabels: [] }] })
    expect(waste).toMatchObject({ status: 200, json: { Ids: [expect.any(Number)], Warnings: null } })
  })
})

describe("the distribution pushes (issue 24) are METRC's calls, and the emulator answers them as METRC does", () => {
  const HARBOR_KEY = 'canopy-demo-user-key-harbor'
  const harbor = () => emu.state.facilities[HARBOR_LICENSE]
  /** a shipped order of two packages of the distributor's, to a licensed client or to a buyer without one */
  const facts = (license: string | null, tags: string[]): ShipFacts => ({
    fac: { org: 'harbor', name: 'Harbor Distribution, Denver', license: '403R-00512', state: 'CO', timeZone: 'America/Denver' },
    order: { _id: 'o1', orderNo: 'SO-1001', items: [{ id: '0', totalCents: 12_345 }, { id: '1', totalCents: 999 }], packages: tags.map((tag, i) => ({ line: String(i), inv: `i${i}`, tag, qtyMilli: [5500, 3000][i], unit: 'g' })) } as unknown as Doc,
    client: { _id: 'c1', name: 'Mile High Dispensary', license, address: '1 Main St', city: 'Denver', state: 'CO' } as unknown as Doc,
    invoiceNo: 'INV-2026-00042',
    manifestNo: 'MAN-2026-00042',
    vehicle: { make_model: 'Ford Transit Connect', driver: 'Casey Driver', driver_license: 'DL-778899', driver_phone: '3035550100', plate: 'CO-ABC-123' },
    shipAt: new Date('2026-12-05T17:30:00.000Z'),
  })
  /** every field Canopy sends is one METRC's example body has, of its kind, nested rows too */
  function sameFields(example: Record<string, unknown>, body: Record<string, unknown>, at: string) {
    for (const [k, v] of Object.entries(body)) {
      expect(Object.keys(example), `${at}${k}`).toContain(k)
      const want = fieldKind(example[k])
      if (v !== null && want !== null && !(Array.isArray(v) && v.length === 0)) expect(fieldKind(v), `${at}${k}`).toBe(want)
      if (want === 'rows' && Array.isArray(v)) for (const row of v) sameFields((example[k] as Array<Record<string, unknown>>)[0], row as Record<string, unknown>, `${at}${k}.`)
    }
  }

  it("a shipped order to a licensed client is METRC's CreateTemplates call: the body's fields, METRC's {Ids, Warnings}, then the template in METRC's list and its delivery", async () => {
    const pk = harbor().packages.filter((p) => !p.IsOnHold && !p.IsFinished).slice(0, 2)
    const [push] = metrcPushesFor(facts('402-X0002', pk.map((p) => String(p.Label))))
    expect(push.endpoint).toBe('POST /transfers/v2/templates/outgoing')
    expect(push.problem).toBeUndefined()
    const example = bodyOf(push.endpoint)!
    expect(example, 'METRC documents the call').not.toBeNull()
    sameFields(example, push.payload, '')
    // every field METRC's example destination and package carry, Canopy sends
    const body = push.payload as { Destinations: Array<Record<string, unknown> & { Packages: Array<Record<string, unknown>> }> }
    expect(Object.keys(body.Destinations[0]).sort()).toEqual(Object.keys((example.Destinations as Array<Record<string, unknown>>)[0]).sort())
    expect(Object.keys(body.Destinations[0].Packages[0]).sort()).toEqual(Object.keys(((example.Destinations as Array<{ Packages: Array<Record<string, unknown>> }>)[0]).Packages[0]).sort())
    // METRC's times are the facility's own, without a zone (17:30 UTC is 10:30 in Denver)
    expect(body.Destinations[0]).toMatchObject({ EstimatedDepartureDateTime: '2026-12-05T10:30:00.000', EstimatedArrivalDateTime: '2026-12-05T14:30:00.000' })

    const r = await raw('POST', push.endpoint.split(' ')[1], { license: HARBOR_LICENSE, user: HARBOR_KEY, body: [push.payload] })
    expect(r.status, r.text).toBe(200)
    expect(r.json).toEqual({ Ids: [expect.any(Number)], Warnings: null })
    // a template moves nothing
    expect(pk.every((p) => !p.IsFinished)).toBe(true)
    const list = await raw('GET', '/transfers/v2/templates/outgoing', { license: HARBOR_LICENSE, user: HARBOR_KEY })
    expect(Object.keys(list.json).sort()).toEqual(['CurrentPage', 'Data', 'Page', 'PageSize', 'RecordsOnPage', 'Total', 'TotalPages', 'TotalRecords'])
    const row = (list.json.Data as Array<Record<string, unknown>>).find((t) => t.Id === r.json.Ids[0])
    expect(row).toMatchObject({ Name: 'MAN-2026-00042', ShipperFacilityLicenseNumber: HARBOR_LICENSE, RecipientFacilityLicenseNumber: '402-X0002', RecipientFacilityName: 'Greenleaf Dispensary', InvoiceNumber: 'INV-2026-00042', DeliveryCount: 1, PackageCount: 2, DriverName: 'Casey Driver', VehicleMake: 'Ford', VehicleModel: 'Transit Connect' })
    // METRC's GetTemplates example row, field for field
    expect(Object.keys(row!)).toEqual(TEMPLATE_FIELDS)
    const deliveries = await raw('GET', `/transfers/v2/templates/outgoing/${String(r.json.Ids[0])}/deliveries`, { user: HARBOR_KEY })
    expect(deliveries.status).toBe(200)
    expect(deliveries.json.Data).toEqual([expect.objectContaining({ RecipientFacilityLicenseNumber: '402-X0002', DeliveryPackageCount: 2, PlannedRoute: body.Destinations[0].PlannedRoute })])
    // another license's template is 401, as METRC answers a record that is not the caller's
    expect((await raw('GET', `/transfers/v2/templates/outgoing/${String(r.json.Ids[0])}/deliveries`)).status).toBe(401)
  })

  it('a template METRC refuses: a package it does not know, a package on hold, a malformed recipient license, all in one 400 with a message per row', async () => {
    const [push] = metrcPushesFor(facts('402-X0002', ['1A4HARBORTEST000000000001', String(harbor().packages[1].Label)]))
    harbor().packages[2].IsOnHold = true
    try {
      const held = metrcPushesFor(facts('not a license', [String(harbor().packages[2].Label)]))[0]
      const r = await raw('POST', '/transfers/v2/templates/outgoing', { license: HARBOR_LICENSE, user: HARBOR_KEY, body: [push.payload, held.payload] })
      expect(r.status).toBe(400)
      expect(r.json).toEqual([
        { row: 0, message: 'Package 1A4HARBORTEST000000000001 is not an active package in the current Facility.' },
        { row: 1, message: 'Recipient Facility License Number not a license is not valid.' },
        { row: 1, message: `Package ${String(harbor().packages[2].Label)} is not an active package in the current Facility.` },
      ])
    } finally {
      harbor().packages[2].IsOnHold = false
    }
    // the example body as METRC publishes it, without a required field: zod's row message
    const { PlannedRoute: _r, ...dest } = (bodyOf('POST /transfers/v2/templates/outgoing')!.Destinations as Array<Record<string, unknown>>)[0]
    const r = await raw('POST', '/transfers/v2/templates/outgoing', { license: HARBOR_LICENSE, user: HARBOR_KEY, body: [{ ...bodyOf('POST /transfers/v2/templates/outgoing'), Destinations: [dest] }] })
    expect(r.json).toContainEqual({ row: 0, message: 'Destinations.0.PlannedRoute is required.' })
  })

  it("a sale to a buyer without a license is METRC's RecordReceipts call: the body's fields, {Ids, Warnings}, the sold quantity off the package, the receipt in METRC's list", async () => {
    const [a, b] = harbor().packages.filter((p) => !p.IsOnHold && !p.IsFinished).slice(3, 5)
    const before = [Number(a.Quantity), Number(b.Quantity)]
    const [push] = metrcPushesFor(facts(null, [String(a.Label), String(b.Label)]))
    expect(push.endpoint).toBe('POST /sales/v2/receipts')
    sameFields(bodyOf(push.endpoint)!, push.payload, '')
    expect(push.payload).toMatchObject({ SalesDateTime: '2026-12-05T10:30:00.000', SalesCustomerType: 'Consumer', ExternalReceiptNumber: 'INV-2026-00042' })
    const r = await raw('POST', '/sales/v2/receipts', { license: HARBOR_LICENSE, user: HARBOR_KEY, body: [push.payload] })
    expect(r.status, r.text).toBe(200)
    expect(r.json).toEqual({ Ids: [expect.any(Number)], Warnings: null })
    expect([Number(a.Quantity), Number(b.Quantity)]).toEqual([Math.round((before[0] - 5.5) * 10_000) / 10_000, Math.round((before[1] - 3) * 10_000) / 10_000])
    const list = await raw('GET', '/sales/v2/receipts/active', { license: HARBOR_LICENSE, user: HARBOR_KEY })
    const row = (list.json.Data as Array<Record<string, unknown>>).find((x) => x.Id === r.json.Ids[0])
    expect(row).toMatchObject({ ExternalReceiptNumber: 'INV-2026-00042', SalesCustomerType: 'Consumer', TotalPackages: 2, TotalPrice: 133.44, IsFinal: false })
    expect(Object.keys(row!)).toEqual(RECEIPT_FIELDS)
  })

  it('a receipt METRC refuses: more than the package holds, a customer type METRC does not have; at a cultivation license 403', async () => {
    const [p, other] = harbor().packages.filter((x) => !x.IsOnHold && !x.IsFinished)
    const q = Number(p.Quantity)
    const body = { ...bodyOf('POST /sales/v2/receipts'), SalesDateTime: '2026-12-05T10:30:00.000', Transactions: [{ PackageLabel: p.Label, Quantity: q + 1, UnitOfMeasure: 'Grams', TotalAmount: 10 }] }
    const r = await raw('POST', '/sales/v2/receipts', { license: HARBOR_LICENSE, user: HARBOR_KEY, body: [body, { ...body, SalesCustomerType: 'Tourist', Transactions: [{ PackageLabel: other.Label, Quantity: 1, UnitOfMeasure: 'Grams', TotalAmount: 10 }] }] })
    expect(r.status).toBe(400)
    expect(r.json).toEqual([
      { row: 0, message: `Package ${String(p.Label)} does not hold that much.` },
      { row: 1, message: 'Sales Customer Type Tourist is not valid; METRC takes Consumer, Patient, Caregiver, ExternalPatient, NonResidentConsumer.' },
    ])
    expect(Number(p.Quantity)).toBe(q)
    expect((await raw('POST', '/sales/v2/receipts', { license: GROW_LICENSE, body: [body] })).status).toBe(403)
  })

  it("per state and per key as METRC answers: no template POST in Minnesota's METRC (404); a user without Manage Transfer Templates or the sales permissions 401", async () => {
    const body = [{ ...bodyOf('POST /transfers/v2/templates/outgoing') }]
    emu.state.licenses.push({ Number: '999-MN001', Name: 'North Star', LicenseType: 'Distributor', CanGrowPlants: false, State: 'MN' })
    emu.state.facilities['999-MN001'] = emu.state.facilities[HARBOR_LICENSE]
    emu.state.users.push({ key: 'contract-no-templates', name: 'Clerk', licenses: [HARBOR_LICENSE, '999-MN001'], permissions: ALL_PERMISSIONS.filter((p) => !/Transfer Templates|Sales/.test(p)) })
    try {
      expect((await raw('POST', '/transfers/v2/templates/outgoing', { license: '999-MN001', user: DEMO_USER_KEY, body })).status).toBe(401) // not a license of the demo key's
      expect((await raw('POST', '/transfers/v2/templates/outgoing', { license: '999-MN001', user: 'contract-no-templates', body })).status).toBe(404)
      expect((await raw('GET', '/transfers/v2/templates/outgoing', { license: '999-MN001', user: 'contract-no-templates' })).status).toBe(401)
      for (const [method, path] of [['POST', '/transfers/v2/templates/outgoing'], ['GET', '/transfers/v2/templates/outgoing'], ['POST', '/sales/v2/receipts'], ['GET', '/sales/v2/receipts/active']]) {
        const r = await raw(method, path, { license: HARBOR_LICENSE, user: 'contract-no-templates', body: method === 'POST' ? body : undefined })
        expect(r, `${method} ${path}`).toMatchObject({ status: 401, json: { Message: 'Authorization has been denied for this request.' } })
      }
      expect((await raw('GET', '/packages/v2/active', { license: HARBOR_LICENSE, user: 'contract-no-templates' })).status).toBe(200)
    } finally {
      emu.state.licenses.pop()
      delete emu.state.facilities['999-MN001']
      emu.state.users.pop()
    }
  })
})

/** METRC's GetTemplates and GetActiveReceipts example rows, field for field (METRC's documentation of the two lists) */
const TEMPLATE_FIELDS = ['Id', 'ManifestNumber', 'InvoiceNumber', 'ShipmentLicenseType', 'ShipperFacilityLicenseNumber', 'ShipperFacilityName', 'Name', 'TransporterFacilityLicenseNumber', 'TransporterFacilityName', 'DriverName', 'DriverOccupationalLicenseNumber', 'DriverVehicleLicenseNumber', 'VehicleMake', 'VehicleModel', 'VehicleLicensePlateNumber', 'DeliveryCount', 'ReceivedDeliveryCount', 'PackageCount', 'ReceivedPackageCount', 'ContainsPlantPackage', 'ContainsProductPackage', 'ContainsTradeSample', 'ContainsDonation', 'ContainsTestingSample', 'ContainsProductRequiresRemediation', 'ContainsRemediatedProductPackage', 'IsVoided', 'CreatedDateTime', 'CreatedByUserName', 'LastModified', 'DeliveryId', 'RecipientFacilityLicenseNumber', 'RecipientFacilityName', 'ShipmentTypeName', 'ShipmentTransactionType', 'EstimatedDepartureDateTime', 'ActualDepartureDateTime', 'EstimatedArrivalDateTime', 'ActualArrivalDateTime', 'DeliveryPackageCount', 'DeliveryReceivedPackageCount', 'ReceivedDateTime', 'EstimatedReturnDepartureDateTime', 'ActualReturnDepartureDateTime', 'EstimatedReturnArrivalDateTime', 'ActualReturnArrivalDateTime', 'OriginatingTemplateId']
const RECEIPT_FIELDS = ['Id', 'ReceiptNumber', 'ExternalReceiptNumber', 'SalesDateTime', 'SalesCustomerType', 'PatientLicenseNumber', 'CaregiverLicenseNumber', 'IdentificationMethod', 'PatientRegistrationLocationId', 'TotalPackages', 'TotalPrice', 'Transactions', 'IsFinal', 'ArchivedDate', 'RecordedDateTime', 'RecordedByUserName', 'LastModified']
