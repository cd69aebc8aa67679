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
 * Runs against no database (both TEST_DB settings run it the same).
 */
import { MetrcClient } from '#app/metrc/client/client.server'
import { GetThrottle } from '#app/metrc/client/limits'
import { DEMO_USER_KEY, GROW_LICENSE, SHOP_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { NO_EMPLOYEES_USER_KEY } from '#app/metrc/emulator/model'
import { planPushes, type PlanContext } from '#app/metrc/outbox/pushes.server'
import { bodyOf, fieldKind } from '#app/metrc/reference'
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
