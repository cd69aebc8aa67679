/**
 * Records as METRC sends them (issue 21): every row the emulator answers is built on the shape of
 * METRC's own documented example for that endpoint (app/metrc/reference, from METRC's *.bru
 * docs): the same fields in the same nesting — a package's `Item` and `ProductLabel` objects, no
 * `Id` where METRC has none (plant waste, employees, patients, categories) — with the emulator's
 * values where it keeps them and METRC's empty values (false, [], null) elsewhere. What the
 * emulator stores beside them for its own work (a package's ItemId, a waste's internal Id) stays
 * out. tests/integration/metrc-contract.test.ts compares every answer with the examples.
 */
import { EXAMPLES } from '../reference/generated'
import type { FacilityData, Row } from './model'

type Obj = Record<string, unknown>

/** METRC's example row with its values emptied: false, [], nested objects likewise, else null. */
function blank(example: unknown): unknown {
  if (Array.isArray(example)) return []
  if (example && typeof example === 'object') return Object.fromEntries(Object.entries(example as Obj).map(([k, v]) => [k, blank(v)]))
  if (typeof example === 'boolean') return false
  return null
}

const rowOf = (endpoint: string) => {
  const row = EXAMPLES[endpoint]?.row
  if (!row) throw new Error(`no METRC example for ${endpoint}`)
  return row
}

/** The shape of METRC's row for `endpoint`, filled from `values` (only METRC's own fields). */
function shaped(template: Obj, values: Obj): Obj {
  const out: Obj = {}
  for (const [k, empty] of Object.entries(template)) {
    const v = values[k]
    if (empty && typeof empty === 'object' && !Array.isArray(empty)) out[k] = shaped(empty as Obj, v && typeof v === 'object' ? (v as Obj) : {})
    else out[k] = v === undefined ? empty : v
  }
  return out
}

const TEMPLATES = {
  package: blank(rowOf('GET /packages/v2/active')) as Obj,
  plant: blank(rowOf('GET /plants/v2/vegetative')) as Obj,
  plantWaste: blank(rowOf('GET /plants/v2/waste')) as Obj,
  employee: blank(rowOf('GET /employees/v2')) as Obj,
  patient: blank(rowOf('GET /patients/v2/active')) as Obj,
  category: blank(rowOf('GET /items/v2/categories')) as Obj,
  labType: blank(rowOf('GET /labtests/v2/types')) as Obj,
  // plant and package tags share one documented row (Tags_GetAvailablePlant/Package.bru)
  tag: blank(rowOf('GET /tags/v2/plant/available')) as Obj,
}
/** METRC's item, as nested in a package (GetActivePackages) and as listed by /items/v2/active */
const ITEM = TEMPLATES.package.Item as Obj

export function itemWire(item: Obj | undefined): Obj {
  return shaped(ITEM, item ?? {})
}

/**
 * Inside a package METRC sends the item's enumerations as numbers (its GetActivePackages example:
 * `"QuantityType": 0`, `"ApprovalStatus": 0`), where the item list sends their names: the order of
 * METRC's own value lists stands for the number.
 */
const ENUMS: Record<string, string[]> = {
  ProductCategoryType: ['Buds', 'Plants', 'InfusedEdible', 'Concentrate', 'Other'],
  QuantityType: ['CountBased', 'WeightBased', 'VolumeBased'],
  DefaultLabTestingState: ['NotSubmitted', 'SubmittedForTesting', 'TestFailed', 'TestPassed', 'TestingInProgress', 'AwaitingConfirmation', 'RetestFailed', 'RetestPassed', 'Remediated', 'SelectedForRandomTesting', 'NotRequired'],
  ApprovalStatus: ['Approved', 'Pending', 'Revoked'],
}
const asNumber = (k: string, v: unknown) => (typeof v === 'string' ? Math.max(0, ENUMS[k].indexOf(v)) : typeof v === 'number' ? v : 0)

export function packageWire(f: FacilityData, p: Row): Obj {
  const item = f.items.find((i) => i.Id === p.ItemId) ?? { Name: p.ItemName, ProductCategoryName: p.ItemCategoryName, StrainName: p.ItemStrainName }
  const nested = itemWire(item)
  for (const k of Object.keys(ENUMS)) nested[k] = asNumber(k, nested[k])
  return shaped(TEMPLATES.package, { ...p, Item: nested, ProductLabel: { QrCount: 1, IsActive: true } })
}

export const plantWire = (p: Row) => shaped(TEMPLATES.plant, p)
/** (a waste an older emulator stored under the request's names reads as METRC lists it) */
export const plantWasteWire = (w: Row) =>
  shaped(TEMPLATES.plantWaste, {
    ...w,
    PlantWasteNumber: w.PlantWasteNumber ?? String(w.Id).padStart(10, '0'),
    WasteUnitOfMeasureName: w.WasteUnitOfMeasureName ?? w.UnitOfMeasureName,
    WasteReasonName: w.WasteReasonName ?? w.ReasonName,
    PlantCount: w.PlantCount ?? (Array.isArray(w.PlantLabels) ? w.PlantLabels.length : 0),
  })
export const employeeWire = (e: Row) => shaped(TEMPLATES.employee, e)
export const patientWire = (p: Row) => shaped(TEMPLATES.patient, p)
export const categoryWire = (c: Obj) => shaped(TEMPLATES.category, c)
export const labTypeWire = (t: Obj) => shaped(TEMPLATES.labType, t)
export const tagWire = (t: Obj) => shaped(TEMPLATES.tag, t)
