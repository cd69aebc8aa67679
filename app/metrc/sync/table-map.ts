/**
 * Every Metrc collection of app/route-map.ts that METRC fills (reference §2.15), and how: the
 * endpoint(s), whether they take `licenseNumber`, whether a license that cannot grow plants is
 * refused them (403: nothing to sync there), reference (read whole, daily) or data (read whole
 * the first time, then by lastModified windows from the table's high water), and how a METRC row
 * becomes a document: a stable `_id` from METRC's Id (or Name, Label, License number), METRC's
 * PascalCase fields kept, nested objects flattened, booleans as the check fields' yes/no, METRC's
 * "no date" sentinel (0001-01-01) as null. Paged v2 wrappers and bare arrays are the client's
 * concern (`MetrcClient.list` takes both).
 *
 * Not synced from METRC: metrc_wmix (Canopy's own waste mix records, pushed later) and metrc_prefs.
 */
export type SyncKind = 'reference' | 'data'

export interface Source {
  path: string
  license: boolean
  /** takes lastModifiedStart/End (incremental after the first full read) */
  modified?: boolean
  /** fields added to every row of this endpoint (e.g. IsUsed: 'no' for inactive lists) */
  extra?: Record<string, unknown>
}

export interface SyncTable {
  collection: string
  kind: SyncKind
  sources: Source[]
  /** a license that cannot grow plants is refused these (403): synced as empty */
  plants?: boolean
  /** which rows of the answer belong here (metrc_license: the linked license's facility only) */
  pick?: (rows: unknown[], ctx: { license: string; state: string }) => unknown[]
  /** a METRC row as a document (before the generic clean-up) */
  shape?: (row: Record<string, unknown>, ctx: { license: string; state: string }) => Record<string, unknown>
}

const ref = (collection: string, path: string, license = false, more: Partial<SyncTable> = {}): SyncTable => ({ collection, kind: 'reference', sources: [{ path, license }], ...more })
const active = { IsUsed: 'yes' }
const inactive = { IsUsed: 'no' }

const flatLicense = (l: unknown, prefix: string) => {
  const o = (l && typeof l === 'object' ? l : {}) as Record<string, unknown>
  return { [`${prefix}Number`]: o.Number, [`${prefix}StartDate`]: o.StartDate, [`${prefix}EndDate`]: o.EndDate, LicenseType: o.LicenseType }
}
const facilityType = (f: Record<string, unknown>) => (f.FacilityType && typeof f.FacilityType === 'object' ? (f.FacilityType as Record<string, unknown>) : {})

export const SYNC_TABLES: SyncTable[] = [
  // ---- reference: read whole every time -------------------------------------------------------
  ref('metrc_customer_types', '/sales/v2/customertypes'),
  ref('metrc_xfer_states', '/transfers/v2/deliveries/packages/states'),
  ref('metrc_units', '/unitsofmeasure/v2/active'),
  ref('metrc_item_categories', '/items/v2/categories', true),
  ref('metrc_item_brands', '/items/v2/brands', true),
  ref('metrc_lab_states', '/labtests/v2/states'),
  ref('metrc_lab_types', '/labtests/v2/types'),
  ref('metrc_package_types', '/packages/v2/types'),
  ref('metrc_package_adjust', '/packages/v2/adjust/reasons', true),
  ref('metrc_additive_types', '/plants/v2/additives/types'),
  ref('metrc_plant_growth', '/plants/v2/growthphases', true, { plants: true }),
  ref('metrc_plant_batch_types', '/plantbatches/v2/types'),
  ref('metrc_location_types', '/locations/v2/types', true),
  ref('metrc_harvest_waste_types', '/harvests/v2/waste/types'),
  ref('metrc_waste_reasons', '/plants/v2/waste/reasons', true),
  ref('metrc_waste_methods', '/plants/v2/waste/methods/all'),
  ref('metrc_license', '/facilities/v2', false, {
    pick: (rows, c) => rows.filter((f) => String((f as { License?: { Number?: unknown } }).License?.Number ?? '').toUpperCase() === c.license.toUpperCase()),
    shape: (f, c) => {
      const l = (f.License ?? {}) as Record<string, unknown>
      const ft = facilityType(f)
      return { _id: `metrc-${String(l.Number)}`, Number: l.Number, LicenseType: l.LicenseType, State: c.state, FacilityName: f.DisplayName ?? f.Name, StartDate: l.StartDate, EndDate: l.EndDate, IsMedical: ft.IsMedical, IsRetail: ft.IsRetail, CanGrowPlants: ft.CanGrowPlants, CanTransferFromExternalFacilities: ft.CanTransferFromExternalFacilities }
    },
  }),
  ref('metrc_transfer_types', '/transfers/v2/types', true),
  // ---- data: whole the first time, then by lastModified windows where METRC takes them ----------
  {
    collection: 'metrc_facilities',
    kind: 'data',
    sources: [{ path: '/facilities/v2', license: false }],
    shape: (f) => {
      const l = (f.License ?? {}) as Record<string, unknown>
      const { License: _l, FacilityType: _t, Occupations, ...rest } = f
      return { ...rest, _id: `metrc-${String(l.Number)}`, Occupations, ...flatLicense(l, 'License'), ...facilityType(f) }
    },
  },
  {
    collection: 'metrc_employees',
    kind: 'data',
    sources: [{ path: '/employees/v2', license: true }],
    shape: (e) => {
      const { License, ...rest } = e
      const l = (License ?? {}) as Record<string, unknown>
      return { ...rest, _id: e.Id !== undefined ? `metrc-${String(e.Id)}` : `metrc-lic-${String(l.Number)}`, ...flatLicense(l, 'License') }
    },
  },
  {
    collection: 'metrc_lab_tests',
    kind: 'data',
    sources: [{ path: '/labtests/v2/results', license: true }],
    shape: (r) => ({ ...r, LabTestResultId: r.LabTestResultId ?? r.Id, SourcePackageLabel: r.SourcePackageLabel ?? r.PackageLabel, TestTypeName: r.TestTypeName ?? r.LabTestTypeName }),
  },
  { collection: 'metrc_patients', kind: 'data', sources: [{ path: '/patients/v2/active', license: true, extra: active }] },
  { collection: 'metrc_rooms', kind: 'data', sources: [{ path: '/locations/v2/active', license: true, modified: true, extra: active }] },
  { collection: 'metrc_strains', kind: 'data', sources: [{ path: '/strains/v2/active', license: true, modified: true, extra: active }] },
  { collection: 'metrc_items', kind: 'data', sources: [{ path: '/items/v2/active', license: true, modified: true, extra: active }] },
  {
    collection: 'metrc_packages',
    kind: 'data',
    sources: [
      { path: '/packages/v2/active', license: true, modified: true, extra: active },
      { path: '/packages/v2/onhold', license: true, modified: true, extra: active },
      { path: '/packages/v2/inactive', license: true, modified: true, extra: inactive },
    ],
  },
  {
    collection: 'metrc_plant_batches',
    kind: 'data',
    plants: true,
    sources: [
      { path: '/plantbatches/v2/active', license: true, modified: true, extra: active },
      { path: '/plantbatches/v2/inactive', license: true, modified: true, extra: inactive },
    ],
  },
  {
    collection: 'metrc_plants',
    kind: 'data',
    plants: true,
    sources: [
      { path: '/plants/v2/vegetative', license: true, modified: true, extra: active },
      { path: '/plants/v2/flowering', license: true, modified: true, extra: active },
      { path: '/plants/v2/inactive', license: true, modified: true, extra: inactive },
    ],
  },
  { collection: 'metrc_harvests', kind: 'data', plants: true, sources: [{ path: '/harvests/v2/active', license: true, modified: true, extra: active }] },
]

export const SYNC_TABLE = new Map(SYNC_TABLES.map((t) => [t.collection, t]))
export const syncTableOf = (collection: string | undefined | null) => (collection ? SYNC_TABLE.get(collection) : undefined)

/** METRC's "no date" (0001-01-01…) is no date. */
const isSentinelDate = (v: unknown) => typeof v === 'string' && v.startsWith('0001-01-01')

const slug = (s: string) => s.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80) || 'x'

/** A stable id for a row METRC gave: its Id, else its Label (tags), else its Name; a bare string is its own Name. */
export function stableId(row: Record<string, unknown>): string {
  if (typeof row.Id === 'number' || (typeof row.Id === 'string' && row.Id)) return `metrc-${String(row.Id)}`
  if (typeof row.Label === 'string' && row.Label) return `metrc-${slug(row.Label)}`
  if (typeof row.Name === 'string' && row.Name) return `metrc-${slug(row.Name)}`
  throw new Error('a METRC row without Id, Label or Name cannot be synced')
}

/** One METRC row (object or bare string) as the document stored in the collection. */
export function toDocument(table: SyncTable, raw: unknown, source: Source | undefined, ctx: { license: string; state: string }): Record<string, unknown> & { _id: string } {
  const row = typeof raw === 'string' ? { Name: raw } : raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : { Name: String(raw) }
  const shaped = table.shape ? table.shape(row, ctx) : row
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries({ ...shaped, ...source?.extra })) {
    if (k === '_id' || v === undefined) continue
    if (v === null || isSentinelDate(v)) out[k] = null
    else if (typeof v === 'boolean') out[k] = v ? 'yes' : 'no'
    else if (Array.isArray(v)) out[k] = v.every((x) => x === null || typeof x !== 'object') ? v.filter((x) => x !== null).join(', ') : undefined
    else if (typeof v === 'object') continue // nested objects not flattened by the table's shape are left out
    else out[k] = v
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k]
  const id = typeof shaped._id === 'string' ? shaped._id : stableId(row)
  return { ...out, _id: id }
}
