/**
 * Where each Metrc table of SPEC §2.3 comes from (reference §2.15): the METRC endpoints, whether
 * they need the license, whether they are read by lastModified windows (data) or whole (reference),
 * and how a METRC row becomes a Canopy document (its METRC Id, or its name for lists of strings,
 * gives a stable _id, so a sync run twice writes nothing the second time).
 */
import { utcWall, wallToInstant } from '../../format/zones'
export type SyncKind = 'reference' | 'data'

export interface TableSource {
  collection: string
  kind: SyncKind
  paths: string[]
  license: boolean
  /** read by lastModified windows after the first full read */
  modified?: boolean
  /** plant work: skipped for a license that cannot grow */
  plants?: boolean
  /** the lists of plant work in a table that also has others (plant tags beside package tags): skipped for a license that cannot grow */
  plantPaths?: string[]
  /**
   * read per package (`packageId` is required: lab results): for every package of the facility's
   * mirrored Packages that may have results, on the first run; then only those modified since
   */
  perPackage?: boolean
  /** `path`: the list the row came from (a tag's kind is which list holds it) */
  toDoc?: (row: Record<string, unknown>, o: { license: string; state: string; path?: string }) => Record<string, unknown>
}

const named = (row: unknown) => (typeof row === 'string' ? { Name: row } : (row as Record<string, unknown>))

/** A package with METRC's nested item flattened into the table's item columns (Item stays out). */
function packageDoc(p: Record<string, unknown>): Record<string, unknown> {
  const item = (p.Item && typeof p.Item === 'object' ? p.Item : {}) as Record<string, unknown>
  return {
    ...p,
    Item: undefined,
    ProductLabel: undefined,
    ItemId: item.Id ?? p.ItemId,
    ItemName: item.Name ?? p.ItemName,
    ItemCategoryName: item.ProductCategoryName ?? p.ItemCategoryName,
    ItemStrainName: item.StrainName ?? p.ItemStrainName,
    ItemUnitWeight: item.UnitWeight ?? undefined,
    ItemUnitWeightUnitOfMeasureName: item.UnitWeightUnitOfMeasureName ?? undefined,
  }
}

/** A plant waste row: keyed by METRC's PlantWasteNumber, its fields under the Waste Mix table's names. */
function wasteDoc(w: Record<string, unknown>): Record<string, unknown> {
  return {
    ...w,
    UnitOfMeasureName: w.WasteUnitOfMeasureName ?? w.UnitOfMeasureName,
    ReasonName: w.WasteReasonName ?? w.ReasonName,
    WasteUnitOfMeasureName: undefined,
    WasteReasonName: undefined,
    _key: `w${String(w.PlantWasteNumber ?? '')}`,
  }
}

const PLANT_TAGS = '/tags/v2/plant/available'
const PACKAGE_TAGS = '/tags/v2/package/available'

/**
 * An unused tag: its kind is the list METRC gave it in (METRC's documented rows leave TagTypeName
 * null, and a plant tag and a package tag may share an Id), its identity the tag itself.
 */
function tagDoc(t: Record<string, unknown>, o: { path?: string }): Record<string, unknown> {
  return { ...t, Type: o.path === PLANT_TAGS ? 'Plant' : o.path === PACKAGE_TAGS ? 'Package' : undefined, _key: `t-${String(t.Label ?? '').replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 60)}` }
}

const SOURCES: TableSource[] = [
  { collection: 'metrc_customer_types', kind: 'reference', paths: ['/sales/v2/customertypes'], license: false, toDoc: named },
  { collection: 'metrc_xfer_states', kind: 'reference', paths: ['/transfers/v2/deliveries/packages/states'], license: false, toDoc: named },
  { collection: 'metrc_units', kind: 'reference', paths: ['/unitsofmeasure/v2/active'], license: false },
  { collection: 'metrc_item_categories', kind: 'reference', paths: ['/items/v2/categories'], license: true },
  { collection: 'metrc_item_brands', kind: 'reference', paths: ['/items/v2/brands'], license: true },
  { collection: 'metrc_lab_states', kind: 'reference', paths: ['/labtests/v2/states'], license: false, toDoc: named },
  { collection: 'metrc_lab_types', kind: 'reference', paths: ['/labtests/v2/types'], license: false },
  { collection: 'metrc_package_types', kind: 'reference', paths: ['/packages/v2/types'], license: false, toDoc: named },
  { collection: 'metrc_package_adjust', kind: 'reference', paths: ['/packages/v2/adjust/reasons'], license: true },
  { collection: 'metrc_additive_types', kind: 'reference', paths: ['/plants/v2/additives/types'], license: false, toDoc: named },
  { collection: 'metrc_plant_growth', kind: 'reference', paths: ['/plants/v2/growthphases'], license: true, plants: true, toDoc: named },
  { collection: 'metrc_plant_batch_types', kind: 'reference', paths: ['/plantbatches/v2/types'], license: false },
  { collection: 'metrc_location_types', kind: 'reference', paths: ['/locations/v2/types'], license: true },
  { collection: 'metrc_harvest_waste_types', kind: 'reference', paths: ['/harvests/v2/waste/types'], license: false },
  { collection: 'metrc_waste_reasons', kind: 'reference', paths: ['/plants/v2/waste/reasons'], license: true },
  { collection: 'metrc_waste_methods', kind: 'reference', paths: ['/plants/v2/waste/methods/all'], license: false },
  { collection: 'metrc_transfer_types', kind: 'reference', paths: ['/transfers/v2/types'], license: true },
  {
    collection: 'metrc_license',
    kind: 'reference',
    paths: ['/facilities/v2'],
    license: false,
    toDoc: (f, o) => {
      const l = (f.License ?? {}) as Record<string, unknown>
      const t = (f.FacilityType ?? {}) as Record<string, unknown>
      return { _only: l.Number === o.license ? 'yes' : 'no', Number: l.Number, LicenseType: l.LicenseType, State: o.state, FacilityName: f.Name, StartDate: l.StartDate, EndDate: l.EndDate, IsMedical: t.IsMedical, IsRetail: t.IsRetail, CanGrowPlants: t.CanGrowPlants, CanTransferFromExternalFacilities: t.CanTransferFromExternalFacilities }
    },
  },
  {
    collection: 'metrc_employees',
    kind: 'data',
    paths: ['/employees/v2'],
    license: true,
    // METRC's employees have no Id: the employee's own license number is their identity
    toDoc: (e) => {
      const l = (e.License ?? {}) as Record<string, unknown>
      return { ...e, License: undefined, LicenseNumber: l.Number, LicenseType: l.LicenseType, LicenseStartDate: l.StartDate, LicenseEndDate: l.EndDate, _key: `e-${slug(String(l.EmployeeLicenseNumber ?? l.Number ?? e.FullName ?? ''))}` }
    },
  },
  {
    collection: 'metrc_facilities',
    kind: 'data',
    paths: ['/facilities/v2'],
    license: false,
    toDoc: (f) => {
      const l = (f.License ?? {}) as Record<string, unknown>
      const t = (f.FacilityType ?? {}) as Record<string, unknown>
      return { Name: f.Name, DisplayName: f.DisplayName, LicenseNumber: l.Number, LicenseType: l.LicenseType, LicenseStartDate: l.StartDate, LicenseEndDate: l.EndDate, CredentialedDate: f.CredentialedDate, IsOwner: f.IsOwner, IsManager: f.IsManager, IsMedical: t.IsMedical, IsRetail: t.IsRetail, CanGrowPlants: t.CanGrowPlants, CanTestPackages: t.CanTestPackages, CanTransferFromExternalFacilities: t.CanTransferFromExternalFacilities }
    },
  },
  // finished harvests are METRC's inactive list; on hold ones its own
  { collection: 'metrc_harvests', kind: 'data', paths: ['/harvests/v2/active', '/harvests/v2/onhold', '/harvests/v2/inactive'], license: true, modified: true, plants: true },
  // METRC's patients have PatientId, no Id
  { collection: 'metrc_patients', kind: 'data', paths: ['/patients/v2/active'], license: true, toDoc: (p) => ({ ...p, _key: `pt${String(p.PatientId ?? '')}` }) },
  { collection: 'metrc_plant_batches', kind: 'data', paths: ['/plantbatches/v2/active', '/plantbatches/v2/inactive'], license: true, modified: true, plants: true },
  // every list METRC keeps plants in: a plant on hold or a mother plant is in none of the others
  { collection: 'metrc_plants', kind: 'data', paths: ['/plants/v2/vegetative', '/plants/v2/flowering', '/plants/v2/onhold', '/plants/v2/inactive', '/plants/v2/mother', '/plants/v2/mother/onhold', '/plants/v2/mother/inactive'], license: true, modified: true, plants: true },
  // archived rooms, strains and items are METRC's inactive lists (read whole: they take no lastModified)
  { collection: 'metrc_rooms', kind: 'data', paths: ['/locations/v2/active', '/locations/v2/inactive'], license: true, modified: true },
  { collection: 'metrc_strains', kind: 'data', paths: ['/strains/v2/active', '/strains/v2/inactive'], license: true, modified: true },
  { collection: 'metrc_items', kind: 'data', paths: ['/items/v2/active', '/items/v2/inactive'], license: true, modified: true },
  // METRC nests the package's item: its name, category and strain are kept as the table's columns
  { collection: 'metrc_packages', kind: 'data', paths: ['/packages/v2/active', '/packages/v2/onhold', '/packages/v2/inactive'], license: true, modified: true, toDoc: packageDoc },
  // the tags on hand (METRC's unused tags): read whole every time, so a tag used since is gone; plant tags only where plants grow
  { collection: 'metrc_tags', kind: 'data', paths: [PLANT_TAGS, PACKAGE_TAGS], license: true, plantPaths: [PLANT_TAGS], toDoc: tagDoc },
  // METRC's waste list takes no lastModified (read whole) and its rows have no Id: PlantWasteNumber
  { collection: 'metrc_wmix', kind: 'data', paths: ['/plants/v2/waste'], license: true, plants: true, toDoc: wasteDoc },
  // after Packages: its rows are read per package (one row per test type of a result)
  {
    collection: 'metrc_lab_tests',
    kind: 'data',
    paths: ['/labtests/v2/results'],
    license: true,
    perPackage: true,
    toDoc: (r) => ({ ...r, _key: `r${String(r.LabTestResultId ?? '')}-${slug(String(r.TestTypeName ?? ''))}` }),
  },
]

export const SYNC_TABLES: ReadonlyMap<string, TableSource> = new Map(SOURCES.map((s) => [s.collection, s]))

function slug(s: string) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'x'
}

/** Ids the sync gives the documents it mirrors (a record made in Canopy never has one of these). */
export const SYNCED_ID = '^(m[0-9]+|n-.+|lic-.+|r[0-9]*-.+|w[0-9]+|e-.+|pt[0-9]+)$'

/** A field's type in the table's schema (check, number, date, text, list...). */
export type FieldTypes = ReadonlyMap<string, string>

/** METRC's "no date" (0001-01-01, with or without a time): kept as an empty field. */
const NO_DATE = /^0001-01-01(T|$)/

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/

/** the instant a calendar day starts in a time zone, remembered (10,000 plants share a few hundred days) */
const DAY_STARTS = new Map<string, string>()
function dayStart(day: string, y: number, mo: number, d: number, timeZone: string): string {
  const key = `${timeZone}|${day}`
  let at = DAY_STARTS.get(key)
  if (at === undefined) {
    if (DAY_STARTS.size > 50_000) DAY_STARTS.clear()
    DAY_STARTS.set(key, (at = new Date(wallToInstant(utcWall(y, mo, d), timeZone)).toISOString()))
  }
  return at
}

/**
 * One value as the field's type stores it: check fields 'yes'/'no', numbers as numbers, text as
 * text. METRC's date-only values ("2026-11-13": PackagedDate, PlantedDate…) are calendar days of
 * the facility: stored as that day's start in its time zone, not as midnight UTC (which a Pacific
 * facility would see as the evening before).
 */
function fieldValue(v: unknown, type: string | undefined, timeZone?: string): unknown {
  if (typeof v === 'string' && NO_DATE.test(v)) return undefined
  const d = type === 'date' && typeof v === 'string' && timeZone ? DATE_ONLY.exec(v) : null
  if (d) return dayStart(v as string, +d[1], +d[2], +d[3], timeZone!)
  if (typeof v === 'boolean') return v ? 'yes' : 'no'
  if (type === 'check' && typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true' ? 'yes' : 'no'
  if (type === 'number' && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v)
  if ((type === 'text' || type === 'list' || type === 'textarea') && typeof v === 'number') return String(v)
  return v
}

/**
 * A METRC row as the document Canopy keeps: a stable _id, METRC's fields as the table's schema
 * types them (`types`; booleans become 'yes'/'no' whatever the field), METRC's "0001-01-01" left
 * empty, nested lists joined, METRC's Id as MetrcId (and as Id where the schema shows it).
 */
export function documentOf(src: TableSource, row: unknown, o: { license: string; state: string; timeZone?: string; path?: string }, types: FieldTypes = new Map()): Record<string, unknown> & { _id: string } {
  const raw = src.toDoc ? src.toDoc(row as Record<string, unknown>, o) : (row as Record<string, unknown>)
  const doc: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined || v === null || k === '_only' || k === '_key' || (k === 'Id' && !types.has('Id'))) continue
    const x = typeof v === 'object' ? (Array.isArray(v) ? v.join(', ') : undefined) : fieldValue(v, types.get(k), o.timeZone)
    if (x !== undefined) doc[k] = x
  }
  const metrcId = (row as { Id?: unknown })?.Id
  const key =
    typeof raw._key === 'string'
      ? raw._key
      : typeof metrcId === 'number'
        ? `m${metrcId}`
        : src.collection === 'metrc_license' || src.collection === 'metrc_facilities'
          ? `lic-${slug(String(doc.Number ?? doc.LicenseNumber))}`
          : `n-${slug(String(doc.Name ?? doc.Label ?? JSON.stringify(doc)))}`
  if (typeof metrcId === 'number') doc.MetrcId = metrcId
  return { _id: key, ...doc }
}
