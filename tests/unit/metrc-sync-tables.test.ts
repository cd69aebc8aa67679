/**
 * The sync's table map (app/metrc/sync/tables.ts): every Metrc collection of the route map that
 * METRC fills has an entry naming a real collection and v2 paths; reference tables are read whole;
 * rows become documents with stable ids (METRC's Id, a license number, or a name).
 */
import { ROUTES } from '#app/route-map'
import { schemas as metrcSchemas } from '#app/seed/schemas/metrc'
import { documentOf, SYNC_TABLES } from '#app/metrc/sync/tables'
import { EXAMPLES } from '#app/metrc/reference/generated'

const metrcCollections = [...new Set(ROUTES.filter((r) => r.module === 'metrc' && r.collection).map((r) => r.collection!))]
const o = { license: '403-X0001', state: 'CA' }

describe('METRC sync table map', () => {
  it('covers every Metrc collection of the route map but the workflow preferences', () => {
    expect(metrcCollections.filter((c) => !SYNC_TABLES.has(c))).toEqual(['metrc_prefs'])
    const known = new Set(metrcSchemas.map((s) => s.key))
    for (const t of SYNC_TABLES.values()) {
      expect(known.has(t.collection), t.collection).toBe(true)
      for (const p of t.paths) expect(p, t.collection).toMatch(/^\/[a-z]+\/v2(\/|$)/)
      if (t.kind === 'reference') expect(t.modified, t.collection).toBeFalsy()
    }
    expect([...SYNC_TABLES.values()].filter((t) => t.kind === 'reference')).toHaveLength(18)
  })

  it('gives stable ids: METRC Id, the license number, else the name; a bare string is a name', () => {
    expect(documentOf(SYNC_TABLES.get('metrc_plants')!, { Id: 1234, Label: 'TAG' }, o)._id).toBe('m1234')
    expect(documentOf(SYNC_TABLES.get('metrc_customer_types')!, 'Consumer', o)).toEqual({ _id: 'n-consumer', Name: 'Consumer' })
    expect(documentOf(SYNC_TABLES.get('metrc_waste_reasons')!, { Name: 'Disease/Infestation' }, o)._id).toBe('n-disease-infestation')
    const f = { Name: 'GREENLEAF', License: { Number: '403-X0001', LicenseType: 'Medical Cultivation' }, FacilityType: { CanGrowPlants: true } }
    expect(documentOf(SYNC_TABLES.get('metrc_facilities')!, f, o)).toMatchObject({ _id: 'lic-403-x0001', LicenseNumber: '403-X0001' })
    // the same row twice gives the same document (a second run has nothing to write)
    expect(documentOf(SYNC_TABLES.get('metrc_packages')!, { Id: 7, Label: 'P', Quantity: 2 }, o)).toEqual(documentOf(SYNC_TABLES.get('metrc_packages')!, { Id: 7, Label: 'P', Quantity: 2 }, o))
  })

  it("keys a tag by the tag itself and takes its kind from the list METRC gave it in (METRC's documented rows: the same Id in both lists, TagTypeName null)", () => {
    const src = SYNC_TABLES.get('metrc_tags')!
    expect(src).toMatchObject({ kind: 'data', paths: ['/tags/v2/plant/available', '/tags/v2/package/available'], plantPaths: ['/tags/v2/plant/available'] })
    expect(src.modified).toBeFalsy() // read whole: a used tag is no longer listed, so it goes
    const plantRow = EXAMPLES['GET /tags/v2/plant/available'].row!
    const packageRow = EXAMPLES['GET /tags/v2/package/available'].row!
    const types = new Map([['Id', 'number'], ['MaxGroupSize', 'number'], ['FacilityId', 'number']])
    const plant = documentOf(src, plantRow, { ...o, path: '/tags/v2/plant/available' }, types)
    const pkg = documentOf(src, { ...packageRow, Label: 'ABCDEF012345670000020001' }, { ...o, path: '/tags/v2/package/available' }, types)
    expect(plant).toEqual({ _id: 't-ABCDEF012345670000010001', Id: 101, MetrcId: 101, Label: 'ABCDEF012345670000010001', Type: 'Plant', TagInventoryTypeName: 'MedicalPlant', MaxGroupSize: 0, FacilityId: 0 })
    expect(pkg).toMatchObject({ _id: 't-ABCDEF012345670000020001', Id: 101, Type: 'Package', TagInventoryTypeName: 'MedicalPackage' })
  })

  it('types values as the table schema does: check fields yes/no, numbers, text; METRC’s 0001-01-01 left empty', () => {
    const types = new Map([['IsOnHold', 'check'], ['Quantity', 'number'], ['Note', 'text'], ['PackagedDate', 'date'], ['Id', 'number'], ['Label', 'text']])
    const doc = documentOf(SYNC_TABLES.get('metrc_packages')!, { Id: 9, Label: 'P', IsOnHold: false, IsFinished: true, Quantity: '2.5', Note: 12, PackagedDate: '0001-01-01', FinishedDate: '0001-01-01T00:00:00', ArchivedDate: null, SourceHarvestNames: ['A', 'B'] }, o, types)
    expect(doc).toEqual({ _id: 'm9', Id: 9, MetrcId: 9, Label: 'P', IsOnHold: 'no', IsFinished: 'yes', Quantity: 2.5, Note: '12', SourceHarvestNames: 'A, B' })
    // a lab result: one row per test type of a result, keyed by both
    const lab = documentOf(SYNC_TABLES.get('metrc_lab_tests')!, { PackageId: 5, LabTestResultId: 77, TestTypeName: 'THC', TestPassed: true }, o, new Map([['TestPassed', 'check']]))
    expect(lab).toEqual({ _id: 'r77-thc', PackageId: 5, LabTestResultId: 77, TestTypeName: 'THC', TestPassed: 'yes' })
  })
})
