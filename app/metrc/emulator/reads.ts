/**
 * The GET endpoints behind every Metrc table of SPEC §2.3 (reference §2.15): which need a
 * `licenseNumber`, which are paged v2 wrappers and which bare arrays, which take lastModified
 * windows, and which are plant work a license without plants may not do.
 */
import type { EmulatorState, FacilityData, License, Row } from './model'
import { REF } from './model'

export interface ListDef {
  license: 'required' | 'optional' | 'none'
  shape: 'paged' | 'bare'
  modified?: boolean
  plants?: boolean
  rows: (s: EmulatorState, f: FacilityData | null, lic: License | null, user: { licenses: string[] }) => unknown[]
}

const active = (rows: Row[]) => rows
const facilityRow = (l: License) => ({
  HireDate: '0001-01-01',
  IsOwner: false,
  IsManager: true,
  Occupations: [],
  Name: l.Name,
  Alias: l.Name,
  DisplayName: l.Name,
  CredentialedDate: '2024-01-01',
  License: { Number: l.Number, StartDate: '2024-01-01', EndDate: '2027-12-31', LicenseType: l.LicenseType },
  FacilityType: { IsMedical: true, IsRetail: !l.CanGrowPlants, IsHemp: false, CanGrowPlants: l.CanGrowPlants, CanTagPlantBatches: l.CanGrowPlants, CanTrackVegetativePlants: l.CanGrowPlants, CanCreateOpeningBalancePackages: true, CanSellToPatients: !l.CanGrowPlants },
})

export const LISTS: Record<string, ListDef> = {
  '/facilities/v2': { license: 'none', shape: 'bare', rows: (s, _f, _l, u) => s.licenses.filter((l) => u.licenses.includes(l.Number)).map(facilityRow) },
  '/employees/v2': { license: 'required', shape: 'paged', rows: (_s, f) => f!.employees },
  '/locations/v2/active': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => active(f!.locations) },
  '/locations/v2/types': { license: 'required', shape: 'paged', rows: () => REF.locationTypes },
  '/strains/v2/active': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.strains },
  '/items/v2/active': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.items },
  '/items/v2/categories': { license: 'optional', shape: 'paged', rows: () => REF.itemCategories },
  '/items/v2/brands': { license: 'required', shape: 'paged', rows: () => REF.itemBrands },
  '/unitsofmeasure/v2/active': { license: 'none', shape: 'bare', rows: () => REF.unitsOfMeasure },
  '/packages/v2/active': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.packages.filter((p) => !p.IsFinished && !p.IsOnHold) },
  '/packages/v2/onhold': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.packages.filter((p) => !p.IsFinished && p.IsOnHold) },
  '/packages/v2/inactive': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.packages.filter((p) => p.IsFinished) },
  '/packages/v2/types': { license: 'none', shape: 'bare', rows: () => REF.packageTypes },
  '/packages/v2/adjust/reasons': { license: 'required', shape: 'paged', rows: () => REF.adjustReasons },
  '/plantbatches/v2/active': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.plantBatches.filter((b) => Number(b.UntrackedCount) > 0 || Number(b.TrackedCount) > 0) },
  '/plantbatches/v2/inactive': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.plantBatches.filter((b) => Number(b.UntrackedCount) === 0 && Number(b.TrackedCount) === 0) },
  '/plantbatches/v2/types': { license: 'none', shape: 'paged', rows: () => REF.plantBatchTypes.map((t) => ({ ...t, LastModified: '2024-01-01T00:00:00+00:00' })) },
  '/plants/v2/vegetative': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.plants.filter((p) => p.State === 'Tracked' && p.GrowthPhase === 'Vegetative') },
  '/plants/v2/flowering': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.plants.filter((p) => p.State === 'Tracked' && p.GrowthPhase === 'Flowering') },
  '/plants/v2/inactive': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.plants.filter((p) => p.State !== 'Tracked') },
  '/plants/v2/growthphases': { license: 'required', shape: 'bare', plants: true, rows: () => REF.growthPhases },
  '/plants/v2/waste/methods/all': { license: 'none', shape: 'paged', rows: () => REF.wasteMethods },
  '/plants/v2/waste/reasons': { license: 'required', shape: 'paged', rows: () => REF.wasteReasons },
  '/plants/v2/waste': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.plantWaste },
  '/plants/v2/additives/types': { license: 'none', shape: 'bare', rows: () => REF.additiveTypes },
  '/harvests/v2/active': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.harvests },
  '/harvests/v2/waste/types': { license: 'none', shape: 'paged', rows: () => REF.harvestWasteTypes },
  '/labtests/v2/states': { license: 'none', shape: 'bare', rows: () => REF.labStates },
  '/labtests/v2/types': { license: 'none', shape: 'paged', rows: () => REF.labTypes },
  '/labtests/v2/results': { license: 'required', shape: 'paged', rows: (_s, f) => f!.labResults },
  '/patients/v2/active': { license: 'required', shape: 'paged', rows: (_s, f) => f!.patients },
  '/transfers/v2/types': { license: 'required', shape: 'paged', rows: () => REF.transferTypes },
  '/transfers/v2/deliveries/packages/states': { license: 'none', shape: 'bare', rows: () => REF.transferPackageStates },
  '/sales/v2/customertypes': { license: 'none', shape: 'bare', rows: () => REF.customerTypes },
  '/tags/v2/plant/available': { license: 'required', shape: 'bare', plants: true, rows: (_s, f) => f!.tags.plant.map((Label, i) => ({ Id: i + 1, Label, TagTypeName: 'Plant', TagInventoryTypeName: 'Plant', StatusName: 'Received' })) },
  '/tags/v2/package/available': { license: 'required', shape: 'bare', rows: (_s, f) => f!.tags.package.map((Label, i) => ({ Id: i + 1, Label, TagTypeName: 'Package', TagInventoryTypeName: 'Package', StatusName: 'Received' })) },
}

/** By-id (or by-label) GETs: `/packages/v2/{id|label}` and friends; a record outside the license is 401. */
export const BY_ID: Record<string, { plants?: boolean; rows: (f: FacilityData) => Row[] }> = {
  packages: { rows: (f) => f.packages },
  plants: { plants: true, rows: (f) => f.plants },
  plantbatches: { plants: true, rows: (f) => f.plantBatches },
  items: { rows: (f) => f.items },
  strains: { rows: (f) => f.strains },
  locations: { rows: (f) => f.locations },
  harvests: { plants: true, rows: (f) => f.harvests },
}
