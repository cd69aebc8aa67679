/**
 * Demo records of the "operations" group: cultivation (fac_*) for cultivation facilities,
 * distribution (dis_*) for distribution facilities, and tasks, sensors, testing and finance for
 * both. Part 2 (operations-2.ts) holds the helpers, distribution and the shared tables.
 *
 * Room plan (set_rooms i = 0..9, business group): 0 Mother Room, 1 Clone Room, 2-3 Veg Room 1-2,
 * 4-6 Flower Room 1-3, 7 Dry Room, 8 Trim & Cure Room, 9 Vault.
 */
import type { SeedCtx, SeedDoc, SeedRecords } from '../kit'
import {
  HEALTH, MIX_MATERIALS, PROCESS_TYPES, STAFF, TRIM_CREW, TRIM_METHODS, WASTE_METHODS, WASTE_REASONS,
} from '../schemas/operations'
import {
  N_STRAINS, ageDays, at, distributionInventoryInfo, facInvTag, fileUrl, locked, m, pad,
  plusDays, r2, seedDistribution, seedShared, yymmdd, type InventoryInfo, type Measure,
} from './operations-2'

export function seedRecords(ctx: SeedCtx): SeedRecords {
  const kind = ctx.facility.kind
  if (kind === 'lobby') return {}
  if (kind === 'cultivation') {
    const own = seedCultivation(ctx)
    const products = own.fac_products
    const info: InventoryInfo = {
      docs: own.fac_inventory,
      productNames: new Map(products.map((p) => [p._id, p.name as string])),
      categories: new Map(products.map((p) => [p._id, p.category as string])),
      strains: new Map(products.map((p) => [p._id, p.strain as string])),
    }
    return { ...own, ...seedShared(ctx, info) }
  }
  const own = seedDistribution(ctx)
  return { ...own, ...seedShared(ctx, distributionInventoryInfo(own)) }
}

const MOTHER_ROOM = 0
const PROP = 1
const VEG = [2, 3]
const FLOWER = [4, 5, 6]
const DRY = 7
const CURE = 8
const VAULT = 9

/** set_strains names by index (business group), for product, mother and harvest names. */
const STRAIN_NAMES = [
  'Blue Dream', 'OG Kush', 'Girl Scout Cookies', 'Gorilla Glue #4', 'Sour Diesel', 'Granddaddy Purple',
  'Wedding Cake', 'Gelato #33', 'Northern Lights', 'Jack Herer', 'Zkittlez', 'ACDC',
]
const CBD_STRAIN = 11
const GROWERS = STAFF.cultivation.filter((n) => n !== 'Sam Rivera')

/** [form, category, uom, unit size, wholesale range, msrp range, set_prodtypes i, sku prefix] */
const FORMS: [string, string, string, Measure, [number, number], [number, number] | null, number, string][] = [
  ['Eighth 3.5g', 'Buds', 'Each', m(3.5, 'g'), [16, 22], [35, 50], 0, 'FLW'],
  ['Quarter 7g', 'Buds', 'Each', m(7, 'g'), [30, 40], [60, 80], 0, 'FLW'],
  ['Ounce 28g', 'Buds', 'Each', m(28, 'g'), [90, 140], [180, 260], 0, 'FLW'],
  ['Bulk Flower', 'Buds', 'Pounds', m(1, 'lb'), [900, 1500], null, 0, 'FLW'],
  ['Bulk Smalls', 'Smalls', 'Ounces', m(1, 'oz'), [30, 48], null, 0, 'FLW'],
  ['Bulk Trim', 'Shake/Trim', 'Grams', m(1, 'g'), [0.15, 0.35], null, 2, 'TRM'],
  ['Pre-Roll 1g', 'Pre-Roll', 'Each', m(1, 'g'), [3.5, 5], [8, 12], 1, 'PRE'],
  ['Pre-Roll 5-Pack', 'Pre-Roll', 'Each', m(2.5, 'g'), [12, 16], [25, 35], 1, 'PRE'],
  ['Rooted Clone', 'Clones', 'Each', m(1, 'units'), [6, 9], [15, 20], 9, 'CLN'],
  ['Seeds 10-Pack', 'Seeds', 'Each', m(10, 'units'), [40, 60], [80, 120], 8, 'SED'],
]
const DESC: Record<string, string> = {
  Buds: 'Indoor flower grown in coco under LED, slow dried 12 days at 60/60 and hand finished.',
  Smalls: 'Lower-canopy popcorn buds from the same harvests as our top shelf, sold by the ounce.',
  'Shake/Trim': 'Sugar leaf and shake collected at trim, frozen the same day for extraction partners.',
  'Pre-Roll': 'Ground whole flower (no trim) in unbleached cones, sealed in child-resistant tubes.',
  Clones: 'Rooted cuttings in 2 inch rockwool, 10-14 days old, from tested mother stock.',
  Seeds: 'Feminized seeds from in-house crosses, germination rate above 90%.',
}
const PLANT_NOTES = [
  'Slight nitrogen deficiency on lower fan leaves; adjusted feed EC and will re-check in three days.',
  'Topped at the fifth node and LST applied to even out the canopy.',
  'Small patch of powdery mildew treated with potassium bicarbonate; isolated from neighbours.',
  'Stretching more than the rest of the batch, moved to the outside edge of the table.',
  'Fungus gnats seen in the medium; top-dressed with BTi and added sticky cards.',
]

export function seedCultivation(ctx: SeedCtx): SeedRecords {
  const r = ctx.rng
  const id = ctx.id
  const roomOf = (phase: string, i: number) =>
    phase === 'Clone' ? PROP : phase === 'Vegetative' ? VEG[i % 2] : phase === 'Mother' ? MOTHER_ROOM : FLOWER[i % FLOWER.length]

  // ---- plantings: one every ~7.6 days for 300 days; the 25 oldest are harvested
  const N_HARVESTS = 25
  const plantings: SeedDoc[] = []
  const harvestDates: string[] = []
  for (let i = 0; i < 40; i++) {
    const daysAgo = 300 - i * 7.6 + r.float(0, 1.5)
    const planted = at(ctx, daysAgo)
    const type = i % 4 === 3 ? 'Seed' : 'Clone'
    const phase = i < N_HARVESTS ? 'Harvested' : daysAgo < 18 ? 'Clone' : daysAgo < 46 ? 'Vegetative' : 'Flowering'
    if (i < N_HARVESTS) harvestDates.push(at(ctx, Math.max(daysAgo - r.int(108, 120), 1 + r.float(0, 2))))
    plantings.push({
      _id: id('fac_plantings', i),
      name: `PB-${planted.slice(2, 4)}-${pad(i + 101, 4)}`,
      strain: id('set_strains', i % N_STRAINS),
      room: id('set_rooms', roomOf(phase === 'Harvested' ? 'Flowering' : phase, i)),
      mtag: ctx.tag('plant', 900_001 + i),
      origin: type === 'Clone' ? ctx.tag('package', 300_001 + i) : i % 8 === 3 ? ctx.tag('package', 310_001 + i) : '',
      type,
      orig: i < N_HARVESTS ? r.int(30, 100) : 0, // active batches: set below from their plants
      count: 0,
      planted,
      phase,
      notes: type === 'Seed' ? 'Started from feminized seed in rockwool cubes; pheno-hunting, keep the best two as mother candidates.' : '',
      ...(i < 3 ? { IsUsed: 'no' } : {}),
    })
  }

  // ---- harvests: one per harvested planting
  const harvests: SeedDoc[] = []
  for (let j = 0; j < N_HARVESTS; j++) {
    const p = plantings[j]
    p.count = (p.orig as number) - r.int(0, 4)
    const harvested = harvestDates[j]
    const age = ageDays(ctx, harvested)
    const wet = (p.count as number) * r.float(1.1, 2.3)
    const status = age < 10 ? 'Drying' : age < 18 ? 'Curing' : age < 28 ? 'Trimming' : age < 40 ? 'Packaged' : 'Finished'
    harvests.push({
      _id: id('fac_harvests', j),
      name: `${harvested.slice(0, 10)} ${STRAIN_NAMES[j % N_STRAINS]}`,
      strain: p.strain,
      room: p.room,
      dryRoom: id('set_rooms', DRY),
      harvested,
      plants: p.count,
      wetWeight: m(wet, 'lb'),
      dryWeight: status === 'Drying' ? '' : m(wet * r.float(0.19, 0.24), 'lb'),
      wasteWeight: m(wet * r.float(0.08, 0.16), 'lb'),
      status,
      finished: status === 'Finished' ? plusDays(harvested, r.int(35, 40)) : '',
      notes: r.chance(0.3) ? r.pick([
        'Wet weight taken in the flower room on the calibrated harvest scale; two witnesses signed the sheet.',
        'Some botrytis found in the top colas of two plants; affected buds removed and logged as waste.',
        'Dried whole-plant hang for 12 days at 60F / 60% RH before bucking.',
      ]) : '',
      ...(status === 'Finished' && age > 120 ? locked : {}),
    })
  }

  // ---- plants: 15 mothers, the active batches, then the latest harvested batches
  const plants: SeedDoc[] = []
  const N_MOMS = 15
  const retired = new Set([13, 14])
  const momPlanted: string[] = []
  for (let k = 0; k < N_MOMS; k++) {
    const planted = at(ctx, r.int(220, 520))
    momPlanted.push(planted)
    const dead = retired.has(k)
    plants.push({
      _id: id('fac_plants', k),
      tag: ctx.tag('plant', 100_001 + k),
      strain: id('set_strains', k % N_STRAINS),
      room: id('set_rooms', MOTHER_ROOM),
      phase: dead ? 'Destroyed' : 'Mother',
      planted,
      phaseDate: dead ? at(ctx, r.int(30, 60)) : plusDays(planted, r.int(20, 40)),
      planting: '',
      harvest: '',
      alive: dead ? 'no' : 'yes',
      mark_as_dead: dead ? 'yes' : 'no',
      waste_method: dead ? 'Grinder' : '',
      mix_material: dead ? 'Soil' : '',
      dead_weight: dead ? m(r.float(900, 2200, 0), 'g') : '',
      notes: dead ? 'Mother retired after vigour dropped; replaced from a clone of the same cut.' : '',
      ...(dead ? { IsUsed: 'no' } : {}),
    })
  }
  const alloc: [number, number][] = [] // [planting, plants]
  let used = N_MOMS
  for (let i = N_HARVESTS; i < 40; i++) {
    const n = r.int(12, 24)
    alloc.push([i, n])
    used += n
  }
  const rest = 400 - used
  for (let k = 0; k < rest; k++) alloc.push([14 + (k % 11), 1])
  const plantAt = (pi: number) => {
    const k = plants.length
    const p = plantings[pi]
    const planted = p.planted as string
    const phase0 = p.phase as string
    const harvestedP = pi < N_HARVESTS
    const destroyed = !harvestedP && r.chance(0.06)
    const phase = destroyed ? 'Destroyed' : phase0
    const age = ageDays(ctx, planted)
    const flipDay = r.int(26, 34)
    const phaseDate = harvestedP
      ? harvests[pi].harvested
      : destroyed
        ? plusDays(planted, r.float(1, Math.max(1.5, age - 0.5)))
        : phase0 === 'Flowering'
          ? plusDays(planted, Math.min(flipDay, age - 1))
          : phase0 === 'Vegetative'
            ? plusDays(planted, Math.min(r.int(14, 18), age - 1))
            : planted
    const gram = phase0 === 'Clone' ? r.float(5, 40, 0) : phase0 === 'Vegetative' ? r.float(80, 400, 0) : r.float(300, 1800, 0)
    plants.push({
      _id: id('fac_plants', k),
      tag: ctx.tag('plant', 100_001 + k),
      strain: p.strain,
      room: p.room,
      phase,
      planted,
      phaseDate,
      planting: p._id,
      harvest: harvestedP ? harvests[pi]._id : '',
      alive: harvestedP || destroyed ? 'no' : 'yes',
      mark_as_dead: destroyed ? 'yes' : 'no',
      waste_method: destroyed ? r.pick(WASTE_METHODS) : '',
      mix_material: destroyed ? r.pick(MIX_MATERIALS) : '',
      dead_weight: destroyed ? (gram > 450 && r.chance(0.5) ? m(gram / 453.592, 'lb') : m(gram, 'g')) : '',
      notes: destroyed ? `Destroyed: ${r.pick(WASTE_REASONS).toLowerCase()}. Rendered unusable 50:50 with mix material before disposal.` : r.chance(0.06) ? r.pick(PLANT_NOTES) : '',
      ...((destroyed && ageDays(ctx, phaseDate as string) > 20) || (harvestedP && ageDays(ctx, phaseDate as string) > 75) ? { IsUsed: 'no' } : {}),
    })
    if (!harvestedP) {
      p.orig = (p.orig as number) + 1
      if (!destroyed) p.count = (p.count as number) + 1
    }
  }
  for (const [pi, n] of alloc) for (let x = 0; x < n; x++) plantAt(pi)

  // ---- mothers (same tags as the Mother-phase plants 0..14)
  const moms: SeedDoc[] = []
  for (let k = 0; k < N_MOMS; k++) {
    const dead = retired.has(k)
    moms.push({
      _id: id('fac_moms', k),
      name: `MOM-${pad(k + 1, 2)} ${STRAIN_NAMES[k % N_STRAINS]}`,
      tag: plants[k].tag,
      strain: plants[k].strain,
      room: id('set_rooms', MOTHER_ROOM),
      planted: momPlanted[k],
      lastCut: dead ? at(ctx, r.int(60, 90)) : at(ctx, r.int(1, 21)),
      clonesTaken: r.int(120, 900),
      health: dead ? 'Poor' : r.pick(HEALTH.slice(0, 3)),
      medium: r.pick(['Coco', 'Rockwool', 'Living Soil', 'Peat Mix']),
      active: dead ? 'no' : 'yes',
      notes: dead ? 'Retired: reduced vigour and slow rooting of cuttings. Plant destroyed and logged as waste.' : r.chance(0.3) ? 'Keeper phenotype; take cuttings every 10-14 days, max 40 per cut.' : '',
      ...(dead ? { IsUsed: 'no' } : {}),
    })
  }

  // ---- clones: one batch behind every clone-type planting, plus the batches rooting now
  const clones: SeedDoc[] = []
  for (let i = 0; i < 40; i++) {
    const p = plantings[i]
    if (p.type !== 'Clone') continue
    const cutDate = plusDays(p.planted as string, -r.int(12, 18))
    const count = Math.max(p.orig as number, 1) + r.int(4, 16)
    clones.push({
      _id: id('fac_clones', clones.length), name: `CL-${yymmdd(cutDate)}-${pad(clones.length + 1, 2)}`,
      strain: p.strain, mother: id('fac_moms', i % N_STRAINS), room: id('set_rooms', PROP), cutDate, count,
      rooted: Math.min(count, (p.orig as number) + r.int(0, 4)), stage: 'Transplanted', tray: `T-${r.int(1, 24)}`,
      planting: p._id, hormone: r.chance(0.8) ? 'yes' : 'no', notes: '',
    })
  }
  while (clones.length < 60) {
    const j = clones.length
    const culled = r.chance(0.2)
    const cutDate = culled ? at(ctx, r.int(20, 200)) : at(ctx, r.float(0.5, 16))
    const age = ageDays(ctx, cutDate)
    const mom = r.int(0, 12 - 1)
    const count = r.pick([36, 48, 50, 72])
    const stage = culled ? 'Culled' : age < 3 ? 'Cut' : age < 11 ? 'Rooting' : 'Rooted'
    clones.push({
      _id: id('fac_clones', j), name: `CL-${yymmdd(cutDate)}-${pad(j + 1, 2)}`,
      strain: id('set_strains', mom % N_STRAINS), mother: id('fac_moms', mom), room: id('set_rooms', PROP), cutDate, count,
      rooted: stage === 'Rooted' ? Math.round(count * r.float(0.82, 0.98)) : stage === 'Culled' ? r.int(0, 10) : 0,
      stage, tray: `T-${r.int(1, 24)}`, planting: '', hormone: r.chance(0.8) ? 'yes' : 'no',
      notes: culled ? r.pick([
        'Culled: dome left open over the weekend, cuttings dried out before rooting.',
        'Culled: damping off in most of the tray; sanitized trays and replaced rockwool supplier lot.',
      ]) : '',
      ...(culled ? { IsUsed: 'no' } : {}),
    })
  }

  // ---- products: 10 forms, each strain in several forms (strain, form pairs never repeat)
  const products: SeedDoc[] = []
  for (let i = 0; i < 30; i++) {
    const [form, category, uom, unitWeight, price, msrp, prodtype, prefix] = FORMS[i % 10]
    const s = (i * 5) % N_STRAINS
    const name = `${STRAIN_NAMES[s]} ${form}`
    const flower = ['Buds', 'Smalls', 'Shake/Trim', 'Pre-Roll'].includes(category)
    const cbdStrain = s === CBD_STRAIN
    const off = i === 19 || i === 28
    products.push({
      _id: id('fac_products', i),
      name,
      sku: `${prefix}-${pad(s + 1, 2)}${pad(i + 1, 3)}`,
      prodtype: id('set_prodtypes', prodtype),
      strain: id('set_strains', s),
      category,
      uom,
      unitWeight,
      price: r2(r.float(price[0], price[1])),
      msrp: msrp ? Math.round(r.float(msrp[0], msrp[1])) : '',
      thc: flower ? (cbdStrain ? r.float(0.5, 1.5, 1) : r.float(18, 30, 1)) : '',
      cbd: flower ? (cbdStrain ? r.float(12, 18, 1) : r.float(0.05, 0.9, 2)) : '',
      image: fileUrl(ctx, 'products', `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.png`),
      description: DESC[category],
      launched: at(ctx, r.int(90, 700)),
      active: off ? 'no' : 'yes',
      ...(off ? { IsUsed: 'no' } : {}),
    })
  }

  // ---- bins: drying racks in the dry room, curing totes in the trim & cure room, shelves in the vault
  const bins: SeedDoc[] = []
  for (let i = 0; i < 20; i++) {
    const rack = i < 6
    const binType = rack ? 'Drying Rack' : i < 14 ? 'Vault Shelf' : i < 18 ? 'Tote' : i === 18 ? 'Cage' : 'Freezer'
    const tote = binType === 'Tote'
    const name = rack ? `DR-${pad(i + 1, 2)}` : tote ? `CURE-${i - 13}` : `V-${String.fromCharCode(65 + Math.floor((i - 6) / 4))}${((i - 6) % 4) + 1}`
    bins.push({
      _id: id('fac_bins', i), name, barcode: `BIN-${name}`, room: id('set_rooms', rack ? DRY : tote ? CURE : VAULT), binType,
      capacity: m(rack ? 40 : binType === 'Tote' ? 25 : binType === 'Freezer' ? 60 : 120, 'lb'), contents: m(0, 'lb'), packages: 0,
      lastAudit: at(ctx, r.int(1, 35)), active: i === 17 ? 'no' : 'yes',
      note: binType === 'Freezer' ? 'Fresh-frozen trim for the extraction partner; keep at -10F and log temperature twice daily.' : i === 17 ? 'Tote cracked, out of service.' : '',
      ...(i === 17 ? { IsUsed: 'no' } : {}),
    })
  }
  const shelves = bins.filter((b) => b.active === 'yes' && b.binType === 'Vault Shelf')
  const totes = bins.filter((b) => b.active === 'yes' && b.binType === 'Tote')

  // ---- inventory packages
  const inventory: SeedDoc[] = []
  const toLb = (q: Measure, unit: Measure) =>
    q.unit === 'lb' ? q.qty : q.unit === 'oz' ? q.qty / 16 : q.unit === 'g' ? q.qty / 453.592 : unit.unit === 'g' ? (q.qty * unit.qty) / 453.592 : 0
  for (let i = 0; i < 80; i++) {
    const pi = (i * 7) % 30
    const prod = products[pi]
    const form = pi % 10
    const category = prod.category as string
    const plantMaterial = category === 'Clones' || category === 'Seeds'
    const strainIdx = (pi * 5) % N_STRAINS
    const sources = [strainIdx, strainIdx + 12, strainIdx + 24].filter((j) => j < N_HARVESTS && ageDays(ctx, harvests[j].harvested as string) > 20)
    const h = plantMaterial || sources.length === 0 ? null : harvests[r.pick(sources)]
    const packaged = h ? plusDays(h.harvested as string, Math.min(r.int(14, 30), ageDays(ctx, h.harvested as string) - 1)) : at(ctx, r.int(1, 40))
    const depleted = i % 13 === 5
    const qty =
      form === 3 ? m(r.float(1, 20), 'lb') : form === 4 ? m(r.float(16, 160), 'oz') : form === 5 ? m(r.int(500, 9000), 'g') : m(r.int(20, 400), 'units')
    if (depleted) qty.qty = 0
    const lab = plantMaterial ? 'Not Submitted' : ageDays(ctx, packaged) < 10 ? 'Submitted' : r.chance(0.05) ? 'Test Failed' : 'Test Passed'
    const status = lab === 'Submitted' ? 'Lab Pending' : lab === 'Test Failed' ? 'Quarantine' : plantMaterial ? 'Active' : r.chance(0.08) ? 'On Hold' : r.chance(0.7) ? 'Released' : 'Active'
    const bin = form === 5 ? bins[19] : status === 'Quarantine' ? bins[18] : (form === 3 || form === 4) && r.chance(0.4) ? r.pick(totes) : r.pick(shelves)
    inventory.push({
      _id: id('fac_inventory', i),
      tag: facInvTag(ctx, i),
      product: prod._id,
      strain: prod.strain,
      category,
      qty,
      room: bin.room,
      bin: bin._id,
      harvest: h ? h._id : '',
      status,
      labStatus: lab,
      unitCost: r2((prod.price as number) * r.float(0.35, 0.55)),
      packaged,
      onHand: depleted ? 'no' : 'yes',
      note: status === 'Quarantine' ? 'Failed microbial panel (total yeast and mold). Held in the quarantine cage pending remediation plan.'
        : status === 'On Hold' ? 'On hold for a customer pre-order; do not allocate to other orders.' : r.chance(0.08) ? 'Re-weighed during monthly audit; variance under 0.5%.' : '',
      ...(depleted ? { IsUsed: 'no' } : {}),
    })
    bin.contents = m((bin.contents as Measure).qty + toLb(qty, prod.unitWeight as Measure), 'lb')
    bin.packages = (bin.packages as number) + (depleted ? 0 : 1)
  }
  // the drying racks hold the harvests that are drying or curing
  for (const h of harvests.filter((x) => x.status === 'Drying' || x.status === 'Curing')) {
    const rack = bins[harvests.indexOf(h) % 6]
    rack.contents = m((rack.contents as Measure).qty + ((h.dryWeight || h.wetWeight) as Measure).qty, 'lb')
  }
  for (const b of bins) b.contents = m((b.contents as Measure).qty, 'lb')

  // ---- processing batches, one per harvest
  const YIELD: Record<string, [number, number]> = {
    Bucking: [0.92, 0.97], 'Machine Trim': [0.7, 0.8], 'Hand Trim': [0.72, 0.82], 'BHO Extraction': [0.15, 0.22],
    'Rosin Press': [0.15, 0.25], 'CO2 Extraction': [0.12, 0.18], 'Pre-Roll Production': [0.97, 0.99], Packaging: [0.99, 1],
  }
  const processing: SeedDoc[] = harvests.map((h, j) => {
    const process = PROCESS_TYPES[j % PROCESS_TYPES.length]
    const extraction = ['BHO Extraction', 'Rosin Press', 'CO2 Extraction'].includes(process)
    const dry = ((h.dryWeight || h.wetWeight) as Measure).qty
    const input = extraction ? m(dry * r.float(0.1, 0.2) * 453.592, 'g') : m(dry * r.float(0.3, 0.9), 'lb')
    let started = plusDays(h.harvested as string, r.int(10, 25))
    const future = new Date(started).getTime() > ctx.now.getTime()
    if (future) started = at(ctx, -r.int(1, 7), 16)
    const age = ageDays(ctx, started)
    const status = future ? 'Queued' : age < 3 ? 'In Progress' : j === 9 ? 'On Hold' : 'Complete'
    const y = r.float(...YIELD[process], 3)
    const done = status === 'Complete'
    return {
      _id: id('fac_processing', j),
      name: `PR-${yymmdd(started)}-${pad(j + 1, 2)}`,
      process,
      harvest: h._id,
      inputTag: ctx.tag('package', 250_001 + j),
      outputTag: done ? ctx.tag('package', 270_001 + j) : '',
      inputWeight: input,
      outputWeight: done ? m(input.qty * y, input.unit) : '',
      yieldPct: done ? r2(y * 100) : '',
      operator: r.pick(GROWERS),
      started,
      completed: done ? plusDays(started, r.float(0.3, 4)) : '',
      status,
      notes: status === 'On Hold' ? 'Paused: extraction booth failed the weekly LEL sensor check; waiting on the service tech.' : '',
      ...(done && age > 90 ? locked : {}),
    }
  })

  // ---- trim sessions on harvests that reached trimming
  const trimmable = harvests.filter((h) => ageDays(ctx, h.harvested as string) >= 18)
  const trim: SeedDoc[] = []
  for (let i = 0; i < 35; i++) {
    const h = trimmable[trimmable.length - 1 - Math.floor(r.next() ** 2 * trimmable.length)]
    const method = r.chance(0.6) ? 'Hand' : r.pick(TRIM_METHODS.slice(1))
    const hand = method === 'Hand'
    const input = hand ? r.float(1.5, 8) : r.float(10, 40)
    const bud = input * r.float(0.72, 0.8)
    const payRate = hand ? r.int(150, 200) : r.int(25, 40)
    const trimDate = plusDays(h.harvested as string, Math.min(r.int(14, 24), ageDays(ctx, h.harvested as string) - 0.5))
    trim.push({
      _id: id('fac_trim', i),
      harvest: h._id,
      trimmer: r.pick(TRIM_CREW),
      trimDate,
      method,
      inputWeight: m(input, 'lb'),
      budWeight: m(bud, 'lb'),
      trimWeight: m(input * r.float(0.12, 0.18), 'lb'),
      hours: r2(hand ? input * r.float(5, 8) : input * r.float(0.15, 0.3)),
      payRate,
      labor: r2(payRate * bud),
      verified: ageDays(ctx, trimDate) > 3 ? 'yes' : 'no',
      ...(ageDays(ctx, trimDate) > 60 ? locked : {}),
    })
  }

  // ---- monthly reports
  const reports: SeedDoc[] = []
  for (let i = 0; i < 10; i++) {
    const type = (['Compliance', 'Yield', 'Waste', 'Inventory'] as const)[i % 4]
    const month = new Date(Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth() - 5 + Math.floor(i / 2), 1))
    const end = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0, 23, 59))
    const label = month.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
    const inMonth = harvests.filter((h) => (h.harvested as string) >= month.toISOString() && (h.harvested as string) <= end.toISOString())
    const wet = inMonth.reduce((s, h) => s + (h.wetWeight as Measure).qty, 0)
    const submitted = i < 9
    reports.push({
      _id: id('fac_reports', i),
      name: `${type} Report - ${label}`,
      type,
      periodStart: month.toISOString(),
      periodEnd: end.toISOString(),
      generated: plusDays(end.toISOString(), r.int(1, 6)),
      preparedBy: type === 'Yield' ? 'Maria Lopez' : type === 'Inventory' ? 'Dana Whitfield' : 'Jordan Lee',
      file: fileUrl(ctx, 'reports', `${type.toLowerCase()}-${month.toISOString().slice(0, 7)}.pdf`),
      submitted: submitted ? 'yes' : 'no',
      summary: `${label}: ${inMonth.length} harvest(s), ${wet.toFixed(1)} lb wet weight. ${type === 'Compliance' ? 'Plant counts reconciled with the state system; no discrepancies.' : type === 'Waste' ? 'All waste rendered unusable 50:50 and witnessed.' : 'Figures taken from the package and harvest tables at month end.'}`,
      ...(submitted ? locked : {}),
    })
  }

  // ---- waste: harvest waste of the recent harvests, then plant and product destruction
  const waste: SeedDoc[] = []
  for (let j = 10; j < N_HARVESTS; j++) {
    const h = harvests[j]
    const wasteDate = plusDays(h.harvested as string, Math.min(r.float(0.5, 3), ageDays(ctx, h.harvested as string) - 0.1))
    waste.push({
      _id: id('fac_waste', waste.length), wasteDate, wasteType: r.pick(['Harvest Waste', 'Stems', 'Root Balls']), reason: 'Routine trim',
      method: r.pick(WASTE_METHODS), mix_material: r.pick(MIX_MATERIALS), weight: h.wasteWeight, room: h.room, harvest: h._id,
      witness: r.pick(GROWERS), reported: ageDays(ctx, wasteDate) > 2 ? 'yes' : 'no',
      notes: 'Fan leaves, stems and root balls from harvest day, mixed 50:50 and bagged for the hauler.',
    })
  }
  while (waste.length < 30) {
    const wasteDate = at(ctx, r.float(0.5, 200))
    const wasteType = r.pick(['Plant Material', 'Trim Waste', 'Failed Product', 'Expired Product'])
    const reason = wasteType === 'Failed Product' ? 'Failed lab test' : wasteType === 'Expired Product' ? 'Damaged' : r.pick(WASTE_REASONS)
    const grams = wasteType === 'Plant Material' ? r.float(200, 6000, 0) : r.float(50, 2500, 0)
    waste.push({
      _id: id('fac_waste', waste.length), wasteDate, wasteType, reason,
      method: r.pick(WASTE_METHODS), mix_material: r.pick(MIX_MATERIALS), weight: grams > 2000 ? m(grams / 453.592, 'lb') : m(grams, 'g'),
      room: id('set_rooms', wasteType === 'Plant Material' ? r.pick([...VEG, ...FLOWER]) : wasteType === 'Trim Waste' ? CURE : VAULT), harvest: '',
      witness: r.pick(GROWERS), reported: ageDays(ctx, wasteDate) > 2 ? 'yes' : 'no',
      notes: reason === 'Failed lab test' ? 'Package failed microbial testing and remediation was not approved; destroyed on camera.'
        : reason === 'Male plant' ? 'Male flowers found during week-2 scouting; plants pulled before pollen release.' : '',
    })
  }
  for (const w of waste) if (w.reported === 'yes' && ageDays(ctx, w.wasteDate as string) > 30) Object.assign(w, locked)
  waste.sort((a, b) => (a.wasteDate as string).localeCompare(b.wasteDate as string))
  waste.forEach((w, i) => (w._id = id('fac_waste', i)))

  return {
    fac_products: products, fac_inventory: inventory, fac_bins: bins, fac_moms: moms, fac_clones: clones, fac_plantings: plantings,
    fac_plants: plants, fac_harvests: harvests, fac_processing: processing, fac_trim: trim, fac_reports: reports, fac_waste: waste,
  }
}
