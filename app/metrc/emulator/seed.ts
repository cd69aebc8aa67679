/**
 * The emulator's demo world, deterministic from a seed (issue 9): one vendor key, user keys, a
 * cultivation license (plants allowed), a dispensary and a distributor (no plants); per license
 * tags, strains, locations, items, batches, plants, harvests, packages, transfers.
 */
import { ALL_PERMISSIONS } from '../reference'
import { DEMO_USER_KEY, DEMO_VENDOR_KEY, GROW_LICENSE, HARBOR_LICENSE, NO_EMPLOYEES_USER_KEY, SHOP_LICENSE, EXPIRED_USER_KEY, tagOf, type EmulatorState, emptyFacility } from './model'
import { REF } from './reference'
import { FACILITIES as DEMO_FACILITIES } from '../../seed/core'
import { makeCtx, mulberry32 as rnd } from '../../seed/kit'
import { ROOMS as DEMO_ROOMS, STRAINS as DEMO_STRAINS } from '../../seed/records/business'
import { disInvTag } from '../../seed/records/operations-2'

export interface SeedOptions {
  /** plants and packages at the cultivation license (the bench asks for 10,000 and 5,000) */
  plants?: number
  packages?: number
  seed?: number
  /** time the seeded records were last modified, spread over the days before it */
  now?: Date
}

export function seedState(o: SeedOptions = {}): EmulatorState {
  const r = rnd(o.seed ?? 42)
  const now = (o.now ?? new Date()).getTime()
  const s: EmulatorState = {
    vendorKeys: [DEMO_VENDOR_KEY],
    users: [
      { key: DEMO_USER_KEY, name: 'Demo Compliance', licenses: [GROW_LICENSE, SHOP_LICENSE] },
      { key: 'canopy-demo-user-key-harbor', name: 'Harbor Manager', licenses: [HARBOR_LICENSE] },
      { key: EXPIRED_USER_KEY, name: 'Former Employee', licenses: [GROW_LICENSE], expired: true },
      // a grower's own key: every permission but the employee list's (METRC answers 401 there only)
      { key: NO_EMPLOYEES_USER_KEY, name: 'Grow Tech', licenses: [GROW_LICENSE], permissions: ALL_PERMISSIONS.filter((p) => !/Employees/.test(p)) },
    ],
    licenses: [
      { Number: GROW_LICENSE, Name: 'Greenleaf Cultivation', LicenseType: 'Medical Cultivation', CanGrowPlants: true, State: 'CA' },
      // a medical dispensary where METRC keeps patients (California's METRC has none)
      { Number: SHOP_LICENSE, Name: 'Greenleaf Dispensary', LicenseType: 'Medical Dispensary', CanGrowPlants: false, State: 'CO' },
      { Number: HARBOR_LICENSE, Name: 'Harbor Distribution', LicenseType: 'Distributor', CanGrowPlants: false, State: 'CO' },
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
      f.harvests = [1, 2].map((n) => ({ Id: id(), Name: `${ago(40).slice(0, 10)}-Flower Room ${n}-H`, HarvestType: 'WholePlant', DryingLocationId: f.locations[n - 1].Id, DryingLocationName: f.locations[n - 1].Name, HarvestStartDate: ago(40).slice(0, 10), PlantCount: 20 + n, TotalWetWeight: 9000 + n * 750, CurrentWeight: 9000 + n * 750, TotalWasteWeight: 0, PackageCount: 0, TotalPackagedWeight: 0, UnitOfWeightName: 'Grams', IsOnHold: false, FinishedDate: null, LastModified: ago(30) }))
    for (let i = 0; i < packagesWanted; i++) {
      const item = f.items[(i * 2) % f.items.length]
      const qty = Math.round((100 + r() * 900) * 100) / 100
      f.packages.push({ Id: id(), Label: take('package'), PackageType: 'Product', ItemId: item.Id, ItemName: item.Name, ItemCategoryName: item.ProductCategoryName, ItemStrainName: item.StrainName, Quantity: qty, OriginalPackageQuantity: qty, UnitOfMeasureName: 'Grams', UnitOfMeasureAbbreviation: 'g', LocationId: f.locations[3].Id, LocationName: 'Vault', PackagedDate: ago(60).slice(0, 10), LabTestingState: 'TestPassed', IsOnHold: false, IsFinished: false, FinishedDate: null, ArchivedDate: null, Note: '', LastModified: ago(20) })
    }
    f.labResults = f.packages.slice(0, 5).map((p) => ({ Id: id(), PackageId: p.Id, PackageLabel: p.Label, LabTestTypeName: 'THC', TestPassed: true, TestResultLevel: 21.4, OverallPassed: true, TestPerformedDate: ago(30).slice(0, 10), LastModified: ago(30) }))
  }
  // transfers: the cultivation license ships to the dispensary; each side sees its half
  const grow = s.facilities[GROW_LICENSE]
  const shopName = s.licenses.find((l) => l.Number === SHOP_LICENSE)!.Name
  const growName = s.licenses.find((l) => l.Number === GROW_LICENSE)!.Name
  for (let n = 1; n <= 3; n++) {
    const when = ago(10)
    const p = grow.packages[n - 1]
    const t = { Id: id(), DeliveryId: id(), ManifestNumber: String(9_000_000 + n), ShipperFacilityLicenseNumber: GROW_LICENSE, ShipperFacilityName: growName, RecipientFacilityLicenseNumber: SHOP_LICENSE, RecipientFacilityName: shopName, ShipmentTypeName: REF.transferTypes[0].Name, ShipmentTransactionType: 'Wholesale', DriverName: 'Casey Driver', VehicleMake: 'Ford', VehicleModel: 'Transit', PackageCount: 1, ReceivedPackageCount: n === 3 ? 0 : 1, IsVoided: false, CreatedDateTime: when, EstimatedDepartureDateTime: when, EstimatedArrivalDateTime: when, ReceivedDateTime: n === 3 ? null : when, Packages: p ? [{ PackageId: p.Id, PackageLabel: p.Label, ItemName: p.ItemName, ShipmentPackageState: n === 3 ? 'Shipped' : 'Accepted', ShippedQuantity: p.Quantity, ShippedUnitOfMeasureName: p.UnitOfMeasureName }] : [], LastModified: when }
    grow.transfers.push({ ...t, Direction: 'outgoing' })
    s.facilities[SHOP_LICENSE].transfers.push({ ...t, Direction: 'incoming' })
  }
  // the Canopy demo's cultivation rooms and first strains exist at the cultivation license too, so the
  // demo's plantings and moves name locations and strains METRC knows (added last: ids above stay put)
  const growF = s.facilities[GROW_LICENSE]
  for (const [Name, type] of DEMO_ROOMS.cultivation) {
    if (growF.locations.some((l) => l.Name === Name)) continue
    const packing = /Dry|Trim|Vault/.test(Name)
    growF.locations.push({ Id: id(), Name, LocationTypeId: packing ? 3 : 2, LocationTypeName: packing ? 'Packing' : 'Planting', ForPlantBatches: !packing, ForPlants: !packing, ForHarvests: type === 'Drying', ForPackages: packing, LastModified: ago(60) })
  }
  for (const [Name, , thc, cbd, genetics] of DEMO_STRAINS.slice(0, 6)) {
    if (growF.strains.some((st) => st.Name === Name)) continue
    growF.strains.push({ Id: id(), Name, TestingStatus: 'ThirdParty', ThcLevel: thc / 100, CbdLevel: cbd / 100, IndicaPercentage: 50, SativaPercentage: 50, Genetics: genetics, IsUsed: false, LastModified: ago(90) })
  }
  // METRC's other lists have something in them too (added last: the values above stay put): a plant
  // put on hold, a mother plant, a package on hold, a finished harvest
  const tracked = growF.plants.filter((p) => p.State === 'Tracked')
  if (tracked.length >= 3) {
    Object.assign(tracked[tracked.length - 1], { IsOnHold: true })
    Object.assign(tracked[tracked.length - 2], { GrowthPhase: 'Mother', MotherPlantDate: String(tracked[tracked.length - 2].PlantedDate), FloweringDate: null })
  }
  if (growF.packages.length >= 2) growF.packages[growF.packages.length - 1].IsOnHold = true
  if (growF.harvests.length) {
    const loc = growF.locations[0]
    const day = ago(80).slice(0, 10)
    growF.harvests.push({ Id: id(), Name: `${day}-${String(loc.Name)}-H`, HarvestType: 'WholePlant', DryingLocationId: loc.Id, DryingLocationName: loc.Name, HarvestStartDate: day, PlantCount: 12, TotalWetWeight: 5400, CurrentWeight: 0, TotalWasteWeight: 400, PackageCount: 5, TotalPackagedWeight: 5000, UnitOfWeightName: 'Grams', IsOnHold: false, FinishedDate: ago(60).slice(0, 10), ArchivedDate: null, LastModified: ago(60) })
  }
  // the Canopy demo's distribution stock (dis_inventory of harbor, linked to the distributor's license)
  // exists in METRC too, so the demo's shipped orders are templates and receipts METRC takes (added
  // last: ids above stay put); METRC counts them in Each, with room for every order the demo makes
  const harborDemo = DEMO_FACILITIES.find((x) => x.org === 'harbor')
  const harborF = s.facilities[HARBOR_LICENSE]
  if (harborDemo && harborF?.packages.length) {
    const ctx = makeCtx(harborDemo, new Date(now))
    const [like] = harborF.packages
    for (let i = 0; i < 60; i++) {
      const Label = disInvTag(ctx, i)
      if (harborF.packages.some((p) => p.Label === Label)) continue
      harborF.packages.push({ ...like, Id: id(), Label, Quantity: 1000, OriginalPackageQuantity: 1000, UnitOfMeasureName: 'Each', UnitOfMeasureAbbreviation: 'ea', IsOnHold: false, IsFinished: false, LastModified: ago(20) })
    }
  }
  return s
}
