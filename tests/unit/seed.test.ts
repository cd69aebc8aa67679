/** The demo data is what every screen shows first: it must be complete and consistent. */
import { ROUTES } from '#app/route-map'
import { coreRecords, FACILITIES } from '#app/seed/core'
import { allSchemaInputs } from '#app/seed/index.server'
import { makeCtx, type SeedRecords } from '#app/seed/kit'
import * as business from '#app/seed/records/business'
import * as metrc from '#app/seed/records/metrc'
import * as operations from '#app/seed/records/operations'
import * as platform from '#app/seed/records/platform'
import { normalizeSchema, type TableSchema } from '#app/schemas/table-schema'
import { seedReleaseNotes } from '#app/areas/release-notes/seed'

const now = new Date('2026-11-20T15:00:00Z')
const schemas = new Map<string, TableSchema>()
for (const input of allSchemaInputs()) {
  const s = normalizeSchema(input)
  if (schemas.has(s.key)) throw new Error(`duplicate schema ${s.key}`)
  schemas.set(s.key, s)
}

function facilityRecords(org: string): SeedRecords {
  const f = FACILITIES.find((x) => x.org === org)!
  const out: SeedRecords = {}
  for (const [g, seed] of [['business', business.seedRecords], ['operations', operations.seedRecords], ['metrc', metrc.seedRecords]] as const) {
    for (const [c, docs] of Object.entries(seed(makeCtx(f, now, `:${g}`)))) out[c] = [...(out[c] ?? []), ...docs]
  }
  return out
}
const platformCtx = makeCtx({ org: 'auth', fullName: 'p', kind: 'lobby', state: 'CA', license: 'platform', timezone: 'UTC' }, now)
const byOrg: Record<string, SeedRecords> = {
  // the release notes are the platform's, seeded by their area's group (app/areas/release-notes)
  auth: { ...coreRecords('super@canopy.local', ['greenleaf', 'harbor']), ...platform.seedPlatformRecords(platformCtx), ...seedReleaseNotes(platformCtx) },
  greenleaf: facilityRecords('greenleaf'),
  harbor: facilityRecords('harbor'),
}
const SYSTEM_FLAGS = new Set(['_id', 'cts', 'IsUsed', 'ed', 'delete'])

describe('demo seed', () => {
  it('has a schema for every collection behind a route of SPEC §2.3', () => {
    const missing = ROUTES.filter((r) => r.collection && !schemas.has(r.collection)).map((r) => `${r.path} -> ${r.collection}`)
    expect(missing).toEqual([])
  })

  it('gives every table screen something to show in at least one facility', () => {
    // `schemas` is filled by the schema registry itself when the schemas above are registered; the phrase
    // map by the platform seed on every start (app/seed/phrases.server.ts, decision 056), not by the demo
    const empty = ROUTES.filter((r) => r.kind === 'table' && r.collection && r.collection !== 'schemas' && r.collection !== 'auth_phrasemap')
      .filter((r) => !Object.values(byOrg).some((recs) => (recs[r.collection!]?.length ?? 0) > 0))
      .map((r) => r.path)
    expect(empty).toEqual([])
  })

  it('has hundreds of plants across strains, rooms and growth phases', () => {
    const plants = byOrg.greenleaf.fac_plants
    expect(plants.length).toBeGreaterThanOrEqual(300)
    const distinct = (k: string) => new Set(plants.map((p) => JSON.stringify(p[k]))).size
    const keys = Object.keys(plants[0])
    const phaseKey = keys.find((k) => /phase/i.test(k))!
    expect(distinct('strain')).toBeGreaterThanOrEqual(10)
    expect(distinct('room')).toBeGreaterThanOrEqual(6)
    expect(distinct(phaseKey)).toBeGreaterThanOrEqual(4)
  })

  it('puts receivables in every tax state and measures in several units', () => {
    const tax = byOrg.greenleaf.tax_receivables
    const taxKey = schemas.get('tax_receivables')!.fields.find((f) => f.format === 'tax')!.key
    expect(new Set(tax.map((r) => r[taxKey]))).toEqual(new Set(['t', 'd', 'p']))
    const units = new Set(byOrg.greenleaf.fac_inventory.flatMap((r) => Object.values(r).filter((v): v is { unit: string } => typeof v === 'object' && v !== null && 'unit' in v).map((v) => v.unit)))
    expect(units.size).toBeGreaterThanOrEqual(3)
  })

  it('uses only fields its schema defines, and every id reference resolves', () => {
    const problems: string[] = []
    for (const [org, recs] of Object.entries(byOrg)) {
      for (const [collection, docs] of Object.entries(recs)) {
        const s = schemas.get(collection)
        if (!s) {
          problems.push(`${org}/${collection}: no schema`)
          continue
        }
        const keys = new Set(s.fields.map((f) => f.key))
        for (const d of docs) {
          for (const k of Object.keys(d)) if (!keys.has(k) && !SYSTEM_FLAGS.has(k)) problems.push(`${org}/${collection}/${d._id}: unknown field ${k}`)
          for (const f of s.fields) {
            const m = f.format?.match(/^id:([a-z0-9_]+):/)
            const v = d[f.key]
            if (!m || v === undefined || v === null || v === '') continue
            const target = (recs[m[1]] ?? byOrg.auth[m[1]] ?? []).some((x) => x._id === v)
            if (!target) problems.push(`${org}/${collection}/${d._id}.${f.key} -> ${m[1]}/${String(v)} does not exist`)
          }
        }
      }
    }
    expect(problems.slice(0, 20)).toEqual([])
  })

  it('is deterministic: the same inputs give the same records', () => {
    expect(facilityRecords('greenleaf')).toEqual(byOrg.greenleaf)
  })
})
