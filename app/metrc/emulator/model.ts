/**
 * The METRC emulator's state (issue 9): keys, facilities and, per license, the records METRC keeps
 * (reference §3), every record stamped with `LastModified`. Plain JSON, so it persists as one file.
 * `seedState` builds the demo world deterministically: one vendor key, user keys, a cultivation
 * license (plants allowed), a dispensary (no plants), tags, strains, locations, items, plants and
 * packages.
 */
export type Row = Record<string, unknown> & { Id: number; LastModified: string }

export interface License {
  Number: string
  Name: string
  LicenseType: string
  CanGrowPlants: boolean
}

export interface UserKey {
  key: string
  name: string
  licenses: string[]
  /** a key METRC no longer takes (expired, revoked): every call 401 */
  expired?: boolean
}

export interface FacilityData {
  locations: Row[]
  strains: Row[]
  items: Row[]
  packages: Row[]
  plantBatches: Row[]
  plants: Row[]
  harvests: Row[]
  employees: Row[]
  patients: Row[]
  labResults: Row[]
  plantWaste: Row[]
  /** tags not yet used, by kind; a tag leaves its list when used and never comes back */
  tags: { plant: string[]; package: string[] }
  usedTags: string[]
}

export interface EmulatorState {
  vendorKeys: string[]
  users: UserKey[]
  licenses: License[]
  facilities: Record<string, FacilityData>
  nextId: number
}

export const DEMO_VENDOR_KEY = 'canopy-demo-vendor-key-0001'
export const DEMO_USER_KEY = 'canopy-demo-user-key-0001'
export const GROW_LICENSE = '403-X0001'
export const SHOP_LICENSE = '402-X0002'
export const HARBOR_LICENSE = '404-X0003'

/** Reference lists (reference §4), the same for every license. */
export const REF = {
  unitsOfMeasure: [
    { QuantityType: 'CountBased', Name: 'Each', Abbreviation: 'ea' },
    { QuantityType: 'WeightBased', Name: 'Ounces', Abbreviation: 'oz' },
    { QuantityType: 'WeightBased', Name: 'Pounds', Abbreviation: 'lb' },
    { QuantityType: 'WeightBased', Name: 'Grams', Abbreviation: 'g' },
    { QuantityType: 'WeightBased', Name: 'Milligrams', Abbreviation: 'mg' },
    { QuantityType: 'WeightBased', Name: 'Kilograms', Abbreviation: 'kg' },
  ],
  packageTypes: ['Product', 'ImmaturePlant', 'VegetativePlant', 'PlantWaste', 'HarvestWaste', 'MotherPlant'],
  labStates: ['NotSubmitted', 'SubmittedForTesting', 'TestFailed', 'TestPassed', 'TestingInProgress', 'AwaitingConfirmation', 'RetestFailed', 'RetestPassed', 'Remediated', 'SelectedForRandomTesting', 'NotRequired', 'ProcessValidated', 'Decontaminated', 'RandDCompleted'],
  labTypes: ['THC', 'THCa', 'CBD', 'CBDa', 'Pesticides', 'Microbiologicals'].map((Name, i) => ({ Id: i + 1, Name, RequiresTestResult: true, InformationalOnly: false, AlwaysPasses: false, LabTestResultMode: 'Default', DependencyMode: 'RequiresOne' })),
  customerTypes: ['Consumer', 'Patient', 'Caregiver', 'ExternalPatient', 'NonResidentConsumer'],
  transferPackageStates: ['Shipped', 'Rejected', 'Accepted', 'Returned'],
  additiveTypes: ['Fertilizer', 'Pesticide', 'Other'],
  growthPhases: ['Vegetative', 'Flowering'],
  plantBatchTypes: [
    { Id: 1, Name: 'Seed', CanBeCloned: true },
    { Id: 2, Name: 'Clone', CanBeCloned: false },
  ],
  locationTypes: [
    { Id: 1, Name: 'Default', ForPlantBatches: true, ForPlants: true, ForHarvests: true, ForPackages: true },
    { Id: 2, Name: 'Planting', ForPlantBatches: true, ForPlants: true, ForHarvests: false, ForPackages: false },
    { Id: 3, Name: 'Packing', ForPlantBatches: false, ForPlants: false, ForHarvests: false, ForPackages: true },
  ],
  harvestWasteTypes: [{ Name: 'Plant Material' }, { Name: 'Fibrous' }, { Name: 'Root Ball' }],
  wasteReasons: [
    { Name: 'Contamination', RequiresNote: false, RequiresWasteWeight: true, RequiresImmatureWasteWeight: false, RequiresMatureWasteWeight: true },
    { Name: 'Male Plants', RequiresNote: false, RequiresWasteWeight: false, RequiresImmatureWasteWeight: false, RequiresMatureWasteWeight: false },
    { Name: 'Disease/Infestation', RequiresNote: true, RequiresWasteWeight: true, RequiresImmatureWasteWeight: false, RequiresMatureWasteWeight: false },
    { Name: 'Trimming/Pruning', RequiresNote: false, RequiresWasteWeight: true, RequiresImmatureWasteWeight: false, RequiresMatureWasteWeight: false },
  ],
  wasteMethods: [
    { Name: 'Grinder', ForPlants: true, ForProductDestruction: false },
    { Name: 'Compost', ForPlants: true, ForProductDestruction: false },
    { Name: 'Incinerator', ForPlants: false, ForProductDestruction: true },
  ],
  adjustReasons: [
    { Name: 'Drying', RequiresNote: false },
    { Name: 'Entry Error', RequiresNote: false },
    { Name: 'Scale Variance', RequiresNote: false },
    { Name: 'Theft', RequiresNote: true },
  ],
  itemCategories: [
    { Name: 'Buds', ProductCategoryType: 'Buds', QuantityType: 'WeightBased', RequiresStrain: true },
    { Name: 'Shake/Trim', ProductCategoryType: 'Buds', QuantityType: 'WeightBased', RequiresStrain: true },
    { Name: 'Immature Plants', ProductCategoryType: 'Plants', QuantityType: 'CountBased', RequiresStrain: true },
    { Name: 'Infused Edible', ProductCategoryType: 'InfusedEdible', QuantityType: 'CountBased', RequiresStrain: false },
  ],
  itemBrands: [
    { Id: 1, Name: 'Greenleaf Select', Status: 'Paid' },
    { Id: 2, Name: 'Harbor House', Status: 'Paid' },
  ],
  transferTypes: [
    { Id: 1, Name: 'Wholesale', ForLicensedShipments: true, ForExternalIncomingShipments: false, ForExternalOutgoingShipments: false, RequiresDestinationGrossWeight: false, RequiresPackagesGrossWeight: false },
    { Id: 2, Name: 'Transfer', ForLicensedShipments: true, ForExternalIncomingShipments: true, ForExternalOutgoingShipments: true, RequiresDestinationGrossWeight: false, RequiresPackagesGrossWeight: false },
  ],
}

/** A 24-character tag: 1A4 + 12 characters of facility and kind + a 9-digit serial. */
export const tagOf = (license: string, kind: 'plant' | 'package', n: number) => `1A4${license.replace(/[^0-9A-Z]/gi, '').toUpperCase().padEnd(7, '0').slice(0, 7)}${kind === 'plant' ? 'C' : 'B'}0000${String(n).padStart(9, '0')}`

function rnd(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface SeedOptions {
  /** plants and packages at the cultivation license (the bench asks for 10,000 and 5,000) */
  plants?: number
  packages?: number
  seed?: number
  /** time the seeded records were last modified, spread over the days before it */
  now?: Date
}

export function emptyFacility(): FacilityData {
  return { locations: [], strains: [], items: [], packages: [], plantBatches: [], plants: [], harvests: [], employees: [], patients: [], labResults: [], plantWaste: [], tags: { plant: [], package: [] }, usedTags: [] }
}

export function seedState(o: SeedOptions = {}): EmulatorState {
  const r = rnd(o.seed ?? 42)
  const now = (o.now ?? new Date()).getTime()
  const s: EmulatorState = {
    vendorKeys: [DEMO_VENDOR_KEY],
    users: [
      { key: DEMO_USER_KEY, name: 'Demo Compliance', licenses: [GROW_LICENSE, SHOP_LICENSE] },
      { key: 'canopy-demo-user-key-harbor', name: 'Harbor Manager', licenses: [HARBOR_LICENSE] },
    ],
    licenses: [
      { Number: GROW_LICENSE, Name: 'Greenleaf Cultivation', LicenseType: 'Medical Cultivation', CanGrowPlants: true },
      { Number: SHOP_LICENSE, Name: 'Greenleaf Dispensary', LicenseType: 'Medical Dispensary', CanGrowPlants: false },
      { Number: HARBOR_LICENSE, Name: 'Harbor Distribution', LicenseType: 'Distributor', CanGrowPlants: false },
    ],
    facilities: {},
    nextId: 1000,
  }
  const id = () => s.nextId++
  const ago = (maxDays: number) => new Date(now - Math.floor(r() * maxDays * 86_400_000) - 60_000).toISOString()
  for (const lic of s.licenses) {
    const f = emptyFacility()
    s.facilities[lic.Number] = f
    const plantsWanted = lic.CanGrowPlants ? (o.plants ?? 120) : 0
    const packagesWanted = lic.CanGrowPlants ? (o.packages ?? 60) : lic.Number === SHOP_LICENSE ? 20 : 10
    for (let i = 1; i <= plantsWanted + 200; i++) f.tags.plant.push(tagOf(lic.Number, 'plant', i))
    for (let i = 1; i <= packagesWanted + 200; i++) f.tags.package.push(tagOf(lic.Number, 'package', i))
    const take = (kind: 'plant' | 'package') => {
      const t = f.tags[kind].shift()!
      f.usedTags.push(t)
      return t
    }
    f.locations = ['Flower Room 1', 'Flower Room 2', 'Veg Room', 'Vault'].map((Name, i) => ({ Id: id(), Name, LocationTypeId: i < 3 ? 2 : 3, LocationTypeName: i < 3 ? 'Planting' : 'Packing', ForPlantBatches: i < 3, ForPlants: i < 3, ForHarvests: false, ForPackages: i === 3, LastModified: ago(60) }))
    f.strains = ['Blue Dream', 'OG Kush', 'Sour Diesel', 'Granddaddy Purple'].map((Name) => {
      const ind = Math.round(r() * 100)
      return { Id: id(), Name, TestingStatus: 'ThirdParty', ThcLevel: Math.round((0.15 + r() * 0.12) * 10_000) / 10_000, CbdLevel: 0.001, IndicaPercentage: ind, SativaPercentage: 100 - ind, Genetics: `${ind}% Indica / ${100 - ind}% Sativa`, IsUsed: true, LastModified: ago(90) }
    })
    f.items = f.strains.flatMap((st) => [
      { Id: id(), Name: `${st.Name} Buds`, ProductCategoryName: 'Buds', ProductCategoryType: 'Buds', QuantityType: 'WeightBased', UnitOfMeasureName: 'Grams', DefaultLabTestingState: 'NotSubmitted', ApprovalStatus: 'Approved', StrainId: st.Id, StrainName: st.Name, ItemBrandId: 1, ItemBrandName: 'Greenleaf Select', IsUsed: true, LastModified: ago(60) },
      { Id: id(), Name: `${st.Name} Clone`, ProductCategoryName: 'Immature Plants', ProductCategoryType: 'Plants', QuantityType: 'CountBased', UnitOfMeasureName: 'Each', DefaultLabTestingState: 'NotRequired', ApprovalStatus: 'Approved', StrainId: st.Id, StrainName: st.Name, ItemBrandId: 1, ItemBrandName: 'Greenleaf Select', IsUsed: true, LastModified: ago(60) },
    ])
    f.employees = ['Alex Rivera', 'Sam Chen', 'Jordan Lee'].map((FullName) => ({ Id: id(), FullName, License: { Number: `EMP-${Math.floor(r() * 90000 + 10000)}`, StartDate: '2024-01-01', EndDate: '2027-12-31', LicenseType: 'Employee' }, LastModified: ago(120) }))
    f.patients = lic.Number === SHOP_LICENSE ? [1, 2, 3].map((n) => ({ Id: id(), PatientId: id(), LicenseNumber: `PT-${1000 + n}`, RegistrationDate: '2025-03-01', LicenseEffectiveStartDate: '2025-03-01', LicenseEffectiveEndDate: '2026-12-31', RecommendedPlants: 6, RecommendedSmokableQuantity: 56, FlowerOuncesAllowed: 2, ThcOuncesAllowed: 0, ConcentrateOuncesAllowed: 0, InfusedOuncesAllowed: 0, MaxFlowerThcPercentAllowed: 0, HasSalesLimitExemption: false, OtherFacilitiesCount: 0, LastModified: ago(100) })) : []
    if (lic.CanGrowPlants) {
      const batches = Math.max(1, Math.ceil(plantsWanted / 100))
      for (let b = 0; b < batches; b++) {
        const st = f.strains[b % f.strains.length]
        f.plantBatches.push({ Id: id(), Name: `PB-${lic.Number}-${String(b + 1).padStart(4, '0')}`, PlantBatchTypeId: 2, PlantBatchTypeName: 'Clone', LocationId: f.locations[2].Id, LocationName: 'Veg Room', StrainId: st.Id, StrainName: st.Name, UntrackedCount: 20, TrackedCount: 0, PackagedCount: 0, DestroyedCount: 0, PlantedDate: ago(90).slice(0, 10), IsOnHold: false, LastModified: ago(30) })
      }
      for (let i = 0; i < plantsWanted; i++) {
        const b = f.plantBatches[Math.floor(i / 100)]
        b.TrackedCount = Number(b.TrackedCount) + 1
        const flowering = r() < 0.5
        const loc = f.locations[flowering ? (i % 2) : 2]
        f.plants.push({ Id: id(), Label: take('plant'), State: 'Tracked', GrowthPhase: flowering ? 'Flowering' : 'Vegetative', PlantBatchId: b.Id, PlantBatchName: b.Name, PlantBatchTypeId: 2, PlantBatchTypeName: 'Clone', StrainId: b.StrainId, StrainName: b.StrainName, LocationId: loc.Id, LocationName: loc.Name, PlantedDate: String(b.PlantedDate), VegetativeDate: String(b.PlantedDate), FloweringDate: flowering ? ago(30).slice(0, 10) : null, HarvestCount: 0, IsOnHold: false, LastModified: ago(20) })
      }
    }
    if (lic.CanGrowPlants)
      f.harvests = [1, 2].map((n) => ({ Id: id(), Name: `${ago(40).slice(0, 10)}-Flower Room ${n}-H`, HarvestType: 'WholePlant', DryingLocationId: f.locations[n - 1].Id, DryingLocationName: f.locations[n - 1].Name, HarvestStartDate: ago(40).slice(0, 10), PlantCount: 20 + n, TotalWetWeight: 9000 + n * 750, UnitOfWeightName: 'Grams', LastModified: ago(30) }))
    for (let i = 0; i < packagesWanted; i++) {
      const item = f.items[(i * 2) % f.items.length]
      const qty = Math.round((100 + r() * 900) * 100) / 100
      f.packages.push({ Id: id(), Label: take('package'), PackageType: 'Product', ItemId: item.Id, ItemName: item.Name, ItemCategoryName: item.ProductCategoryName, ItemStrainName: item.StrainName, Quantity: qty, OriginalPackageQuantity: qty, UnitOfMeasureName: 'Grams', UnitOfMeasureAbbreviation: 'g', LocationId: f.locations[3].Id, LocationName: 'Vault', PackagedDate: ago(60).slice(0, 10), LabTestingState: 'TestPassed', IsOnHold: false, IsFinished: false, FinishedDate: null, ArchivedDate: null, Note: '', LastModified: ago(20) })
    }
    f.labResults = f.packages.slice(0, 5).map((p) => ({ Id: id(), PackageId: p.Id, PackageLabel: p.Label, LabTestTypeName: 'THC', TestPassed: true, TestResultLevel: 21.4, OverallPassed: true, TestPerformedDate: ago(30).slice(0, 10), LastModified: ago(30) }))
  }
  return s
}
