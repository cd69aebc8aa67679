/**
 * METRC group, part 2: the facility's synced inventory (strains, locations, brands, items,
 * packages, lab results). Plants, batches, harvests and waste are in metrc-3.ts.
 * Values follow metrc-api.md §3/§4; everything is derived from ctx so it is deterministic.
 */
import type { SeedCtx, SeedDoc } from '../kit'

export const DAY = 86_400_000

/** ISO timestamp `days` days before ctx.now (fractional days allowed) */
export const ago = (ctx: SeedCtx, days: number) => new Date(ctx.now.getTime() - days * DAY).toISOString()
/** iso + days, never after ctx.now */
export const plus = (ctx: SeedCtx, iso: string, days: number) =>
  new Date(Math.min(Date.parse(iso) + days * DAY, ctx.now.getTime())).toISOString()
export const daysBefore = (ctx: SeedCtx, iso: string) => (ctx.now.getTime() - Date.parse(iso)) / DAY
export const yn = (b: boolean) => (b ? 'yes' : 'no')
/** a LastModified somewhere between `iso` and now (bounded by maxDays after iso) */
export const touched = (ctx: SeedCtx, iso: string, maxDays = 10) => plus(ctx, iso, ctx.rng.float(0.05, maxDays, 3))

/** a record with the stable id; undefined fields are left out */
export function doc(ctx: SeedCtx, collection: string, i: number, fields: Record<string, unknown>): SeedDoc {
  const d: SeedDoc = { _id: ctx.id(collection, i) }
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) d[k] = v
  return d
}

/** weighted pick: [[value, weight], ...] */
export function weighted<T>(ctx: SeedCtx, options: [T, number][]): T {
  const total = options.reduce((s, [, w]) => s + w, 0)
  let r = ctx.rng.next() * total
  for (const [v, w] of options) {
    if ((r -= w) < 0) return v
  }
  return options[options.length - 1][0]
}

// ---- strains: the 12 strains of set_strains (name, indica %, THC fraction, CBD fraction) ----------
export const STRAINS: { name: string; indica: number; thc: number; cbd: number }[] = [
  { name: 'Blue Dream', indica: 40, thc: 0.2112, cbd: 0.0011 },
  { name: 'OG Kush', indica: 75, thc: 0.2324, cbd: 0.0008 },
  { name: 'Girl Scout Cookies', indica: 60, thc: 0.2471, cbd: 0.0009 },
  { name: 'Sour Diesel', indica: 10, thc: 0.2215, cbd: 0.0012 },
  { name: 'Gorilla Glue #4', indica: 60, thc: 0.2683, cbd: 0.0007 },
  { name: 'Wedding Cake', indica: 60, thc: 0.2538, cbd: 0.001 },
  { name: 'Gelato', indica: 55, thc: 0.2406, cbd: 0.0009 },
  { name: 'Granddaddy Purple', indica: 80, thc: 0.2027, cbd: 0.0014 },
  { name: 'Jack Herer', indica: 35, thc: 0.1893, cbd: 0.0021 },
  { name: 'Pineapple Express', indica: 40, thc: 0.2105, cbd: 0.0013 },
  { name: 'Northern Lights', indica: 90, thc: 0.1811, cbd: 0.0018 },
  { name: 'Zkittlez', indica: 70, thc: 0.1946, cbd: 0.0011 },
]
export const strainThc = (name?: string) => STRAINS.find((s) => s.name === name)?.thc ?? 0.2

export const BRANDS = ['Golden Hour', 'Coastal Cure', 'High Sierra Reserve', 'Sunday Goods', 'Pacific Kind', 'Field Notes', 'Nightjar', 'Low Tide']

export const CULT_ROOMS: [string, string][] = [
  ['Mother Room', 'Planting'], ['Clone Room', 'Planting'], ['Veg Room 1', 'Planting'], ['Veg Room 2', 'Planting'],
  ['Flower Room 1', 'Planting'], ['Flower Room 2', 'Planting'], ['Flower Room 3', 'Planting'], ['Flower Room 4', 'Planting'],
  ['Dry Room', 'Default'], ['Vault', 'Packing'],
]
export const DIST_ROOMS: [string, string][] = [
  ['Receiving', 'Default'], ['Quarantine', 'Default'], ['Vault A', 'Packing'], ['Vault B', 'Packing'],
  ['Packaging Room', 'Packing'], ['Shipping Dock', 'Packing'],
]
export const LOCATION_TYPES = [
  { Id: 1, Name: 'Default', ForPlantBatches: true, ForPlants: true, ForHarvests: true, ForPackages: true },
  { Id: 2, Name: 'Planting', ForPlantBatches: true, ForPlants: true, ForHarvests: false, ForPackages: false },
  { Id: 3, Name: 'Packing', ForPlantBatches: false, ForPlants: false, ForHarvests: false, ForPackages: true },
]

// ---- item categories (metrc_item_categories) ---------------------------------------------------
export interface CategoryDef {
  Name: string
  ProductCategoryType: string
  QuantityType: 'CountBased' | 'WeightBased'
  strain: boolean
  brand: boolean
  thcPct: boolean
  thcMg: boolean
  weight: boolean
  volume: boolean
}
const cat = (Name: string, ProductCategoryType: string, QuantityType: CategoryDef['QuantityType'], flags: string): CategoryDef => ({
  Name, ProductCategoryType, QuantityType,
  strain: flags.includes('s'), brand: flags.includes('b'), thcPct: flags.includes('p'), thcMg: flags.includes('m'),
  weight: flags.includes('w'), volume: flags.includes('v'),
})
export const CATEGORIES: CategoryDef[] = [
  cat('Buds', 'Buds', 'WeightBased', 's'),
  cat('Buds (Packaged - each)', 'Buds', 'CountBased', 'sbpw'),
  cat('Shake/Trim', 'ShakeTrim', 'WeightBased', 's'),
  cat('Immature Plants', 'Plants', 'CountBased', 's'),
  cat('Seeds', 'Plants', 'CountBased', 's'),
  cat('Pre-Roll Flower', 'Buds', 'CountBased', 'sbpw'),
  cat('Pre-Roll Infused', 'Concentrate', 'CountBased', 'bpw'),
  cat('Vape Cartridges', 'Concentrate', 'CountBased', 'bpw'),
  cat('Concentrate (Bulk)', 'Concentrate', 'WeightBased', 'p'),
  cat('Edibles (Count-Weight)', 'InfusedEdible', 'CountBased', 'bmw'),
  cat('Infused', 'InfusedEdible', 'CountBased', 'bm'),
  cat('Infused Liquid', 'InfusedEdible', 'CountBased', 'bmv'),
  cat('Topicals', 'InfusedNonEdible', 'CountBased', 'bm'),
]
const catOf = (name: string) => CATEGORIES.find((c) => c.Name === name) as CategoryDef

// ---- items ---------------------------------------------------------------------------------------
export type ItemKind = 'bulk' | 'trim' | 'clone' | 'seed' | 'preroll' | 'eighth' | 'infpre' | 'cart' | 'edible' | 'conc' | 'liquid' | 'topical'
export interface ItemDef {
  kind: ItemKind
  Name: string
  Category: string
  Uom: string
  Strain?: string
  Brand?: string
  ThcPct?: number
  ThcMg?: number
  UnitWeight?: number
}

export function itemCatalog(kind: 'cultivation' | 'distribution'): ItemDef[] {
  const out: ItemDef[] = []
  const s = (i: number) => STRAINS[i].name
  const pct = (i: number) => Math.round(STRAINS[i].thc * 1000) / 10
  if (kind === 'cultivation') {
    for (let i = 0; i < 12; i++) out.push({ kind: 'bulk', Name: `${s(i)} - Flower (Bulk)`, Category: 'Buds', Uom: 'Grams', Strain: s(i) })
    for (const i of [0, 2, 4, 6]) out.push({ kind: 'trim', Name: `${s(i)} - Trim (Bulk)`, Category: 'Shake/Trim', Uom: 'Pounds', Strain: s(i) })
    for (let i = 0; i < 6; i++) out.push({ kind: 'clone', Name: `${s(i)} - Clone`, Category: 'Immature Plants', Uom: 'Each', Strain: s(i) })
    for (const i of [10, 11]) out.push({ kind: 'seed', Name: `${s(i)} - Feminized Seeds`, Category: 'Seeds', Uom: 'Each', Strain: s(i) })
    for (const i of [0, 3, 5, 9]) {
      out.push({ kind: 'preroll', Name: `Golden Hour ${s(i)} Pre-Roll 1g`, Category: 'Pre-Roll Flower', Uom: 'Each', Strain: s(i), Brand: 'Golden Hour', ThcPct: pct(i), UnitWeight: 1 })
    }
    for (const i of [2, 6]) {
      out.push({ kind: 'eighth', Name: `High Sierra Reserve ${s(i)} 3.5g`, Category: 'Buds (Packaged - each)', Uom: 'Each', Strain: s(i), Brand: 'High Sierra Reserve', ThcPct: pct(i), UnitWeight: 3.5 })
    }
    return out
  }
  const brandFor = (i: number) => BRANDS[i % BRANDS.length]
  for (let i = 0; i < 8; i++) {
    out.push({ kind: 'eighth', Name: `${brandFor(i)} ${s(i)} 3.5g`, Category: 'Buds (Packaged - each)', Uom: 'Each', Strain: s(i), Brand: brandFor(i), ThcPct: pct(i), UnitWeight: 3.5 })
  }
  for (const i of [8, 9, 10, 11]) {
    out.push({ kind: 'preroll', Name: `${brandFor(i)} ${s(i)} Pre-Roll 5pk (2.5g)`, Category: 'Pre-Roll Flower', Uom: 'Each', Strain: s(i), Brand: brandFor(i), ThcPct: pct(i), UnitWeight: 2.5 })
  }
  out.push({ kind: 'infpre', Name: 'Nightjar Gelato Infused Pre-Roll 1g', Category: 'Pre-Roll Infused', Uom: 'Each', Brand: 'Nightjar', ThcPct: 38.5, UnitWeight: 1 })
  out.push({ kind: 'infpre', Name: 'Nightjar Wedding Cake Diamond Pre-Roll 1g', Category: 'Pre-Roll Infused', Uom: 'Each', Brand: 'Nightjar', ThcPct: 41.2, UnitWeight: 1 })
  const carts = ['Blue Dream', 'Sour Diesel', 'Jack Herer', 'Granddaddy Purple', 'Pineapple Express', 'Zkittlez']
  carts.forEach((c, i) => {
    const full = i % 2 === 0
    out.push({ kind: 'cart', Name: `Low Tide ${c} Live Resin Cart ${full ? '1g' : '0.5g'}`, Category: 'Vape Cartridges', Uom: 'Each', Brand: 'Low Tide', ThcPct: 82 + i * 1.5, UnitWeight: full ? 1 : 0.5 })
  })
  const edibles = ['Watermelon Gummies', 'Sour Peach Gummies', 'Dark Chocolate Bar', 'Blackberry Chews']
  edibles.forEach((e) => out.push({ kind: 'edible', Name: `Sunday Goods ${e} 100mg (10pk)`, Category: 'Edibles (Count-Weight)', Uom: 'Each', Brand: 'Sunday Goods', ThcMg: 100, UnitWeight: e.includes('Bar') ? 40 : 30 }))
  out.push({ kind: 'conc', Name: 'Gelato Live Resin (Bulk)', Category: 'Concentrate (Bulk)', Uom: 'Grams', ThcPct: 76.4 })
  out.push({ kind: 'conc', Name: 'OG Kush Distillate (Bulk)', Category: 'Concentrate (Bulk)', Uom: 'Grams', ThcPct: 91.8 })
  out.push({ kind: 'liquid', Name: 'Field Notes 1:1 Tincture 1000mg 30ml', Category: 'Infused Liquid', Uom: 'Each', Brand: 'Field Notes', ThcMg: 500 })
  out.push({ kind: 'liquid', Name: 'Pacific Kind Sparkling Lemonade 10mg', Category: 'Infused Liquid', Uom: 'Each', Brand: 'Pacific Kind', ThcMg: 10 })
  out.push({ kind: 'topical', Name: 'Pacific Kind Relief Balm 500mg', Category: 'Topicals', Uom: 'Each', Brand: 'Pacific Kind', ThcMg: 500 })
  out.push({ kind: 'topical', Name: 'Field Notes Warming Lotion 250mg', Category: 'Topicals', Uom: 'Each', Brand: 'Field Notes', ThcMg: 250 })
  return out
}

export const LABS = ['Pacific Analytical Labs', 'Verity Testing Labs', 'Cascade Analytical']
export const SUPPLIERS = ['Emerald Ridge Farms', 'Sierra Sun Cultivation', 'Redwood Coast Growers']

/** A fictitious license number shaped like the state's own. */
export function licenseLike(state: string, kind: 'cultivation' | 'distribution' | 'lab', n: number): string {
  const d = (len: number) => String((n * 7919 + 104_729) % 10 ** len).padStart(len, '0')
  if (state === 'CA') return kind === 'cultivation' ? `CCL${18 + (n % 5)}-${d(7)}` : kind === 'lab' ? `C8-${d(7)}-LIC` : `C11-${d(7)}-LIC`
  if (state === 'CO') return kind === 'cultivation' ? `403R-${d(5)}` : kind === 'lab' ? `405R-${d(5)}` : `404R-${d(5)}`
  return `${state}-${kind === 'cultivation' ? 'CUL' : kind === 'lab' ? 'LAB' : 'DIS'}-${d(6)}`
}

// ---- records ------------------------------------------------------------------------------------
export interface PackageRow {
  Id: number
  Label: string
  item: ItemDef
  LabTestingState: string
  PackagedDate: string
}

export function strainRecords(ctx: SeedCtx): SeedDoc[] {
  return STRAINS.map((s, i) =>
    doc(ctx, 'metrc_strains', i, {
      Id: 2101 + i,
      Name: s.name,
      Genetics: `${s.indica}% Indica / ${100 - s.indica}% Sativa`,
      IndicaPercentage: s.indica,
      SativaPercentage: 100 - s.indica,
      ThcLevel: s.thc,
      CbdLevel: s.cbd,
      TestingStatus: i === 11 ? 'None' : i === 10 ? 'InHouse' : 'ThirdParty',
      LastModified: ctx.rng.pastDate(400, 30),
      IsUsed: 'yes',
    }),
  )
}

export function roomRecords(ctx: SeedCtx, rooms: [string, string][]): SeedDoc[] {
  return rooms.map(([name, type], i) => {
    const t = LOCATION_TYPES.find((x) => x.Name === type)!
    return doc(ctx, 'metrc_rooms', i, {
      Id: 311 + i,
      Name: name,
      LocationTypeName: type,
      ForPlantBatches: yn(t.ForPlantBatches),
      ForPlants: yn(t.ForPlants),
      // drying rooms of the Default type also take harvests
      ForHarvests: yn(t.ForHarvests),
      ForPackages: yn(t.ForPackages),
      LastModified: ctx.rng.pastDate(500, 60),
    })
  })
}

export function brandRecords(ctx: SeedCtx): SeedDoc[] {
  return BRANDS.map((b, i) => doc(ctx, 'metrc_item_brands', i, { Id: 51 + i, Name: b, Status: i === 5 || i === 7 ? 'NotPaid' : 'Paid' }))
}

export function categoryRecords(ctx: SeedCtx): SeedDoc[] {
  return CATEGORIES.map((c, i) =>
    doc(ctx, 'metrc_item_categories', i, {
      Name: c.Name,
      ProductCategoryType: c.ProductCategoryType,
      QuantityType: c.QuantityType,
      RequiresStrain: yn(c.strain),
      RequiresItemBrand: yn(c.brand),
      RequiresUnitThcPercent: yn(c.thcPct),
      RequiresUnitThcContent: yn(c.thcMg),
      RequiresUnitWeight: yn(c.weight),
      RequiresUnitVolume: yn(c.volume),
      CanContainSeeds: yn(c.Name === 'Seeds' || c.Name === 'Buds' || c.Name === 'Immature Plants'),
      CanBeRemediated: yn(c.ProductCategoryType !== 'Plants'),
      CanBeDestroyed: 'yes',
    }),
  )
}

export function itemRecords(ctx: SeedCtx, items: ItemDef[]): SeedDoc[] {
  return items.map((it, i) => {
    const c = catOf(it.Category)
    const plantish = c.ProductCategoryType === 'Plants'
    return doc(ctx, 'metrc_items', i, {
      Id: 15201 + i,
      Name: it.Name,
      ProductCategoryName: it.Category,
      QuantityType: c.QuantityType,
      UnitOfMeasureName: it.Uom,
      StrainName: it.Strain,
      ItemBrandName: it.Brand,
      UnitThcPercent: it.ThcPct,
      UnitThcContent: it.ThcMg,
      UnitWeight: it.UnitWeight,
      UnitWeightUnitOfMeasureName: it.UnitWeight !== undefined ? 'Grams' : undefined,
      DefaultLabTestingState: plantish ? 'NotRequired' : 'NotSubmitted',
      ApprovalStatus: i === items.length - 1 ? 'Pending' : 'Approved',
      LastModified: ctx.rng.pastDate(300, 5),
      // two discontinued items
      IsUsed: i === 7 || i === 21 ? 'no' : 'yes',
    })
  })
}

const FRESH_STATES = ['NotSubmitted', 'SubmittedForTesting', 'TestingInProgress']
function labState(ctx: SeedCtx, age: number): string {
  if (age < 8) return ctx.rng.pick(FRESH_STATES)
  return weighted(ctx, [
    ['TestPassed', 68], ['SubmittedForTesting', 5], ['TestingInProgress', 4], ['AwaitingConfirmation', 4], ['TestFailed', 6],
    ['RetestPassed', 6], ['RetestFailed', 1], ['Remediated', 2], ['SelectedForRandomTesting', 2], ['NotSubmitted', 2],
  ])
}

const NOTES = [
  'Cured 14 days before packaging.', 'Re-weighed after cure; scale variance logged.', 'Reserved for outgoing wholesale order.',
  'Sample pulled for in-house potency.', 'Split from larger lot for retail packaging.', 'Moved to vault after QA check.',
]

/** Packages; `harvests` are [name, strain, startIso] of this facility's harvests (cultivation). */
export function packageRecords(
  ctx: SeedCtx, items: ItemDef[], count: number, harvests: [string, string, string][], rooms: string[],
): { docs: SeedDoc[]; rows: PackageRow[] } {
  const dist = ctx.facility.kind === 'distribution'
  const docs: SeedDoc[] = []
  const rows: PackageRow[] = []
  const byKind = (k: ItemKind) => items.filter((x) => x.kind === k)
  // cultivation mix: 48 bulk flower, 18 trim, 20 clone lots, 4 seed lots, 18 pre-roll, 12 eighth
  const cultPlan: [ItemKind, number][] = [['bulk', 48], ['trim', 18], ['clone', 20], ['seed', 4], ['preroll', 18], ['eighth', 12]]
  const plan: ItemKind[] = []
  if (!dist) for (const [k, n] of cultPlan) for (let j = 0; j < n; j++) plan.push(k)
  for (let i = 0; i < count; i++) {
    const item = dist ? items[i % items.length] : ctx.rng.pick(byKind(plan[i] ?? 'bulk'))
    const k = item.kind
    let qty: number
    switch (k) {
      case 'bulk': qty = ctx.rng.float(453.6, 2268, 1); break
      case 'trim': qty = ctx.rng.float(2, 14, 2); break
      case 'clone': qty = ctx.rng.int(24, 100); break
      case 'seed': qty = ctx.rng.int(250, 2000); break
      case 'preroll': qty = ctx.rng.int(100, 600); break
      case 'eighth': qty = ctx.rng.int(48, 240); break
      case 'cart': qty = ctx.rng.int(50, 300); break
      case 'conc': qty = ctx.rng.float(100, 1000, 1); break
      case 'liquid': case 'topical': qty = ctx.rng.int(24, 120); break
      default: qty = ctx.rng.int(24, 200)
    }
    let packaged: string
    let sourceHarvests: string | undefined
    let receivedFrom: string | undefined
    let location: string
    if (dist) {
      packaged = ctx.rng.pastDate(150, 1)
      // outside farms plus the sibling cultivation licence listed in metrc_facilities
      receivedFrom = ctx.rng.pick([...SUPPLIERS, `${ctx.facility.fullName} Cultivation`])
      const h = new Date(Date.parse(packaged) - ctx.rng.int(12, 30) * DAY).toISOString().slice(0, 10)
      sourceHarvests = item.Strain ? `${h}-Dry Room-H` : undefined
      location = ctx.rng.pick(rooms)
    } else if (k === 'clone') {
      packaged = ctx.rng.pastDate(60, 1)
      location = 'Clone Room'
    } else if (k === 'seed') {
      packaged = ctx.rng.pastDate(260, 200)
      location = 'Vault'
    } else {
      // from a harvest of the same strain that has had time to dry and cure
      const hs = harvests.filter(([, st, start]) => st === item.Strain && daysBefore(ctx, start) >= 14)
      const [hName, , hStart] = hs.length ? hs[0] : harvests[harvests.length - 1]
      sourceHarvests = hName
      packaged = plus(ctx, hStart, ctx.rng.float(10, 24, 3))
      if (daysBefore(ctx, packaged) < 0.2) packaged = ago(ctx, ctx.rng.float(0.2, 2, 3))
      location = k === 'bulk' && ctx.rng.chance(0.2) ? 'Dry Room' : 'Vault'
    }
    const age = daysBefore(ctx, packaged)
    const plant = k === 'clone' || k === 'seed'
    const state = plant ? 'NotRequired' : labState(ctx, age)
    const finished = age > 45 && ctx.rng.chance(0.15)
    const held = state === 'TestFailed' || state === 'RetestFailed' || ctx.rng.chance(0.02)
    const Id = 610_001 + i
    const Label = ctx.tag('package', 20_001 + i)
    rows.push({ Id, Label, item, LabTestingState: state, PackagedDate: packaged })
    docs.push(
      doc(ctx, 'metrc_packages', i, {
        Id,
        Label,
        PackageType: k === 'clone' ? 'ImmaturePlant' : 'Product',
        ItemName: item.Name,
        ItemCategoryName: item.Category,
        ItemStrainName: item.Strain,
        Quantity: finished ? 0 : qty,
        UnitOfMeasureName: item.Uom,
        LocationName: location,
        SourceHarvestNames: sourceHarvests,
        ReceivedFromFacilityName: receivedFrom,
        LabTestingState: state,
        PackagedDate: packaged,
        IsOnHold: yn(held),
        Note: held
          ? 'On hold pending remediation plan; do not transfer.'
          : finished
            ? 'Finished: quantity depleted.'
            : ctx.rng.chance(0.25) ? ctx.rng.pick(NOTES) : undefined,
        LastModified: touched(ctx, packaged, 20),
        IsUsed: yn(!finished),
        // a couple of packages under state investigation are locked
        ...(held && i % 2 === 0 ? { ed: 'no', delete: 'no' } : {}),
      }),
    )
  }
  return { docs, rows }
}

const TESTED = ['TestPassed', 'TestFailed', 'RetestPassed', 'RetestFailed', 'AwaitingConfirmation', 'Remediated']
const FAIL_COMMENTS: Record<string, string[]> = {
  Pesticides: ['Bifenazate 0.31 µg/g exceeds action level 0.1 µg/g', 'Myclobutanil detected at 0.42 µg/g (limit 0.1)'],
  Microbiologicals: ['Aspergillus flavus detected in 1 g sample', 'Total yeast and mold 2.1e5 CFU/g above limit'],
}

/** Lab results: 3 test types per tested package, up to `maxPackages` packages. */
export function labTestRecords(ctx: SeedCtx, rows: PackageRow[], maxPackages: number): SeedDoc[] {
  const out: SeedDoc[] = []
  const tested = rows.filter((r) => TESTED.includes(r.LabTestingState) && r.item.kind !== 'clone' && r.item.kind !== 'seed').slice(0, maxPackages)
  const labNo = (name: string) => LABS.indexOf(name) + 1
  tested.forEach((p, pi) => {
    const lab = LABS[pi % LABS.length]
    const failed = p.LabTestingState === 'TestFailed' || p.LabTestingState === 'RetestFailed'
    const safety = pi % 2 === 0 ? 'Pesticides' : 'Microbiologicals'
    const performed = plus(ctx, p.PackagedDate, ctx.rng.float(1.5, 6, 3))
    const released = p.LabTestingState !== 'AwaitingConfirmation'
    const thc = p.item.ThcPct ?? Math.round(strainThc(p.item.Strain) * 1000) / 10
    const mg = p.item.ThcMg
    const tests: [string, number, boolean, string][] = [
      mg !== undefined
        ? ['THC', Math.round(mg * ctx.rng.float(0.93, 1.06, 3) * 10) / 10, true, `Total THC mg per unit (label claim ${mg} mg)`]
        : ['THC', Math.round((thc + ctx.rng.float(-2, 2, 2)) * 100) / 100, true, 'Total THC % (THCa x 0.877 + Δ9-THC)'],
      ['CBD', ctx.rng.float(0.02, 0.6, 2), true, 'Total CBD'],
      failed
        ? [safety, ctx.rng.float(0.2, 0.5, 2), false, ctx.rng.pick(FAIL_COMMENTS[safety])]
        : [safety, 0, true, 'None detected above LOQ'],
    ]
    for (const [type, level, passed, comment] of tests) {
      const n = out.length
      out.push(
        doc(ctx, 'metrc_lab_tests', n, {
          LabTestResultId: 770_001 + n,
          PackageId: p.Id,
          SourcePackageLabel: p.Label,
          ProductName: p.item.Name,
          ProductCategoryName: p.item.Category,
          LabFacilityName: lab,
          LabFacilityLicenseNumber: licenseLike(ctx.facility.state, 'lab', labNo(lab)),
          TestTypeName: type,
          TestResultLevel: level,
          TestPassed: yn(passed),
          OverallPassed: yn(!failed),
          TestPerformedDate: performed,
          ResultReleased: yn(released),
          TestComment: comment,
          LastModified: touched(ctx, performed, 3),
        }),
      )
    }
  })
  return out
}
