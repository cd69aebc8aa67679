/**
 * The sync's table map (app/metrc/sync/table-map.ts): every Metrc collection of the route map that
 * METRC fills has an entry, every entry names a real collection and a v2 path, and rows become
 * documents with stable ids, yes/no checks, flattened licenses and no "0001-01-01" dates.
 */
import { ROUTES } from '#app/route-map'
import { schemas as metrcSchemas } from '#app/seed/schemas/metrc'
import { SYNC_TABLES, SYNC_TABLE, stableId, toDocument } from '#app/metrc/sync/table-map'

const metrcCollections = [...new Set(ROUTES.filter((r) => r.module === 'metrc' && r.collection).map((r) => r.collection!))]
const ctx = { license: '403-X0001', state: 'CA' }

describe('METRC sync table map', () => {
  it('covers every Metrc collection of the route map but Canopy’s own (waste mix, preferences)', () => {
    expect(metrcCollections.filter((c) => !SYNC_TABLE.has(c)).sort()).toEqual(['metrc_prefs', 'metrc_wmix'])
    const known = new Set(metrcSchemas.map((s) => s.key))
    for (const t of SYNC_TABLES) {
      expect(known.has(t.collection), t.collection).toBe(true)
      expect(t.sources.length).toBeGreaterThan(0)
      for (const s of t.sources) expect(s.path, t.collection).toMatch(/^\/[a-z]+\/v2(\/|$)/)
      if (t.kind === 'reference') expect(t.sources.every((s) => !s.modified), t.collection).toBe(true)
    }
    expect(SYNC_TABLES.filter((t) => t.kind === 'reference')).toHaveLength(18)
  })

  it('gives stable ids: METRC Id, else Label, else Name; a bare string is a Name', () => {
    expect(stableId({ Id: 1234, Name: 'x' })).toBe('metrc-1234')
    expect(stableId({ Label: '1A4000000000000000000123' })).toBe('metrc-1a4000000000000000000123')
    expect(stableId({ Name: 'Disease/Infestation' })).toBe('metrc-disease-infestation')
    expect(toDocument(SYNC_TABLE.get('metrc_customer_types')!, 'Consumer', undefined, ctx)).toEqual({ _id: 'metrc-consumer', Name: 'Consumer' })
    expect(() => stableId({ Quantity: 3 })).toThrow(/without Id, Label or Name/)
  })

  it('turns booleans into yes/no, drops nested objects and sentinel dates, adds the source’s flags', () => {
    const t = SYNC_TABLE.get('metrc_packages')!
    const d = toDocument(t, { Id: 7, Label: 'TAG', IsOnHold: false, ArchivedDate: '0001-01-01T00:00:00+00:00', Item: { Name: 'x' }, Quantity: 2.5, LastModified: '2026-01-02T03:04:05+00:00' }, t.sources[2], ctx)
    expect(d).toEqual({ _id: 'metrc-7', Id: 7, Label: 'TAG', IsOnHold: 'no', ArchivedDate: null, Quantity: 2.5, LastModified: '2026-01-02T03:04:05+00:00', IsUsed: 'no' })
  })

  it('flattens a facility’s License and FacilityType, and keeps only the linked license for metrc_license', () => {
    const f = { Name: 'GREENLEAF', DisplayName: 'Greenleaf', HireDate: '0001-01-01', Occupations: ['A', 'B'], License: { Number: '403-X0001', StartDate: '2024-01-01', EndDate: '2027-12-31', LicenseType: 'Medical Cultivation' }, FacilityType: { CanGrowPlants: true, IsMedical: true } }
    const other = { ...f, License: { ...f.License, Number: '402-X0002' } }
    const fac = toDocument(SYNC_TABLE.get('metrc_facilities')!, f, undefined, ctx)
    expect(fac).toMatchObject({ _id: 'metrc-403-X0001', LicenseNumber: '403-X0001', LicenseEndDate: '2027-12-31', CanGrowPlants: 'yes', Occupations: 'A, B', HireDate: null })
    const lic = SYNC_TABLE.get('metrc_license')!
    const picked = lic.pick!([other, f], ctx)
    expect(picked).toHaveLength(1)
    expect(toDocument(lic, picked[0], undefined, ctx)).toMatchObject({ Number: '403-X0001', State: 'CA', FacilityName: 'Greenleaf', CanGrowPlants: 'yes' })
  })
})
