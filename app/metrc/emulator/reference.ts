/**
 * METRC's reference lists as the emulator answers them (reference §4), the same for every license:
 * units, package and batch types, lab states and types, waste reasons and methods, categories,
 * brands, transfer types and states, customer and additive types.
 */
/** Reference lists (reference §4), the same for every license. */
export const REF = {
  unitsOfMeasure: [
    { QuantityType: 'CountBased', Name: 'Each', Abbreviation: 'ea' },
    { QuantityType: 'WeightBased', Name: 'Ounces', Abbreviation: 'oz' },
    { QuantityType: 'WeightBased', Name: 'Pounds', Abbreviation: 'lb' },
    { QuantityType: 'WeightBased', Name: 'Grams', Abbreviation: 'g' },
    { QuantityType: 'WeightBased', Name: 'Milligrams', Abbreviation: 'mg' },
    { QuantityType: 'WeightBased', Name: 'Kilograms', Abbreviation: 'kg' },
    // METRC's own item example measures a unit volume in Milliliters
    { QuantityType: 'VolumeBased', Name: 'Milliliters', Abbreviation: 'ml' },
    { QuantityType: 'VolumeBased', Name: 'Liters', Abbreviation: 'l' },
  ],
  packageTypes: ['Product', 'ImmaturePlant', 'VegetativePlant', 'PlantWaste', 'HarvestWaste', 'MotherPlant'],
  labStates: ['NotSubmitted', 'SubmittedForTesting', 'TestFailed', 'TestPassed', 'TestingInProgress', 'AwaitingConfirmation', 'RetestFailed', 'RetestPassed', 'Remediated', 'SelectedForRandomTesting', 'NotRequired', 'ProcessValidated', 'Decontaminated', 'RandDCompleted'],
  // METRC's example gives the result and dependency modes as numbers (0)
  labTypes: ['THC', 'THCa', 'CBD', 'CBDa', 'Pesticides', 'Microbiologicals'].map((Name, i) => ({ Id: i + 1, Name, RequiresTestResult: true, InformationalOnly: false, AlwaysPasses: false, LabTestResultMode: 0, DependencyMode: 0 })),
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
    { Name: 'Plant not growing', RequiresNote: false, RequiresWasteWeight: false, RequiresImmatureWasteWeight: false, RequiresMatureWasteWeight: false },
    { Name: 'Trim', RequiresNote: false, RequiresWasteWeight: true, RequiresImmatureWasteWeight: false, RequiresMatureWasteWeight: false },
  ],
  wasteMethods: [
    { Name: 'Grinder', ForPlants: true, ForProductDestruction: false },
    { Name: 'Compost', ForPlants: true, ForProductDestruction: false },
    { Name: 'Clipping', ForPlants: true, ForProductDestruction: false },
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
    // METRC's own documented categories: Infused needs a unit THC content and weight, Infused Liquid a volume
    { Name: 'Infused', ProductCategoryType: 'InfusedEdible', QuantityType: 'CountBased', RequiresStrain: false, RequiresUnitThcContent: true, RequiresUnitWeight: true },
    { Name: 'Infused Liquid', ProductCategoryType: 'InfusedEdible', QuantityType: 'CountBased', RequiresStrain: false, RequiresUnitThcContent: true, RequiresUnitVolume: true },
    { Name: 'Vape Cartridge (volume - each)', ProductCategoryType: 'Concentrate', QuantityType: 'CountBased', RequiresStrain: true, RequiresUnitVolume: true, RequiresUnitThcContent: true },
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

