/**
 * Demo records of the METRC group: reference lists of metrc-api.md §4 for every facility, and the
 * data a facility would sync from METRC (cultivation: plants, batches, harvests...; distribution:
 * received packages and items). Lobby facilities get nothing.
 */
import type { SeedCtx, SeedDoc, SeedRecords } from '../kit'
import {
  CULT_ROOMS, DIST_ROOMS, LOCATION_TYPES, ago, brandRecords, categoryRecords, doc, itemCatalog, itemRecords,
  labTestRecords, licenseLike, packageRecords, plus, roomRecords, strainRecords, touched, yn,
} from './metrc-2'
import { harvestRecords, plantRecords, wmixRecords } from './metrc-3'

/** states whose METRC has patient endpoints (metrc-api.md §2.11), plus CA by request */
const PATIENT_STATES = ['CA', 'CO', 'LA', 'MA', 'MO', 'MT', 'NV', 'OK', 'WV']
/** medical-only programmes among the supported states */
const MEDICAL_ONLY = ['LA', 'OK', 'WV']

type Named = [string, string]
const named = (ctx: SeedCtx, collection: string, rows: Named[]): SeedDoc[] =>
  rows.map(([Name, Description], i) => doc(ctx, collection, i, { Name, Description }))

function referenceRecords(ctx: SeedCtx): SeedRecords {
  const flags = (collection: string, rows: [string, boolean, boolean, boolean, boolean][]) =>
    rows.map(([Name, note, weight, immature, mature], i) =>
      doc(ctx, collection, i, {
        Name, RequiresNote: yn(note), RequiresWasteWeight: yn(weight), RequiresImmatureWasteWeight: yn(immature), RequiresMatureWasteWeight: yn(mature),
      }),
    )
  return {
    metrc_customer_types: named(ctx, 'metrc_customer_types', [
      ['Consumer', 'Adult-use customer, 21 or older.'],
      ['Patient', 'Registered medical patient buying for themself.'],
      ['Caregiver', 'Registered caregiver buying on behalf of a patient.'],
      ['ExternalPatient', 'Patient registered outside the state system (e.g. a physician recommendation).'],
      ['NonResidentConsumer', 'Adult-use customer who is not a state resident.'],
    ]),
    metrc_xfer_states: named(ctx, 'metrc_xfer_states', [
      ['Shipped', 'Package is on a manifest in transit to the recipient.'],
      ['Rejected', 'Recipient refused the package; it returns to the shipper.'],
      ['Accepted', 'Recipient received the package into inventory.'],
      ['Returned', 'Rejected package received back by the shipper.'],
    ]),
    metrc_units: [
      ['Each', 'ea', 'CountBased', 'units'], ['Ounces', 'oz', 'WeightBased', 'oz'], ['Pounds', 'lb', 'WeightBased', 'lb'],
      ['Grams', 'g', 'WeightBased', 'g'], ['Milligrams', 'mg', 'WeightBased', 'g (x 0.001)'], ['Kilograms', 'kg', 'WeightBased', 'kg'],
    ].map(([Name, Abbreviation, QuantityType, ConsoleUnit], i) => doc(ctx, 'metrc_units', i, { Name, Abbreviation, QuantityType, ConsoleUnit })),
    metrc_item_categories: categoryRecords(ctx),
    metrc_item_brands: brandRecords(ctx),
    metrc_lab_states: named(ctx, 'metrc_lab_states', [
      ['NotSubmitted', 'No sample has been sent to a lab yet.'],
      ['SubmittedForTesting', 'A sample is on its way to the lab.'],
      ['TestFailed', 'At least one required test failed; the package cannot be sold.'],
      ['TestPassed', 'All required tests passed.'],
      ['TestingInProgress', 'The lab has the sample and is testing it.'],
      ['AwaitingConfirmation', 'Results recorded, waiting for release by the lab.'],
      ['RetestFailed', 'The retest after a failure also failed.'],
      ['RetestPassed', 'The retest after a failure passed.'],
      ['Remediated', 'Product was remediated after a failure and must be retested.'],
      ['SelectedForRandomTesting', 'The state selected this package for a random test.'],
      ['NotRequired', 'Testing is not required for this item category (e.g. plants).'],
      ['ProcessValidated', 'Covered by a validated process; no per-batch test needed.'],
      ['Decontaminated', 'Product was decontaminated after a failure.'],
      ['RandDCompleted', 'Research and development testing completed.'],
    ]),
    metrc_lab_types: [
      // [Name, informational, min, max, dependency]
      ['THC', true, 0, 100, 'None'], ['THCa', true, 0, 100, 'None'], ['CBD', true, 0, 100, 'None'], ['CBDa', true, 0, 100, 'None'],
      ['Pesticides', false, 0, 0.1, 'RequiresOne'], ['Microbiologicals', false, 0, 0, 'None'],
    ].map(([Name, info, min, max, dep], i) =>
      doc(ctx, 'metrc_lab_types', i, {
        Id: 101 + i, Name, RequiresTestResult: 'yes', InformationalOnly: yn(info as boolean), ResearchAndDevelopment: 'no', AlwaysPasses: yn(info as boolean),
        MaxAllowedFailureCount: info ? 0 : 1, LabTestResultMinimum: min, LabTestResultMaximum: max, LabTestResultExpirationDays: 365, DependencyMode: dep,
      }),
    ),
    metrc_package_types: named(ctx, 'metrc_package_types', [
      ['Product', 'Finished or bulk cannabis goods.'],
      ['ImmaturePlant', 'Clones or seedlings packaged from a plant batch.'],
      ['VegetativePlant', 'Tagged vegetative plants packaged for transfer.'],
      ['PlantWaste', 'Waste from plants or plant batches.'],
      ['HarvestWaste', 'Waste removed from a harvest batch.'],
      ['MotherPlant', 'A mother plant packaged for transfer.'],
    ]),
    metrc_package_adjust: flags('metrc_package_adjust', [
      ['Drying', false, false, false, false],
      ['Entry Error', false, false, false, false],
      ['Scale Variance', false, false, false, false],
      ['API Related Error', true, false, false, false],
      ['Mandatory State Destruction', true, false, false, false],
      ['Theft', true, false, false, false],
      ['Typing/Entry Error', true, false, false, false],
    ]),
    metrc_additive_types: named(ctx, 'metrc_additive_types', [
      ['Fertilizer', 'Nutrients applied to plants or batches.'],
      ['Pesticide', 'Registered pesticide application (EPA number, REI).'],
      ['Other', 'Any other additive, e.g. growth regulator or amendment.'],
    ]),
    metrc_plant_growth: named(ctx, 'metrc_plant_growth', [
      ['Vegetative', 'Tagged plant growing under long days, before flowering.'],
      ['Flowering', 'Plant moved to flowering; the only phase that can be harvested.'],
    ]),
    metrc_plant_batch_types: [['Seed', 'yes'], ['Clone', 'no']].map(([Name, CanBeCloned], i) =>
      doc(ctx, 'metrc_plant_batch_types', i, { Id: i + 1, Name, CanBeCloned, LastModified: ago(ctx, 720 + i) }),
    ),
    metrc_location_types: LOCATION_TYPES.map((t, i) =>
      doc(ctx, 'metrc_location_types', i, {
        Id: t.Id, Name: t.Name, ForPlantBatches: yn(t.ForPlantBatches), ForPlants: yn(t.ForPlants), ForHarvests: yn(t.ForHarvests), ForPackages: yn(t.ForPackages),
      }),
    ),
    metrc_harvest_waste_types: named(ctx, 'metrc_harvest_waste_types', [
      ['Plant Material', 'Leaves, stems and other plant matter removed from a harvest.'],
      ['Fibrous', 'Stalks and other fibrous material.'],
      ['Root Ball', 'Roots and growing medium.'],
    ]),
    metrc_waste_reasons: flags('metrc_waste_reasons', [
      ['Contamination', false, true, false, true],
      ['Male Plants', false, false, false, false],
      ['Disease/Infestation', true, true, false, false],
      ['Mother Plant Destruction', true, true, false, false],
      ['Trimming/Pruning', false, true, false, false],
    ]),
    metrc_waste_methods: [['Grinder', true, false], ['Compost', true, false], ['Incinerator', false, true]].map(([Name, plants, product], i) =>
      doc(ctx, 'metrc_waste_methods', i, { Name, ForPlants: yn(plants as boolean), ForProductDestruction: yn(product as boolean), LastModified: ago(ctx, 400 + i * 31) }),
    ),
    metrc_transfer_types: (
      [
        ['Transfer', 'Standard', [1, 0, 0, 0, 0, 0, 0]],
        ['Wholesale', 'Wholesale', [1, 0, 0, 0, 1, 1, 0]],
        ['Affiliated Transfer', 'Standard', [1, 0, 0, 0, 0, 0, 1]],
        ['Beginning Inventory Transfer', 'Standard', [0, 1, 0, 0, 0, 0, 1]],
        ['Lab Sample Transfer', 'Standard', [1, 0, 0, 0, 0, 0, 0]],
        ['Unaffiliated (Wholesale) Transfer', 'Wholesale', [1, 0, 0, 1, 1, 1, 0]],
        ['Waste Disposal', 'Standard', [0, 0, 1, 1, 0, 0, 0]],
      ] as [string, string, number[]][]
    ).map(([Name, TransactionType, f], i) =>
      doc(ctx, 'metrc_transfer_types', i, {
        Name, TransactionType,
        ForLicensedShipments: yn(!!f[0]), ForExternalIncomingShipments: yn(!!f[1]), ForExternalOutgoingShipments: yn(!!f[2]),
        RequiresDestinationGrossWeight: yn(!!f[3]), RequiresPackagesGrossWeight: yn(!!f[3]),
        RequiresInvoiceNumber: yn(!!f[4] || !!f[5]), BypassApproval: yn(!!f[6]),
      }),
    ),
  }
}

function licenseType(state: string, kind: 'cultivation' | 'distribution'): string {
  const prefix = MEDICAL_ONLY.includes(state) ? 'Medical' : 'Adult-Use'
  return kind === 'cultivation' ? `${prefix} Cultivation` : `${prefix} Distribution`
}

function facilityFlags(kind: 'cultivation' | 'distribution', state: string) {
  const medical = PATIENT_STATES.includes(state) || MEDICAL_ONLY.includes(state)
  return {
    IsMedical: yn(medical),
    IsRetail: yn(!MEDICAL_ONLY.includes(state)),
    CanGrowPlants: yn(kind === 'cultivation'),
    CanTestPackages: 'no',
    CanTransferFromExternalFacilities: yn(kind === 'distribution'),
  }
}

function licenseAndFacilities(ctx: SeedCtx, kind: 'cultivation' | 'distribution'): SeedRecords {
  const { state, license, fullName } = ctx.facility
  const start = ago(ctx, ctx.rng.int(120, 330))
  const end = new Date(Date.parse(start) + 365 * 86_400_000).toISOString()
  const { CanTestPackages: _notOnLicense, ...licFlags } = facilityFlags(kind, state)
  const lic = doc(ctx, 'metrc_license', 0, {
    Number: license, LicenseType: licenseType(state, kind), State: state, FacilityName: fullName, StartDate: start, EndDate: end, ...licFlags,
  })
  const siblings: [string, string, 'cultivation' | 'distribution'][] =
    kind === 'cultivation'
      ? [[`${fullName} Distribution`, licenseLike(state, 'distribution', 7), 'distribution'], [`${fullName} Nursery`, licenseLike(state, 'cultivation', 11), 'cultivation']]
      : [[`${fullName} Cultivation`, licenseLike(state, 'cultivation', 3), 'cultivation']]
  const all: [string, string, 'cultivation' | 'distribution'][] = [[fullName, license, kind], ...siblings]
  const facilities = all.map(([name, number, k], i) => {
    const s = i === 0 ? start : ago(ctx, ctx.rng.int(60, 330))
    return doc(ctx, 'metrc_facilities', i, {
      Name: name.toUpperCase(),
      DisplayName: name,
      LicenseNumber: number,
      LicenseType: licenseType(state, k),
      LicenseStartDate: s,
      LicenseEndDate: new Date(Date.parse(s) + 365 * 86_400_000).toISOString(),
      CredentialedDate: plus(ctx, s, -ctx.rng.int(20, 90)),
      IsOwner: yn(i !== 2),
      IsManager: 'yes',
      ...facilityFlags(k, state),
      LastModified: ctx.rng.pastDate(60, 1),
    })
  })
  return { metrc_license: [lic], metrc_facilities: facilities }
}

const FIRST = ['Maria', 'James', 'Sofia', 'Daniel', 'Aisha', 'Kevin', 'Lauren', 'Marcus', 'Priya', 'Tyler', 'Elena', 'Andre', 'Hannah', 'Luis', 'Grace', 'Devon', 'Nina', 'Owen']
const LAST = ['Alvarez', 'Chen', 'Okafor', 'Nguyen', 'Patel', 'Brooks', 'Ramirez', 'Sullivan', 'Kim', 'Foster', 'Delgado', 'Moore', 'Hughes', 'Tran', 'Bennett', 'Castillo', 'Reyes', 'Ward']
const CULT_JOBS = ['Director of Cultivation', 'Compliance Manager', 'Head Grower', 'Cultivation Technician', 'Cultivation Technician', 'IPM Specialist', 'Trimmer', 'Trimmer', 'Inventory Specialist', 'Cultivation Technician', 'Post-Harvest Lead', 'Trimmer', 'Security Officer', 'Cultivation Technician', 'Packaging Associate']
const DIST_JOBS = ['Distribution Manager', 'Compliance Manager', 'Inventory Specialist', 'Driver', 'Driver', 'Warehouse Associate', 'Quality Assurance Lead', 'Warehouse Associate']

function employeeRecords(ctx: SeedCtx, kind: 'cultivation' | 'distribution'): SeedDoc[] {
  const jobs = kind === 'cultivation' ? CULT_JOBS : DIST_JOBS
  const ca = ctx.facility.state === 'CA'
  return jobs.map((job, i) => {
    const key = i < 2
    const hire = ctx.rng.pastDate(1400, 20)
    // licenses renew yearly; the last renewal is within the past year
    const lStart = ago(ctx, ctx.rng.int(5, 360))
    return doc(ctx, 'metrc_employees', i, {
      FullName: `${FIRST[(i * 7) % FIRST.length]} ${LAST[(i * 5 + (kind === 'cultivation' ? 0 : 3)) % LAST.length]}`,
      LicenseNumber: ca ? `EMP-${ctx.rng.int(10_000, 99_999)}` : `${key ? 'K' : 'S'}-${ctx.rng.int(10_000, 99_999)}`,
      LicenseType: ca ? 'Employee' : key ? 'Key Employee' : 'Support Employee',
      LicenseStartDate: lStart,
      LicenseEndDate: new Date(Date.parse(lStart) + 365 * 86_400_000).toISOString(),
      HireDate: hire,
      Occupations: job,
      IsManager: yn(key || job.includes('Lead') || job.startsWith('Head')),
      IsOwner: yn(i === 0),
      LastModified: touched(ctx, ago(ctx, ctx.rng.int(2, 90)), 1),
    })
  })
}

function patientRecords(ctx: SeedCtx): SeedDoc[] {
  const { state } = ctx.facility
  const alnum = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
  return Array.from({ length: 10 }, (_, i) => {
    const reg = ago(ctx, ctx.rng.int(20, 340))
    const number =
      state === 'CA'
        ? Array.from({ length: 7 }, () => ctx.rng.pick(alnum.split(''))).join('')
        : `${state}P-${ctx.rng.int(100_000, 999_999)}`
    return doc(ctx, 'metrc_patients', i, {
      PatientId: 9101 + i,
      LicenseNumber: number,
      RegistrationDate: reg,
      LicenseEffectiveStartDate: reg,
      LicenseEffectiveEndDate: new Date(Date.parse(reg) + 365 * 86_400_000).toISOString(),
      RecommendedPlants: state === 'CA' ? ctx.rng.pick([6, 6, 12, 24]) : ctx.rng.pick([6, 12, 24, 99]),
      RecommendedSmokableQuantity: ctx.rng.pick([2, 2, 4, 8]),
      HasSalesLimitExemption: yn(i % 5 === 4),
      OtherFacilitiesCount: ctx.rng.int(0, 2),
      LastModified: touched(ctx, reg, 30),
    })
  })
}

type Pref = [string, string, string, boolean, boolean, string, string]
const CULT_PREFS: Pref[] = [
  ['Create Plantings', 'Cultivation', 'POST /plantbatches/v2/plantings', true, false, 'manager', 'New clone or seed batch from the Plantings screen.'],
  ['Change Growth Phase', 'Cultivation', 'POST /plantbatches/v2/growthphase', true, false, 'manager', 'Tag plants out of a batch into Vegetative.'],
  ['Flip to Flowering', 'Cultivation', 'PUT /plants/v2/growthphase', true, false, 'manager', 'Move tagged plants from Vegetative to Flowering.'],
  ['Move Plants', 'Cultivation', 'PUT /plants/v2/location', true, false, 'manager', 'Room changes recorded on the Plants screen.'],
  ['Harvest Plants', 'Cultivation', 'PUT /plants/v2/harvest', false, true, 'manager', 'Wet weights from the scale; reviewed before push.'],
  ['Record Plant Waste', 'Compliance', 'POST /plants/v2/waste', false, true, 'compliance', 'Waste mix records need a witness sign-off.'],
  ['Destroy Plants', 'Compliance', 'DELETE /plants/v2', false, true, 'compliance', 'Mark as dead: method, mix material and weight required.'],
  ['Create Packages from Harvest', 'Cultivation', 'POST /harvests/v2/packages', false, true, 'manager', 'New package tags from processed harvest weight.'],
  ['Adjust Package', 'Compliance', 'POST /packages/v2/adjust', false, true, 'compliance', 'Signed quantity change with an adjustment reason.'],
  ['Finish Package', 'Cultivation', 'PUT /packages/v2/finish', true, false, 'manager', 'Close out packages whose quantity reached zero.'],
]
const DIST_PREFS: Pref[] = [
  ['Receive Incoming Transfer', 'Distribution', 'POST /transfers/v2/external/incoming', false, true, 'manager', 'Accept or reject packages on an incoming manifest.'],
  ['Create Packages', 'Distribution', 'POST /packages/v2', false, true, 'manager', 'Repackaging and labeling of received bulk goods.'],
  ['Create Testing Package', 'Compliance', 'POST /packages/v2/testing', true, false, 'compliance', 'Lab sample pulled from a batch for testing.'],
  ['Change Package Location', 'Distribution', 'PUT /packages/v2/location', true, false, 'manager', 'Vault and dock moves from the Inventory screen.'],
  ['Adjust Package', 'Compliance', 'POST /packages/v2/adjust', false, true, 'compliance', 'Signed quantity change with an adjustment reason.'],
  ['Update Package Note', 'Distribution', 'PUT /packages/v2/note', true, false, 'manager', 'Notes typed on the Packages screen.'],
  ['Finish Package', 'Distribution', 'PUT /packages/v2/finish', true, false, 'manager', 'Close out packages whose quantity reached zero.'],
  ['Create Item', 'Compliance', 'POST /items/v2', false, true, 'admin', 'New item names need state approval before use.'],
]

function prefRecords(ctx: SeedCtx, kind: 'cultivation' | 'distribution'): SeedDoc[] {
  return (kind === 'cultivation' ? CULT_PREFS : DIST_PREFS).map(([Action, Module, Endpoint, auto, approval, ApproverRole, Description], i) =>
    doc(ctx, 'metrc_prefs', i, {
      Action, Module, Endpoint, AutoPush: yn(auto), NeedsApproval: yn(approval), ApproverRole, Description,
      LastModified: ctx.rng.pastDate(120, 3),
      // destructive actions stay configured: not deletable by non-super users
      ...(Action.startsWith('Destroy') || Action.startsWith('Adjust') ? { delete: 'no' } : {}),
    }),
  )
}

/**
 * The tags on hand, as the sync stores METRC's unused tags (app/metrc/sync/tables.ts: keyed by the
 * tag, its kind from the list it came in): a grower has plant and package tags, a distributor
 * package tags only. Greenleaf's package tags run low (under the Compliance dashboard's 50).
 */
function tagRecords(ctx: SeedCtx, kind: 'cultivation' | 'distribution'): SeedDoc[] {
  const counts = kind === 'cultivation' ? { plant: 180, package: 42 } : { plant: 0, package: 75 }
  return (['plant', 'package'] as const).flatMap((k, n) =>
    Array.from({ length: counts[k] }, (_, i) => {
      const Label = ctx.tag(k, 700_001 + i)
      const Type = k === 'plant' ? 'Plant' : 'Package'
      return { _id: `t-${Label}`, Label, Type, Id: 5_000_001 + n * 1_000_000 + i, TagTypeName: Type, TagInventoryTypeName: `Medical${Type}`, MaxGroupSize: k === 'plant' ? 100 : 1, FacilityId: 1 }
    }),
  )
}

export function seedRecords(ctx: SeedCtx): SeedRecords {
  const kind = ctx.facility.kind
  if (kind === 'lobby') return {}
  const out: SeedRecords = {
    ...referenceRecords(ctx),
    ...licenseAndFacilities(ctx, kind),
    metrc_employees: employeeRecords(ctx, kind),
    metrc_strains: strainRecords(ctx),
    metrc_prefs: prefRecords(ctx, kind),
    metrc_tags: tagRecords(ctx, kind),
  }
  const items = itemCatalog(kind)
  out.metrc_items = itemRecords(ctx, items)
  if (kind === 'distribution') {
    out.metrc_rooms = roomRecords(ctx, DIST_ROOMS)
    const pk = packageRecords(ctx, items, 80, [], DIST_ROOMS.map(([n]) => n))
    out.metrc_packages = pk.docs
    out.metrc_lab_tests = labTestRecords(ctx, pk.rows, 14)
    return out
  }
  out.metrc_rooms = roomRecords(ctx, CULT_ROOMS)
  const harvests = harvestRecords(ctx)
  out.metrc_harvests = harvests.docs
  const pk = packageRecords(ctx, items, 120, harvests.list, [])
  out.metrc_packages = pk.docs
  out.metrc_lab_tests = labTestRecords(ctx, pk.rows, 20)
  const seeds = pk.rows.filter((r) => r.item.kind === 'seed').map((r): [string, string] => [r.Label, r.item.Strain ?? ''])
  const plants = plantRecords(ctx, seeds)
  out.metrc_plant_batches = plants.batches
  out.metrc_plants = plants.plants
  out.metrc_wmix = wmixRecords(ctx, plants.info)
  if (PATIENT_STATES.includes(ctx.facility.state)) out.metrc_patients = patientRecords(ctx)
  return out
}
