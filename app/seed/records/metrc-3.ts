/**
 * METRC group, part 3 (cultivation only): harvests, plant batches, plants and waste-mix records.
 * Batches, plants and waste refer to each other by METRC name/label so the tables agree.
 */
import type { SeedCtx, SeedDoc } from '../kit'
import { STRAINS, ago, daysBefore, doc, plus, touched, yn } from './metrc-2'

const BATCH_TAG_STATES = ['CA', 'MI']

/** 20 harvests, newest first; returns the docs and [Name, strain, HarvestStartDate] for package sources. */
export function harvestRecords(ctx: SeedCtx): { docs: SeedDoc[]; list: [string, string, string][] } {
  const docs: SeedDoc[] = []
  const list: [string, string, string][] = []
  for (let h = 0; h < 20; h++) {
    const start = ago(ctx, 6 + h * 10 + ctx.rng.float(0, 4, 3))
    const age = daysBefore(ctx, start)
    const strain = STRAINS[h % 12].name
    const type = h % 5 === 3 ? 'Product' : 'WholePlant'
    const name = `${start.slice(0, 10)}-Dry Room-${type === 'Product' ? 'M' : 'H'}`
    const plants = ctx.rng.int(30, 110)
    const wet = Math.round(plants * ctx.rng.float(550, 1100) * 10) / 10
    let waste: number, packaged: number, pkgCount: number, lab: string, finished: string | undefined
    if (age > 40) {
      packaged = wet * ctx.rng.float(0.18, 0.23, 3)
      waste = wet - packaged
      pkgCount = ctx.rng.int(4, 14)
      lab = h % 7 === 4 ? 'RetestPassed' : 'TestPassed'
      finished = plus(ctx, start, ctx.rng.float(25, 35, 3))
    } else if (age > 14) {
      packaged = wet * ctx.rng.float(0.06, 0.12, 3)
      waste = wet * ctx.rng.float(0.5, 0.6, 3)
      pkgCount = ctx.rng.int(2, 6)
      lab = ctx.rng.pick(['SubmittedForTesting', 'TestingInProgress', 'TestPassed'])
    } else {
      packaged = 0
      waste = wet * ctx.rng.float(0.05, 0.2, 3)
      pkgCount = 0
      lab = 'NotSubmitted'
    }
    const r1 = (x: number) => Math.round(x * 10) / 10
    docs.push(
      doc(ctx, 'metrc_harvests', h, {
        Id: 8201 + h,
        Name: name,
        HarvestType: type,
        SourceStrainNames: strain,
        DryingLocationName: 'Dry Room',
        PlantCount: plants,
        TotalWetWeight: wet,
        CurrentWeight: finished ? 0 : r1(wet - waste - packaged),
        TotalWasteWeight: r1(waste),
        PackageCount: pkgCount,
        UnitOfWeightName: 'Grams',
        LabTestingState: lab,
        HarvestStartDate: start,
        FinishedDate: finished,
        LastModified: touched(ctx, finished ?? start, 6),
        // the two oldest harvests are archived
        IsUsed: yn(h < 18),
      }),
    )
    list.push([name, strain, start])
  }
  return { docs, list }
}

type Group = 'mother' | 'old' | 'flower' | 'veg' | 'untracked'
const groupOf = (i: number): Group => (i < 8 ? 'mother' : i < 12 ? 'old' : i < 20 ? 'flower' : i < 26 ? 'veg' : 'untracked')
/** plants per batch group: 8 mothers + 24 harvested/destroyed + 150 flowering + 118 vegetative = 300 */
const PLANTS_PER_GROUP: Record<Group, number> = { mother: 8, old: 24, flower: 150, veg: 118, untracked: 0 }
const BATCHES_PER_GROUP: Record<Group, number> = { mother: 8, old: 4, flower: 8, veg: 6, untracked: 4 }
const GROUP_FIRST: Record<Group, number> = { mother: 0, old: 8, flower: 12, veg: 20, untracked: 26 }

const initials = (s: string) =>
  s.split(' ').map((w) => w.replace(/[^A-Za-z0-9]/g, '')[0] ?? '').join('').toUpperCase()

export interface PlantInfo {
  label: string
  room: string
  state: string
  flowering?: string
  destroyed?: string
}

/** Plant batches and plants. `seedPackages` are [label, strain] of seed lots the seed batches come from. */
export function plantRecords(ctx: SeedCtx, seedPackages: [string, string][]): { batches: SeedDoc[]; plants: SeedDoc[]; info: PlantInfo[] } {
  const batches: SeedDoc[] = []
  const plants: SeedDoc[] = []
  const info: PlantInfo[] = []
  const motherLabel = (s: number) => ctx.tag('plant', 10_001 + s)
  let plantNo = 0
  let seedNo = 0
  for (let b = 0; b < 30; b++) {
    const g = groupOf(b)
    const k = b - GROUP_FIRST[g]
    const seed = b === 11 || b === 17 || b === 23 || b === 29
    let strainIdx: number
    let sourcePackage: string | undefined
    let sourcePlant: string | undefined
    if (g === 'mother') strainIdx = b
    else if (seed && seedPackages.length) {
      const [label, strain] = seedPackages[seedNo++ % seedPackages.length]
      sourcePackage = label
      strainIdx = STRAINS.findIndex((s) => s.name === strain)
    } else {
      strainIdx = (b * 3) % 8
      sourcePlant = motherLabel(strainIdx)
    }
    const strain = STRAINS[strainIdx].name
    const daysAgo =
      g === 'mother' ? 220 + k * 22 : g === 'old' ? 115 + (3 - k) * 14 : g === 'flower' ? 48 + (7 - k) * 8 : g === 'veg' ? 20 + (5 - k) * 4.4 : 2 + (3 - k) * 4
    const planted = ago(ctx, daysAgo + ctx.rng.float(0, 2, 3))
    const room =
      g === 'mother' ? 'Mother Room' : g === 'untracked' ? 'Clone Room' : g === 'veg' ? `Veg Room ${1 + (k % 2)}` : `Flower Room ${1 + (k % 4)}`
    const name = BATCH_TAG_STATES.includes(ctx.facility.state)
      ? ctx.tag('plant', 501 + b)
      : `${initials(strain)}-${planted.slice(2, 10).replace(/-/g, '')}-${seed ? 'S' : 'C'}${String(b + 1).padStart(2, '0')}`
    const vegAfter = ctx.rng.float(14, 18, 3)
    const flipAfter = ctx.rng.float(24, 30, 3)
    // this batch's share of the group's plants
    const n = Math.floor(PLANTS_PER_GROUP[g] / BATCHES_PER_GROUP[g]) + (k < PLANTS_PER_GROUP[g] % BATCHES_PER_GROUP[g] ? 1 : 0)
    let latest = planted
    for (let j = 0; j < n; j++) {
      const i = plantNo++
      const label = ctx.tag('plant', 10_001 + i)
      const veg = plus(ctx, planted, vegAfter + ctx.rng.float(0, 0.2, 3))
      const flower = g === 'flower' || g === 'old' ? plus(ctx, veg, flipAfter + ctx.rng.float(0, 0.2, 3)) : undefined
      let state = 'Tracked'
      let harvested: string | undefined
      let destroyed: string | undefined
      if (g === 'old') {
        if (j % 4 === 3) {
          state = 'Destroyed'
          destroyed = plus(ctx, flower!, ctx.rng.float(5, 40, 3))
        } else {
          state = 'Harvested'
          harvested = plus(ctx, flower!, ctx.rng.float(56, 63, 3))
        }
      }
      const last = destroyed ?? harvested ?? flower ?? veg
      if (Date.parse(last) > Date.parse(latest)) latest = last
      info.push({ label, room, state, flowering: flower, destroyed })
      plants.push(
        doc(ctx, 'metrc_plants', i, {
          Id: 300_001 + i,
          Label: label,
          State: state,
          GrowthPhase: g === 'mother' ? 'Mother' : flower ? 'Flowering' : 'Vegetative',
          StrainName: strain,
          PlantBatchName: name,
          PlantBatchTypeName: seed ? 'Seed' : 'Clone',
          LocationName: room,
          PlantedDate: planted,
          VegetativeDate: veg,
          FloweringDate: flower,
          HarvestedDate: harvested,
          DestroyedDate: destroyed,
          IsOnHold: yn(state === 'Tracked' && ctx.rng.chance(0.01)),
          LastModified: touched(ctx, g === 'mother' ? ago(ctx, ctx.rng.int(3, 40)) : last, 6),
          IsUsed: yn(state === 'Tracked'),
        }),
      )
    }
    const untracked = g === 'untracked' ? ctx.rng.int(40, 100) : g === 'veg' ? ctx.rng.int(0, 12) : 0
    const retired = g === 'old' && k < 2
    batches.push(
      doc(ctx, 'metrc_plant_batches', b, {
        Id: 4101 + b,
        Name: name,
        PlantBatchTypeName: seed ? 'Seed' : 'Clone',
        StrainName: strain,
        LocationName: room,
        UntrackedCount: untracked,
        TrackedCount: n,
        PackagedCount: (g === 'veg' || g === 'untracked') && ctx.rng.chance(0.4) ? ctx.rng.int(10, 40) : 0,
        DestroyedCount: g === 'mother' ? 0 : ctx.rng.int(0, 5),
        SourcePackageLabel: sourcePackage,
        SourcePlantLabel: sourcePlant,
        PlantedDate: planted,
        IsOnHold: yn(b === 21),
        LastModified: touched(ctx, latest, 5),
        IsUsed: yn(!retired),
      }),
    )
  }
  return { batches, plants, info }
}

const MIXES = ['Soil', 'Compost', 'Sawdust', 'Kitty Litter', 'Coco Coir', 'Food Waste', 'Paper Waste']

/** 10 waste-mix records: 7 trimming/pruning runs and 3 destructions tied to destroyed plants. */
export function wmixRecords(ctx: SeedCtx, plants: PlantInfo[]): SeedDoc[] {
  const out: SeedDoc[] = []
  const destroyed = plants.filter((p) => p.destroyed)
  const reasons = ['Male Plants', 'Disease/Infestation', 'Contamination']
  for (let w = 0; w < 10; w++) {
    let date: string
    let labels: string[]
    let reason: string
    let room: string
    let weight: number
    if (w % 3 === 1 && destroyed.length) {
      const r = Math.floor(w / 3)
      const group = destroyed.filter((_, j) => j % 3 === r)
      labels = group.map((p) => p.label)
      date = group[0]?.destroyed ?? ago(ctx, 30)
      reason = reasons[r]
      room = group[0]?.room ?? 'Flower Room 1'
      weight = ctx.rng.float(2, 12, 2)
    } else {
      date = ago(ctx, 2 + w * 6 + ctx.rng.float(0, 3, 3))
      const room0 = `Flower Room ${1 + (w % 4)}`
      const eligible = plants.filter((p) => p.state === 'Tracked' && p.flowering && p.flowering < date && p.room === room0)
      const pool = eligible.length ? eligible : plants.filter((p) => p.state === 'Tracked' && p.flowering && p.flowering < date)
      labels = pool.slice(0, ctx.rng.int(6, 12)).map((p) => p.label)
      room = pool[0]?.room ?? room0
      reason = 'Trimming/Pruning'
      weight = ctx.rng.float(8, 40, 2)
    }
    const mix = ctx.rng.pick(MIXES)
    out.push(
      doc(ctx, 'metrc_wmix', w, {
        Id: 901 + w,
        WasteDate: date,
        WasteMethodName: w % 4 === 2 ? 'Compost' : 'Grinder',
        MixedMaterial: mix,
        WasteWeight: weight,
        UnitOfMeasureName: 'Pounds',
        ReasonName: reason,
        LocationName: room,
        PlantCount: labels.length,
        PlantLabels: labels.join(', '),
        Note: `Rendered unusable and unrecognizable; ground and mixed 50:50 with ${mix.toLowerCase()}. Witnessed by compliance.`,
        LastModified: touched(ctx, date, 2),
      }),
    )
  }
  return out
}
