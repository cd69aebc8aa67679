/**
 * The METRC emulator over real HTTP (issue 9): Basic auth with vendor and user keys, licenses
 * (401 outside the key's, 403 for plant work at a dispensary, 401 for a record of another
 * license), v2 paging and bare arrays, 24 h lastModified windows, per-row 400s that change
 * nothing, 413 over 10 objects, 429 with Retry-After over the GET limit, the fault controls, and
 * state that survives a restart. It needs no Canopy database: one run serves both engines.
 */
import { DEMO_USER_KEY, DEMO_VENDOR_KEY, EXPIRED_USER_KEY, GROW_LICENSE, SHOP_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { tmpDir } from '#tests/helpers/db'

let emu: RunningEmulator
let dir: string
const auth = (vendor = DEMO_VENDOR_KEY, user = DEMO_USER_KEY) => 'Basic ' + Buffer.from(`${vendor}:${user}`).toString('base64')
/** One request; a rate-limit 429 is waited out and retried (as a client would) unless `limited` asks to see it. */
async function call(method: string, path: string, o: { body?: unknown; license?: string | null; query?: string; authz?: string; limited?: boolean } = {}): Promise<{ status: number; body: any; retryAfter: string | null }> {
  const q = new URLSearchParams(o.query ?? '')
  if (o.license !== null) q.set('licenseNumber', o.license ?? GROW_LICENSE)
  const res = await fetch(`${emu.url}${path}?${q}`, { method, headers: { Authorization: o.authz ?? auth(), 'Content-Type': 'application/json' }, body: o.body === undefined ? undefined : JSON.stringify(o.body) })
  const text = await res.text()
  if (res.status === 429 && !o.limited && emu.faults.storm429 === 0) {
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000))
    return call(method, path, o)
  }
  return { status: res.status, body: text ? JSON.parse(text) : null, retryAfter: res.headers.get('retry-after') }
}
const today = new Date().toISOString().slice(0, 10)

beforeAll(async () => {
  dir = tmpDir()
  emu = await startMetrcEmulator({ dataDir: dir, seed: { plants: 45, packages: 25 }, limits: { facilityPerSec: 30, vendorPerSec: 100, facilityInFlight: 10, vendorInFlight: 30 } })
})
afterAll(async () => emu?.close())

describe('authentication and licenses', () => {
  it('takes vendor and user keys as Basic auth and refuses anything else with 401', async () => {
    expect((await call('GET', '/facilities/v2', { license: null })).status).toBe(200)
    expect((await call('GET', '/facilities/v2', { license: null, authz: auth('nope') })).status).toBe(401)
    expect((await call('GET', '/facilities/v2', { license: null, authz: auth(DEMO_VENDOR_KEY, 'wrong') })).body).toEqual({ Message: 'Authorization has been denied for this request.' })
    expect((await call('GET', '/facilities/v2', { license: null, authz: 'Bearer x' })).status).toBe(401)
  })
  it("lists the key's facilities; another license is 401, plant work at a dispensary 403", async () => {
    const f = await call('GET', '/facilities/v2', { license: null })
    expect(f.body.map((x: { License: { Number: string } }) => x.License.Number).sort()).toEqual([SHOP_LICENSE, GROW_LICENSE].sort())
    expect((await call('GET', '/packages/v2/active', { license: '404-X0003' })).status).toBe(401)
    expect((await call('GET', '/plants/v2/vegetative', { license: SHOP_LICENSE })).status).toBe(403)
    const batch = await call('POST', '/plantbatches/v2/plantings', { license: SHOP_LICENSE, body: [{ Name: 'X', Type: 'Clone', Count: 5, Strain: 'Blue Dream', ActualDate: today }] })
    expect(batch.status).toBe(403)
  })
  it('answers 401, not 404, for a record of another license', async () => {
    const own = (await call('GET', '/packages/v2/active', { query: 'pageSize=1' })).body.Data[0]
    expect((await call('GET', `/packages/v2/${own.Id}`)).body.Label).toBe(own.Label)
    expect((await call('GET', `/packages/v2/${own.Label}`)).body.Id).toBe(own.Id)
    expect((await call('GET', `/packages/v2/${own.Id}`, { license: SHOP_LICENSE })).status).toBe(401)
  })
})

describe('reads', () => {
  it('pages v2 lists by 20 at most and returns bare arrays where METRC does', async () => {
    const p1 = await call('GET', '/plants/v2/vegetative', { query: 'pageSize=20&pageNumber=1' })
    const all = (await call('GET', '/plants/v2/vegetative')).body
    expect(all.TotalPages).toBe(1)
    expect(p1.body.Total).toBe(all.Total)
    expect(p1.body.TotalPages).toBe(Math.max(1, Math.ceil(all.Total / 20)))
    expect((await call('GET', '/plants/v2/vegetative', { query: 'pageSize=50' })).status).toBe(400)
    const units = await call('GET', '/unitsofmeasure/v2/active', { license: null })
    expect(Array.isArray(units.body)).toBe(true)
    expect(units.body.find((u: { Name: string }) => u.Name === 'Grams')).toMatchObject({ QuantityType: 'WeightBased', Abbreviation: 'g' })
    expect(await call('GET', '/packages/v2/types', { license: null })).toMatchObject({ status: 200, body: expect.arrayContaining(['Product', 'ImmaturePlant']) })
  })
  it('filters by lastModified windows of at most 24 hours', async () => {
    const end = new Date()
    const start = new Date(end.getTime() - 24 * 3_600_000)
    const w = await call('GET', '/packages/v2/active', { query: `lastModifiedStart=${start.toISOString()}&lastModifiedEnd=${end.toISOString()}` })
    expect(w.status).toBe(200)
    for (const p of w.body.Data) expect(Date.parse(p.LastModified)).toBeGreaterThanOrEqual(start.getTime())
    const long = await call('GET', '/packages/v2/active', { query: `lastModifiedStart=${new Date(start.getTime() - 1000).toISOString()}&lastModifiedEnd=${end.toISOString()}` })
    expect(long.status).toBe(400)
    expect(long.body.Message).toMatch(/24 hours/)
  })
  it('answers every table of SPEC §2.3', async () => {
    for (const [path, license] of [
      ['/sales/v2/customertypes', null], ['/transfers/v2/deliveries/packages/states', null], ['/unitsofmeasure/v2/active', null], ['/items/v2/categories', null],
      ['/items/v2/brands', GROW_LICENSE], ['/labtests/v2/states', null], ['/labtests/v2/types', null], ['/packages/v2/types', null], ['/packages/v2/adjust/reasons', GROW_LICENSE],
      ['/plants/v2/additives/types', null], ['/plants/v2/growthphases', GROW_LICENSE], ['/plantbatches/v2/types', null], ['/locations/v2/types', GROW_LICENSE],
      ['/harvests/v2/waste/types', null], ['/plants/v2/waste/reasons', GROW_LICENSE], ['/plants/v2/waste/methods/all', null], ['/transfers/v2/types', GROW_LICENSE],
      ['/employees/v2', GROW_LICENSE], ['/facilities/v2', null], ['/harvests/v2/active', GROW_LICENSE], ['/patients/v2/active', SHOP_LICENSE],
      ['/plantbatches/v2/active', GROW_LICENSE], ['/plants/v2/flowering', GROW_LICENSE], ['/locations/v2/active', GROW_LICENSE], ['/strains/v2/active', GROW_LICENSE],
      ['/items/v2/active', GROW_LICENSE], ['/packages/v2/active', GROW_LICENSE], ['/tags/v2/plant/available', GROW_LICENSE], ['/tags/v2/package/available', GROW_LICENSE],
    ] as const) {
      const r = await call('GET', path, { license })
      expect(r.status, path).toBe(200)
      const rows = Array.isArray(r.body) ? r.body : r.body.Data
      expect(rows.length, path).toBeGreaterThan(0)
    }
  })
})

describe('writes', () => {
  it('creates plantings (1–100 plants), moves them to tagged plants with unused tags, one way through the phases', async () => {
    const strain = (await call('GET', '/strains/v2/active')).body.Data[0].Name
    const bad = await call('POST', '/plantbatches/v2/plantings', { body: [{ Name: 'PB-OK', Type: 'Clone', Count: 10, Strain: strain, Location: 'Veg Room', ActualDate: today }, { Name: 'PB-BIG', Type: 'Clone', Count: 101, Strain: strain, ActualDate: today }, { Name: 'PB-X', Type: 'Cutting', Count: 5, Strain: 'Nope', ActualDate: today }] })
    expect(bad.status).toBe(400)
    // row 2's shape is wrong (zod), so its strain is not looked at
    expect(bad.body.map((r: { row: number }) => r.row)).toEqual([1, 2])
    expect(bad.body[0].message).toMatch(/1 to 100/)
    expect(bad.body[1].message).toBe('Type must be one of Seed, Clone.')
    // nothing of that body was applied
    expect((await call('GET', '/plantbatches/v2/active')).body.Data.some((b: { Name: string }) => b.Name === 'PB-OK')).toBe(false)
    const ok = await call('POST', '/plantbatches/v2/plantings', { body: [{ Name: 'PB-OK', Type: 'Clone', Count: 10, Strain: strain, Location: 'Veg Room', ActualDate: today }] })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ Ids: [expect.any(Number)], Warnings: null })
    const tags: string[] = (await call('GET', '/tags/v2/plant/available')).body.map((t: { Label: string }) => t.Label)
    const move = (StartingTag: string, Count: number) => call('POST', '/plantbatches/v2/growthphase', { body: [{ Name: 'PB-OK', Count, StartingTag, GrowthPhase: 'Vegetative', NewLocation: 'Veg Room', GrowthDate: today }] })
    expect((await move(tags[0], 11)).status).toBe(400) // more than the batch holds
    expect((await move(tags[0], 3)).status).toBe(200)
    const again = await move(tags[0], 1)
    expect(again.body[0].message).toBe(`Tag ${tags[0]} is not valid.`) // tags are single-use
    const plant = (await call('GET', `/plants/v2/${tags[1]}`)).body
    expect(plant).toMatchObject({ GrowthPhase: 'Vegetative', PlantBatchName: 'PB-OK', State: 'Tracked' })
    const flower = await call('PUT', '/plants/v2/growthphase', { body: [{ Label: tags[1], GrowthPhase: 'Flowering', NewLocation: 'Flower Room 1', GrowthDate: today }] })
    expect(flower.status).toBe(200)
    const back = await call('PUT', '/plants/v2/growthphase', { body: [{ Label: tags[1], GrowthPhase: 'Vegetative', NewLocation: 'Veg Room', GrowthDate: today }] })
    expect(back.status).toBe(400)
    expect(back.body[0].message).toMatch(/cannot move from Flowering to Vegetative/)
  })

  it('moves a tracked plant to a location for plants, and changes its strain to an active one', async () => {
    const plant = (await call('GET', '/plants/v2/flowering')).body.Data[0]
    const to = plant.LocationName === 'Flower Room 1' ? 'Flower Room 2' : 'Flower Room 1'
    const bad = await call('PUT', '/plants/v2/location', { body: [{ Label: plant.Label, Location: 'Vault', ActualDate: today }, { Label: plant.Label, Location: 'Nowhere', ActualDate: today }, { Label: '1A4000000000000000000000', Location: to, ActualDate: today }, { Location: to, ActualDate: today }] })
    expect(bad.status).toBe(400)
    expect(bad.body.map((r: { row: number; message: string }) => [r.row, r.message])).toEqual([
      [0, 'Location Vault cannot hold plants.'],
      [1, 'Location Nowhere does not exist in the current Facility.'],
      [2, 'Plant 1A4000000000000000000000 is not a tracked plant in the current Facility.'],
      [3, 'Label: Id or Label is required.'],
    ])
    expect((await call('GET', `/plants/v2/${plant.Label}`)).body.LocationName).toBe(plant.LocationName) // nothing applied
    const moved = await call('PUT', '/plants/v2/location', { body: [{ Label: plant.Label, Location: to.toUpperCase(), ActualDate: today }] })
    expect(moved.status).toBe(200)
    const after = (await call('GET', `/plants/v2/${plant.Label}`)).body
    expect(after).toMatchObject({ LocationName: to, GrowthPhase: 'Flowering' })
    expect(Date.parse(after.LastModified)).toBeGreaterThan(Date.parse(plant.LastModified))
    const strains: string[] = (await call('GET', '/strains/v2/active')).body.Data.map((x: { Name: string }) => x.Name)
    const other = strains.find((n) => n !== plant.StrainName)!
    expect((await call('PUT', '/plants/v2/strain', { body: [{ Label: plant.Label, StrainName: 'No Such Kush' }] })).body[0].message).toBe('Strain No Such Kush does not exist in the current Facility.')
    expect((await call('PUT', '/plants/v2/strain', { body: [{ Id: plant.Id, StrainName: other }] })).status).toBe(200)
    expect((await call('GET', `/plants/v2/${plant.Label}`)).body.StrainName).toBe(other)
  })

  it('creates and adjusts packages only with units of the same kind, never below zero, and finishes at zero', async () => {
    const tag = (await call('GET', '/tags/v2/package/available')).body[0].Label
    const item = (await call('GET', '/items/v2/active')).body.Data.find((i: { QuantityType: string }) => i.QuantityType === 'WeightBased').Name
    const wrongUnit = await call('POST', '/packages/v2', { body: [{ Tag: tag, Item: item, Quantity: 5, UnitOfMeasure: 'Each', ActualDate: today, IsProductionBatch: false, IsDonation: false, ProductRequiresRemediation: false, UseSameItem: false }] })
    expect(wrongUnit.status).toBe(400)
    expect(wrongUnit.body[0].message).toMatch(/cannot be used with item/)
    const made = await call('POST', '/packages/v2', { body: [{ Tag: tag, Item: item, Quantity: 1, UnitOfMeasure: 'Pounds', Location: 'Vault', ActualDate: today, IsProductionBatch: false, IsDonation: false, ProductRequiresRemediation: false, UseSameItem: false }] })
    expect(made.status).toBe(200)
    const adjust = (Quantity: number, UnitOfMeasure = 'Ounces') => call('POST', '/packages/v2/adjust', { body: [{ Label: tag, Quantity, UnitOfMeasure, AdjustmentReason: 'Drying', AdjustmentDate: today }] })
    expect((await adjust(-17)).body[0].message).toMatch(/below zero/)
    expect((await adjust(-2, 'Each')).body[0].message).toMatch(/does not match/)
    expect((await call('PUT', '/packages/v2/finish', { body: [{ Label: tag, ActualDate: today }] })).body[0].message).toMatch(/adjust it to zero/)
    expect((await adjust(-16)).status).toBe(200)
    expect((await call('GET', `/packages/v2/${tag}`)).body.Quantity).toBe(0)
    expect((await call('PUT', '/packages/v2/finish', { body: [{ Label: tag, ActualDate: today }] })).status).toBe(200)
    expect((await call('GET', '/packages/v2/inactive')).body.Data.some((p: { Label: string }) => p.Label === tag)).toBe(true)
  })

  it('moves an active package to a location for packages', async () => {
    const pkg = (await call('GET', '/packages/v2/active')).body.Data[0]
    const bad = await call('PUT', '/packages/v2/location', { body: [{ Label: pkg.Label, Location: 'Veg Room', MoveDate: today }, { Label: pkg.Label, Location: 'Nowhere', MoveDate: today }, { Label: 'NOPE', Location: 'Vault', MoveDate: today }] })
    expect(bad.body.map((r: { row: number; message: string }) => [r.row, r.message])).toEqual([
      [0, 'Location Veg Room cannot hold packages.'],
      [1, 'Location Nowhere does not exist in the current Facility.'],
      [2, 'Package NOPE is not an active package in the current Facility.'],
    ])
    await call('POST', '/locations/v2', { body: [{ Name: 'Vault 2', LocationTypeName: 'Packing' }] })
    expect((await call('PUT', '/packages/v2/location', { body: [{ Label: pkg.Label, Location: 'vault 2', MoveDate: today }] })).status).toBe(200)
    expect((await call('GET', `/packages/v2/${pkg.Label}`)).body.LocationName).toBe('Vault 2')
  })

  it('refuses more than 10 objects (413), a body that is not an array, and unknown endpoints', async () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ Name: `S-${i}`, TestingStatus: 'None' }))
    expect((await call('POST', '/strains/v2', { body: many })).status).toBe(413)
    expect((await call('POST', '/strains/v2', { body: { Name: 'x' } })).status).toBe(400)
    expect((await call('POST', '/nothing/v2', { body: [] })).status).toBe(404)
    expect((await call('GET', '/nothing/v2/active')).status).toBe(404)
  })

  it('records plant waste in batches of 10', async () => {
    const labels = (await call('GET', '/plants/v2/flowering', { query: 'pageSize=10' })).body.Data.map((p: { Label: string }) => p.Label)
    const row = (i: number) => ({ WasteMethodName: 'Grinder', MixedMaterial: 'Soil', WasteWeight: 1.5 + i, UnitOfMeasureName: 'Grams', ReasonName: 'Trimming/Pruning', Note: '', WasteDate: today, PlantLabels: [labels[i]] })
    const r = await call('POST', '/plants/v2/waste', { body: labels.map((_: string, i: number) => row(i)) })
    expect(r.status).toBe(200)
    expect(r.body.Ids).toHaveLength(labels.length)
    const bad = await call('POST', '/plants/v2/waste', { body: [{ ...row(0), WasteMethodName: 'Incinerator' }] })
    expect(bad.body[0].message).toMatch(/not valid for plants/)
  })
})

describe('limits and faults', () => {
  it('answers 429 with Retry-After over the per-facility and per-vendor GET rates', async () => {
    // its own emulator with low limits, so a slow machine cannot refill the bucket in time
    const small = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 5, packages: 5 }, limits: { facilityPerSec: 4, vendorPerSec: 8, facilityInFlight: 100, vendorInFlight: 100 } })
    try {
      const get = async (license: string | null) => {
        const res = await fetch(`${small.url}/unitsofmeasure/v2/active${license ? `?licenseNumber=${license}` : ''}`, { headers: { Authorization: auth() } })
        await res.arrayBuffer()
        return { status: res.status, retryAfter: res.headers.get('retry-after') }
      }
      const facility: Array<{ status: number; retryAfter: string | null }> = []
      for (let i = 0; i < 6; i++) facility.push(await get(GROW_LICENSE))
      expect(facility.slice(0, 4).map((a) => a.status)).toEqual([200, 200, 200, 200])
      const limited = facility.filter((a) => a.status === 429)
      expect(limited.length).toBeGreaterThan(0)
      expect(Number(limited[0].retryAfter)).toBeGreaterThanOrEqual(1)
      // the other license still has its own facility budget, until the vendor key's runs out
      const vendor: number[] = []
      for (let i = 0; i < 6; i++) vendor.push((await get(SHOP_LICENSE)).status)
      expect(vendor).toContain(429)
      expect(small.requests.filter((r) => r.status === 429).length).toBe(limited.length + vendor.filter((x) => x === 429).length)
      // writes are not rate-limited
      expect((await fetch(`${small.url}/strains/v2?licenseNumber=${GROW_LICENSE}`, { method: 'POST', headers: { Authorization: auth(), 'Content-Type': 'application/json' }, body: JSON.stringify([{ Name: 'Rate Free' }]) })).status).toBe(200)
    } finally {
      await small.close()
    }
  })
  it('can be told to be down, slow, to storm 429s and to expire a key', async () => {
    const ctl = (b: unknown) => fetch(`${emu.url}/_emulator/faults`, { method: 'POST', headers: { 'x-emulator-admin': emu.adminToken }, body: JSON.stringify(b) })
    expect((await fetch(`${emu.url}/_emulator/faults`, { method: 'POST', body: '{}' })).status).toBe(401)
    await ctl({ down: true })
    expect((await call('GET', '/facilities/v2', { license: null })).status).toBe(503)
    await ctl({ down: false, storm429: 2, retryAfterS: 3 })
    const s = [await call('GET', '/facilities/v2', { license: null, limited: true }), await call('GET', '/facilities/v2', { license: null, limited: true }), await call('GET', '/facilities/v2', { license: null, limited: true })]
    expect(s.map((x) => x.status)).toEqual([429, 429, 200])
    expect(s[0].retryAfter).toBe('3')
    await ctl({ expiredKeys: [DEMO_USER_KEY] })
    expect((await call('GET', '/facilities/v2', { license: null })).status).toBe(401)
    await ctl({ expiredKeys: [], slowMs: 150 })
    const t0 = Date.now()
    expect((await call('GET', '/facilities/v2', { license: null })).status).toBe(200)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140)
    await ctl({ slowMs: 0 })
    const log = await (await fetch(`${emu.url}/_emulator/requests`, { headers: { 'x-emulator-admin': emu.adminToken } })).json()
    expect(log.some((r: { status: number; path: string }) => r.status === 503 && r.path === '/facilities/v2')).toBe(true)
  })
  it('keeps its state across a restart', async () => {
    const before = (await call('GET', '/plantbatches/v2/active')).body.Data.find((b: { Name: string }) => b.Name === 'PB-OK')
    expect(before).toBeTruthy()
    await emu.close()
    emu = await startMetrcEmulator({ dataDir: dir })
    const after = (await call('GET', '/plantbatches/v2/active')).body.Data.find((b: { Name: string }) => b.Name === 'PB-OK')
    expect(after).toEqual(before)
  })
})

describe('every endpoint family, bodies read with zod, more faults', () => {
  beforeAll(async () => {
    await emu.close()
    dir = tmpDir()
    emu = await startMetrcEmulator({ dataDir: dir, seed: { plants: 30, packages: 12, seed: 7 }, limits: { facilityPerSec: 10_000, vendorPerSec: 10_000, facilityInFlight: 100, vendorInFlight: 100 } })
  })

  it('refuses the seeded expired key, and a list without its licenseNumber', async () => {
    expect((await call('GET', '/facilities/v2', { license: null, authz: auth(DEMO_VENDOR_KEY, EXPIRED_USER_KEY) })).status).toBe(401)
    expect((await call('GET', '/packages/v2/active', { license: null })).status).toBe(400)
  })

  it('reads each row with its schema first: missing and mistyped fields are row errors', async () => {
    const r = await call('POST', '/plantbatches/v2/plantings', { body: [{ Name: 'Z', Type: 'Clone', Strain: 'Blue Dream', ActualDate: today }, { Name: 'Z2', Type: 'Clone', Count: '5', Strain: 'Blue Dream', ActualDate: 'someday' }] })
    expect(r.status).toBe(400)
    expect(r.body).toEqual([
      { row: 0, message: 'Count is required.' },
      { row: 1, message: 'Count must be a whole number.' },
      { row: 1, message: 'ActualDate must be a date (YYYY-MM-DD) or an ISO date-time.' },
    ])
    expect((await call('POST', '/strains/v2', { body: [42] })).body).toEqual([{ row: 0, message: 'Each row must be a JSON object.' }])
  })

  it('facilities, employees, units, reference lists', async () => {
    expect((await call('GET', '/employees/v2', { query: 'pageSize=2' })).body).toMatchObject({ PageSize: 2, RecordsOnPage: 2, Total: 3, TotalPages: 2 })
    expect((await call('GET', '/unitsofmeasure/v2/inactive', { license: null })).body).toEqual([])
    expect((await call('GET', '/wastemethods/v2', { license: null })).body.map((m: { Name: string }) => m.Name)).toContain('Compost')
    expect((await call('GET', '/plants/v2/additives/types', { license: null })).body).toEqual(['Fertilizer', 'Pesticide', 'Other'])
    expect((await call('GET', '/sales/v2/customertypes', { license: null })).body).toContain('Patient')
    expect((await call('GET', '/plantbatches/v2/waste/reasons')).body.Data.length).toBeGreaterThan(0)
  })

  it('locations, strains and items: create, update, read by id', async () => {
    const loc = await call('POST', '/locations/v2', { body: [{ Name: 'Packing Room', LocationTypeName: 'Default' }] })
    expect(loc.status).toBe(200)
    const [locId] = loc.body.Ids
    expect((await call('PUT', '/locations/v2', { body: [{ Id: locId, Name: 'Packing Room A', LocationTypeName: 'planting' }] })).status).toBe(200)
    expect((await call('GET', `/locations/v2/${locId}`)).body).toMatchObject({ Name: 'Packing Room A', LocationTypeName: 'Planting', ForHarvests: false })
    expect((await call('POST', '/locations/v2', { body: [{ Name: 'packing room a', LocationTypeName: 'Default' }] })).body[0].message).toBe('Location packing room a already exists.')
    const st = await call('POST', '/strains/v2', { body: [{ Name: 'Canopy Haze', TestingStatus: 'InHouse', ThcLevel: 0.2, CbdLevel: 0.01, IndicaPercentage: 30, SativaPercentage: 70 }] })
    expect(st.status).toBe(200)
    expect((await call('PUT', '/strains/v2', { body: [{ Id: st.body.Ids[0], Name: 'Canopy Haze', IndicaPercentage: 80, SativaPercentage: 30 }] })).body[0].message).toMatch(/more than 100/)
    const item = await call('POST', '/items/v2', { body: [{ Name: 'Canopy Haze Flower', ItemCategory: 'buds', UnitOfMeasure: 'g', Strain: 'Canopy Haze', ItemBrand: 'Greenleaf Select' }] })
    expect(item.status).toBe(200)
    expect((await call('GET', `/items/v2/${item.body.Ids[0]}`)).body).toMatchObject({ ProductCategoryName: 'Buds', QuantityType: 'WeightBased', UnitOfMeasureName: 'Grams', StrainName: 'Canopy Haze', ItemBrandName: 'Greenleaf Select' })
    const wrongKind = await call('POST', '/items/v2', { body: [{ Name: 'Odd', ItemCategory: 'Immature Plants', UnitOfMeasure: 'Grams', Strain: 'Canopy Haze' }] })
    expect(wrongKind.body[0].message).toMatch(/does not match the category's CountBased/)
    expect((await call('PUT', '/items/v2', { body: [{ Id: item.body.Ids[0], Name: 'Canopy Haze Buds', ItemCategory: 'Buds', UnitOfMeasure: 'Ounces', Strain: 'Canopy Haze' }] })).status).toBe(200)
  })

  it('plants: harvest from Flowering only, waste, destroy; harvests: packages and waste off the current weight', async () => {
    const veg = (await call('GET', '/plants/v2/vegetative')).body.Data[0]
    const flo = (await call('GET', '/plants/v2/flowering')).body.Data.slice(0, 2)
    const harvest = (Plant: string) => ({ Plant, Weight: 1, UnitOfWeight: 'Kilograms', DryingLocation: 'Flower Room 1', HarvestName: 'H-Test', ActualDate: today })
    const early = await call('PUT', '/plants/v2/harvest', { body: [harvest(veg.Label)] })
    expect(early.body[0].message).toMatch(/not flowering/)
    expect((await call('PUT', '/plants/v2/harvest', { body: flo.map((p: { Label: string }) => harvest(p.Label)) })).status).toBe(200)
    const h = (await call('GET', '/harvests/v2/active')).body.Data.find((x: { Name: string }) => x.Name === 'H-Test')
    expect(h).toMatchObject({ PlantCount: 2, TotalWetWeight: 2000, CurrentWeight: 2000 })
    expect((await call('GET', `/plants/v2/${flo[0].Label}`)).body).toMatchObject({ State: 'Harvested', HarvestId: h.Id })
    // destroy needs a weight for Contamination; waste needs a plant method
    const destroy = (WasteWeight: number) => call('DELETE', '/plants/v2', { body: [{ Label: veg.Label, WasteMethodName: 'Compost', WasteWeight, WasteUnitOfMeasureName: 'Grams', WasteReasonName: 'Contamination', ReasonNote: 'mould', ActualDate: today }] })
    expect((await destroy(0)).body[0].message).toBe('Waste reason Contamination requires a waste weight.')
    expect((await destroy(12)).status).toBe(200)
    expect((await call('GET', '/plants/v2/inactive')).body.Data.find((p: { Label: string }) => p.Label === veg.Label)).toMatchObject({ State: 'Destroyed' })
    // package 1.5 kg from the harvest, then 0.6 kg is too much, then waste 100 g
    const [t1, t2] = (await call('GET', '/tags/v2/package/available')).body.map((t: { Label: string }) => t.Label)
    const pkg = (Tag: string, Weight: number) => ({ Tag, Item: 'Blue Dream Buds', UnitOfWeight: 'Grams', Location: 'Vault', ActualDate: today, Ingredients: [{ HarvestName: 'H-Test', Weight, UnitOfWeight: 'Kilograms' }] })
    expect((await call('POST', '/harvests/v2/packages', { body: [pkg(t1, 1.5)] })).status).toBe(200)
    expect((await call('GET', `/packages/v2/${t1}`)).body).toMatchObject({ Quantity: 1500, UnitOfMeasureName: 'Grams', SourceHarvestNames: 'H-Test' })
    expect((await call('POST', '/harvests/v2/packages', { body: [pkg(t2, 0.6)] })).body[0].message).toMatch(/does not hold that much/)
    expect((await call('POST', '/harvests/v2/packages', { body: [pkg(t1, 0.1)] })).body[0].message).toBe(`Tag ${t1} is not valid.`)
    expect((await call('POST', '/harvests/v2/waste', { body: [{ Id: h.Id, WasteType: 'Root Ball', UnitOfWeight: 'Grams', WasteWeight: 100, ActualDate: today }] })).status).toBe(200)
    expect((await call('GET', `/harvests/v2/${h.Id}`)).body).toMatchObject({ CurrentWeight: 400, TotalPackagedWeight: 1500, TotalWasteWeight: 100, PackageCount: 1 })
    expect((await call('GET', '/harvests/v2/waste', { query: `harvestId=${h.Id}` })).body.Data).toHaveLength(1)
    expect((await call('POST', '/harvests/v2/waste', { license: SHOP_LICENSE, body: [{ Id: h.Id, WasteType: 'Root Ball', UnitOfWeight: 'Grams', WasteWeight: 1, ActualDate: today }] })).status).toBe(403)
  })

  it('packages unfinish; lab results by package; patients at the dispensary only', async () => {
    const p = (await call('GET', '/packages/v2/active')).body.Data[0]
    const results = await call('GET', '/labtests/v2/results', { query: `packageId=${p.Id}` })
    const bare = await call('GET', '/labtests/v2/results') // METRC wants one package at a time
    expect(bare.status).toBe(400)
    expect(bare.body.Message).toBe('packageId is required.')
    expect(results.body.Data.every((r: { PackageId: number }) => r.PackageId === p.Id)).toBe(true)
    expect(results.body.Total).toBeGreaterThan(0)
    // METRC's result shape
    expect(results.body.Data[0]).toMatchObject({ LabTestResultId: expect.any(Number), SourcePackageLabel: p.Label, TestTypeName: expect.any(String), TestPassed: expect.any(Boolean) })

    await call('POST', '/packages/v2/adjust', { body: [{ Label: p.Label, Quantity: -p.Quantity, UnitOfMeasure: p.UnitOfMeasureName, AdjustmentReason: 'Theft', ReasonNote: 'gone', AdjustmentDate: today }] })
    expect((await call('PUT', '/packages/v2/finish', { body: [{ Label: p.Label, ActualDate: today }] })).status).toBe(200)
    expect((await call('PUT', '/packages/v2/unfinish', { body: [{ Label: p.Label }] })).status).toBe(200)
    expect((await call('GET', `/packages/v2/${p.Id}`)).body.IsFinished).toBe(false)
    const patient = { LicenseNumber: 'PT-9001', LicenseEffectiveStartDate: today, LicenseEffectiveEndDate: '2030-01-01', RecommendedPlants: 4, RecommendedSmokableQuantity: 28, ActualDate: today }
    // California's METRC has no patients at all: the path is not there (404)
    expect((await call('POST', '/patients/v2', { body: [patient] })).status).toBe(404)
    expect((await call('POST', '/patients/v2', { license: SHOP_LICENSE, body: [patient] })).status).toBe(200)
    expect((await call('GET', '/patients/v2/active', { license: SHOP_LICENSE })).body.Data.some((x: { LicenseNumber: string }) => x.LicenseNumber === 'PT-9001')).toBe(true)
  })

  it('transfers: outgoing at the grower, incoming at the dispensary, windows, a delivery of another key is 401', async () => {
    const out = (await call('GET', '/transfers/v2/outgoing')).body
    const inc = (await call('GET', '/transfers/v2/incoming', { license: SHOP_LICENSE })).body
    expect(out.Total).toBe(3)
    expect(inc.Data.map((t: { ManifestNumber: string }) => t.ManifestNumber)).toEqual(out.Data.map((t: { ManifestNumber: string }) => t.ManifestNumber))
    expect(out.Data[0].Direction).toBeUndefined()
    const d = out.Data[0].DeliveryId
    expect((await call('GET', `/transfers/v2/deliveries/${d}/packages`, { license: null })).body.Data[0]).toMatchObject({ ShipmentPackageState: expect.any(String) })
    expect((await call('GET', `/transfers/v2/deliveries/${d}/packages`, { license: null, authz: auth(DEMO_VENDOR_KEY, 'canopy-demo-user-key-harbor') })).status).toBe(401)
    const end = new Date(Date.now() + 60_000)
    const w = await call('GET', '/transfers/v2/outgoing', { query: `lastModifiedStart=${new Date(end.getTime() - 86_400_000).toISOString()}&lastModifiedEnd=${end.toISOString()}` })
    expect(w.status).toBe(200)
    expect((await call('GET', '/transfers/v2/outgoing', { query: `lastModifiedStart=2026-01-01T00:00:00Z&lastModifiedEnd=2026-01-03T00:00:00Z` })).status).toBe(400)
  })

  it('transfer templates at the grower, receipts at the dispensary: all-or-nothing, paged lists, windows, deliveries, kept across a restart', async () => {
    const grow = emu.state.facilities[GROW_LICENSE]
    const [a, b, c] = grow.packages.filter((p) => !p.IsFinished && !p.IsOnHold).map((p) => String(p.Label))
    const dest = (labels: string[]) => ({ RecipientLicenseNumber: SHOP_LICENSE, InvoiceNumber: null, TransferTypeName: 'Wholesale', PlannedRoute: 'Highway 1 north', EstimatedDepartureDateTime: '2026-12-05T09:00:00.000', EstimatedArrivalDateTime: '2026-12-05T13:00:00.000', Transporters: [], Packages: labels.map((PackageLabel) => ({ PackageLabel, WholesalePrice: 100, GrossWeight: null, GrossUnitOfWeightName: null })) })
    const bad = await call('POST', '/transfers/v2/templates/outgoing', { body: [{ Name: 'T-0', Destinations: [dest([a])] }, { Name: 'T-X', Destinations: [{ ...dest([b]), EstimatedArrivalDateTime: '2026-12-04T09:00:00.000', TransferTypeName: 'Gift' }] }] })
    expect(bad).toMatchObject({ status: 400, body: [{ row: 1, message: 'Transfer Type Gift is not valid.' }, { row: 1, message: 'EstimatedArrivalDateTime is before EstimatedDepartureDateTime.' }] })
    expect(grow.transferTemplates).toHaveLength(0)
    const made = await call('POST', '/transfers/v2/templates/outgoing', { body: [{ Name: 'T-1', Destinations: [dest([a])] }, { Name: 'T-2', Destinations: [dest([b]), dest([c])] }] })
    expect(made).toMatchObject({ status: 200, body: { Ids: [expect.any(Number), expect.any(Number)], Warnings: null } })
    const second = await call('GET', '/transfers/v2/templates/outgoing', { query: 'pageSize=1&pageNumber=2' })
    expect(second.body).toMatchObject({ Total: 2, TotalPages: 2, Page: 2, Data: [{ Name: 'T-2', DeliveryCount: 2, PackageCount: 2, RecipientFacilityLicenseNumber: SHOP_LICENSE, RecipientFacilityName: 'Greenleaf Dispensary' }] })
    const now = Date.now()
    expect((await call('GET', '/transfers/v2/templates/outgoing', { query: `lastModifiedStart=${new Date(now - 3_600_000).toISOString()}&lastModifiedEnd=${new Date(now + 60_000).toISOString()}` })).body.Total).toBe(2)
    expect((await call('GET', '/transfers/v2/templates/outgoing', { query: 'lastModifiedStart=2026-01-01T00:00:00Z&lastModifiedEnd=2026-01-02T00:00:00Z' })).body.Total).toBe(0)
    const deliveries = await call('GET', `/transfers/v2/templates/outgoing/${String(made.body.Ids[1])}/deliveries`, { license: null, query: 'pageSize=1' })
    expect(deliveries.body).toMatchObject({ Total: 2, Data: [{ RecipientFacilityLicenseNumber: SHOP_LICENSE, ShipmentTypeName: 'Wholesale', DeliveryPackageCount: 1 }] })

    const shop = emu.state.facilities[SHOP_LICENSE]
    const p = shop.packages.find((x) => !x.IsFinished && !x.IsOnHold && Number(x.Quantity) > 40)!
    const q = Number(p.Quantity)
    const sale = { SalesDateTime: '2026-12-05T10:30:00.000', ExternalReceiptNumber: 'R-1', SalesCustomerType: 'patient', PatientLicenseNumber: 'PT-1001', Transactions: [{ PackageLabel: p.Label, Quantity: 1, UnitOfMeasure: 'Ounces', TotalAmount: 40 }, { PackageLabel: p.Label, Quantity: 2.5, UnitOfMeasure: 'g', TotalAmount: 10 }] }
    expect((await call('POST', '/sales/v2/receipts', { license: SHOP_LICENSE, body: [{ ...sale, PatientLicenseNumber: null }] })).body).toEqual([{ row: 0, message: 'A sale to a Patient needs the PatientLicenseNumber.' }])
    expect((await call('POST', '/sales/v2/receipts', { license: SHOP_LICENSE, body: [{ ...sale, SalesDateTime: '2099-01-01T00:00:00.000' }] })).body).toEqual([{ row: 0, message: 'SalesDateTime 2099-01-01T00:00:00.000 is in the future.' }])
    expect(Number(p.Quantity)).toBe(q)
    expect((await call('POST', '/sales/v2/receipts', { license: SHOP_LICENSE, body: [sale] })).status).toBe(200)
    expect(Number(p.Quantity)).toBe(Math.round((q - 28.3495 - 2.5) * 10_000) / 10_000)
    expect((await call('GET', '/sales/v2/receipts/active', { license: SHOP_LICENSE, query: 'pageSize=5' })).body).toMatchObject({ Total: 1, Data: [{ ExternalReceiptNumber: 'R-1', SalesCustomerType: 'Patient', TotalPackages: 1, TotalPrice: 50, Transactions: [{ UnitOfMeasure: 'Ounces' }, { UnitOfMeasure: 'Grams' }] }] })

    await emu.close()
    emu = await startMetrcEmulator({ dataDir: dir, limits: { facilityPerSec: 10_000, vendorPerSec: 10_000, facilityInFlight: 100, vendorInFlight: 100 } })
    expect((await call('GET', '/transfers/v2/templates/outgoing')).body.Total).toBe(2)
    expect((await call('GET', '/sales/v2/receipts/active', { license: SHOP_LICENSE })).body.Total).toBe(1)
  })

  it('logs each write once; drops connections (reset) and refuses them (unplugged) until told otherwise', async () => {
    emu.clearRequests()
    const tag = (await call('GET', '/tags/v2/package/available')).body[0].Label
    const body = [{ Tag: tag, Item: 'OG Kush Clone', Quantity: 3, UnitOfMeasure: 'Each', ActualDate: today }]
    expect((await call('POST', '/packages/v2', { body })).status).toBe(200)
    expect((await call('POST', '/packages/v2', { body })).status).toBe(400) // the same tag twice: refused, not applied twice
    const writes = emu.requests.filter((r) => r.method === 'POST' && r.path === '/packages/v2')
    expect(writes.map((r) => r.status)).toEqual([200, 400])
    expect(writes.filter((r) => r.status === 200 && (r.body as Array<{ Tag: string }>)[0].Tag === tag)).toHaveLength(1)
    const ctl = (b: unknown) => fetch(`${emu.url}/_emulator/faults`, { method: 'POST', headers: { 'x-emulator-admin': emu.adminToken }, body: JSON.stringify(b) })
    expect((await ctl({ slowMs: -1 })).status).toBe(400)
    expect((await ctl({ bogus: true })).status).toBe(400)
    emu.faults.reset = true
    await expect(call('GET', '/facilities/v2', { license: null })).rejects.toThrow()
    emu.faults.reset = false
    await emu.unplug()
    const refused = await call('GET', '/facilities/v2', { license: null }).catch((e: Error & { cause?: { code?: string } }) => e.cause?.code)
    expect(refused).toBe('ECONNREFUSED')
    await emu.plugIn()
    expect((await call('GET', '/facilities/v2', { license: null })).status).toBe(200)
    expect((await ctl({ refuseMs: 300 })).status).toBe(200)
    await new Promise((r) => setTimeout(r, 50))
    expect(await call('GET', '/facilities/v2', { license: null }).catch((e: Error & { cause?: { code?: string } }) => e.cause?.code)).toBe('ECONNREFUSED')
    await new Promise((r) => setTimeout(r, 400))
    expect((await call('GET', '/facilities/v2', { license: null })).status).toBe(200)
    const log = await fetch(`${emu.url}/_emulator/requests`, { method: 'DELETE', headers: { 'x-emulator-admin': emu.adminToken } })
    expect(await log.json()).toEqual([])
    expect(emu.requests).toHaveLength(0)
  })
})
