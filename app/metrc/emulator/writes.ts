/**
 * The writes Canopy makes (reference §3, §4.7): every body is an array of at most 10 objects; every
 * row is checked first and all row errors come back together as `[{row, message}]` (400); only a
 * wholly valid body changes anything. Answers the new or touched records' Ids.
 */
import type { EmulatorState, FacilityData, License, Row } from './model'
import { REF } from './model'
import { convert, MAX_BATCH_PLANTS, phaseMoveAllowed, Refusal, sequentialTags, TAG_RE, unitKind } from './rules'

export interface WriteContext {
  state: EmulatorState
  f: FacilityData
  license: License
  now: string
}

type Obj = Record<string, unknown>
type Check = (row: Obj, i: number, err: (m: string) => void, ctx: WriteContext, earlier: Obj[]) => void
type Apply = (row: Obj, ctx: WriteContext) => number

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '')
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN)
const same = (a: unknown, b: string) => typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase()
const byName = (rows: Row[], name: unknown) => rows.find((r) => same(r.Name, str(name)))
const byLabel = (rows: Row[], label: unknown) => rows.find((r) => r.Label === str(label))
const byIdOrLabel = (rows: Row[], o: Obj) => (typeof o.Id === 'number' ? rows.find((r) => r.Id === o.Id) : byLabel(rows, o.Label))
const newId = (ctx: WriteContext) => ctx.state.nextId++
const date = (v: unknown) => (typeof v === 'string' && Number.isFinite(Date.parse(v)) ? v : null)

function useTag(ctx: WriteContext, kind: 'plant' | 'package', tag: string) {
  const i = ctx.f.tags[kind].indexOf(tag)
  ctx.f.tags[kind].splice(i, 1)
  ctx.f.usedTags.push(tag)
}
function tagProblem(ctx: WriteContext, kind: 'plant' | 'package', tag: string, taken: Set<string>): string | null {
  if (!TAG_RE.test(tag) || !ctx.f.tags[kind].includes(tag) || taken.has(tag)) return `Tag ${tag} is not valid.`
  return null
}

const plantsOnly = (ctx: WriteContext) => {
  if (!ctx.license.CanGrowPlants) throw new Refusal(403, `License ${ctx.license.Number} (${ctx.license.LicenseType}) cannot work with plants.`)
}

interface Op {
  check: Check
  apply: Apply
  /** a license-type gate run before the rows are read */
  gate?: (ctx: WriteContext) => void
}

const OPS: Record<string, Op> = {
  'POST /strains/v2': {
    check: (o, _i, err, ctx, earlier) => {
      if (!str(o.Name)) err('Name is required.')
      else if (byName(ctx.f.strains, o.Name) || earlier.some((e) => same(e.Name, str(o.Name)))) err(`Strain ${str(o.Name)} already exists.`)
    },
    apply: (o, ctx) => {
      const Id = newId(ctx)
      ctx.f.strains.push({ Id, Name: str(o.Name), TestingStatus: str(o.TestingStatus) || 'None', ThcLevel: num(o.ThcLevel) || null, CbdLevel: num(o.CbdLevel) || null, IndicaPercentage: num(o.IndicaPercentage) || 0, SativaPercentage: num(o.SativaPercentage) || 0, IsUsed: false, LastModified: ctx.now })
      return Id
    },
  },
  'POST /locations/v2': {
    check: (o, _i, err, ctx, earlier) => {
      if (!str(o.Name)) err('Name is required.')
      else if (byName(ctx.f.locations, o.Name) || earlier.some((e) => same(e.Name, str(o.Name)))) err(`Location ${str(o.Name)} already exists.`)
      if (!REF.locationTypes.some((t) => same(t.Name, str(o.LocationTypeName)))) err(`Location type ${str(o.LocationTypeName)} is not valid.`)
    },
    apply: (o, ctx) => {
      const t = REF.locationTypes.find((x) => same(x.Name, str(o.LocationTypeName)))!
      const Id = newId(ctx)
      ctx.f.locations.push({ Id, Name: str(o.Name), LocationTypeId: t.Id, LocationTypeName: t.Name, ForPlantBatches: t.ForPlantBatches, ForPlants: t.ForPlants, ForHarvests: t.ForHarvests, ForPackages: t.ForPackages, LastModified: ctx.now })
      return Id
    },
  },
  'POST /items/v2': {
    check: (o, _i, err, ctx, earlier) => {
      if (!str(o.Name)) err('Name is required.')
      else if (byName(ctx.f.items, o.Name) || earlier.some((e) => same(e.Name, str(o.Name)))) err(`Item ${str(o.Name)} already exists.`)
      const cat = REF.itemCategories.find((c) => same(c.Name, str(o.ItemCategory)))
      if (!cat) return err(`The Product Category "${str(o.ItemCategory)}" is invalid.`)
      const kind = unitKind(o.UnitOfMeasure)
      if (!kind) err(`Unit of measure ${str(o.UnitOfMeasure)} is not valid.`)
      else if (kind !== cat.QuantityType) err(`Unit of measure ${str(o.UnitOfMeasure)} does not match the category's ${cat.QuantityType} quantity type.`)
      if (cat.RequiresStrain && !byName(ctx.f.strains, o.Strain)) err(`Strain ${str(o.Strain)} does not exist in the current Facility.`)
    },
    apply: (o, ctx) => {
      const cat = REF.itemCategories.find((c) => same(c.Name, str(o.ItemCategory)))!
      const st = byName(ctx.f.strains, o.Strain)
      const Id = newId(ctx)
      ctx.f.items.push({ Id, Name: str(o.Name), ProductCategoryName: cat.Name, ProductCategoryType: cat.ProductCategoryType, QuantityType: cat.QuantityType, UnitOfMeasureName: REF.unitsOfMeasure.find((u) => same(u.Name, str(o.UnitOfMeasure)) || u.Abbreviation === o.UnitOfMeasure)!.Name, DefaultLabTestingState: 'NotSubmitted', ApprovalStatus: 'Approved', StrainId: st?.Id ?? null, StrainName: st?.Name ?? null, IsUsed: false, LastModified: ctx.now })
      return Id
    },
  },
  'POST /packages/v2': {
    check: (o, _i, err, ctx, earlier) => {
      const tag = str(o.Tag)
      const taken = new Set(earlier.map((e) => str(e.Tag)))
      const t = tagProblem(ctx, 'package', tag, taken)
      if (t) err(t)
      const item = byName(ctx.f.items, o.Item)
      if (!item) return err(`Item ${str(o.Item)} does not exist in the current Facility.`)
      if (!(num(o.Quantity) > 0)) err('Quantity must be more than 0.')
      const kind = unitKind(o.UnitOfMeasure)
      if (!kind) err(`Unit of measure ${str(o.UnitOfMeasure)} is not valid.`)
      else if (kind !== item.QuantityType) err(`Unit of measure ${str(o.UnitOfMeasure)} cannot be used with item ${str(item.Name)} (${String(item.QuantityType)}).`)
      if (o.Location !== undefined && o.Location !== null && !byName(ctx.f.locations, o.Location)) err(`Location ${str(o.Location)} does not exist in the current Facility.`)
      if (!date(o.ActualDate)) err('ActualDate is required.')
      for (const ing of Array.isArray(o.Ingredients) ? (o.Ingredients as Obj[]) : []) {
        const src = byLabel(ctx.f.packages, ing.Package)
        if (!src || src.IsFinished || src.IsOnHold) err(`Package ${str(ing.Package)} is not an active package in the current Facility.`)
        else if (unitKind(ing.UnitOfMeasure) !== unitKind(src.UnitOfMeasureName)) err(`Unit of measure ${str(ing.UnitOfMeasure)} does not match package ${str(src.Label)}.`)
        else if (convert(num(ing.Quantity), REF.unitsOfMeasure.find((u) => same(u.Name, str(ing.UnitOfMeasure)) || u.Abbreviation === ing.UnitOfMeasure)!.Name, String(src.UnitOfMeasureName)) > num(src.Quantity)) err(`Package ${str(src.Label)} does not hold that much.`)
      }
    },
    apply: (o, ctx) => {
      const item = byName(ctx.f.items, o.Item)!
      const unit = REF.unitsOfMeasure.find((u) => same(u.Name, str(o.UnitOfMeasure)) || u.Abbreviation === o.UnitOfMeasure)!
      for (const ing of Array.isArray(o.Ingredients) ? (o.Ingredients as Obj[]) : []) {
        const src = byLabel(ctx.f.packages, ing.Package)!
        const u = REF.unitsOfMeasure.find((x) => same(x.Name, str(ing.UnitOfMeasure)) || x.Abbreviation === ing.UnitOfMeasure)!.Name
        src.Quantity = Math.round((num(src.Quantity) - convert(num(ing.Quantity), u, String(src.UnitOfMeasureName))) * 10_000) / 10_000
        src.LastModified = ctx.now
      }
      useTag(ctx, 'package', str(o.Tag))
      const loc = byName(ctx.f.locations, o.Location)
      const Id = newId(ctx)
      ctx.f.packages.push({ Id, Label: str(o.Tag), PackageType: 'Product', ItemId: item.Id, ItemName: item.Name, ItemCategoryName: item.ProductCategoryName, ItemStrainName: item.StrainName, Quantity: num(o.Quantity), OriginalPackageQuantity: num(o.Quantity), UnitOfMeasureName: unit.Name, UnitOfMeasureAbbreviation: unit.Abbreviation, LocationId: loc?.Id ?? null, LocationName: loc?.Name ?? null, PackagedDate: String(o.ActualDate).slice(0, 10), LabTestingState: 'NotSubmitted', IsOnHold: false, IsFinished: false, FinishedDate: null, ArchivedDate: null, Note: str(o.Note), LastModified: ctx.now })
      return Id
    },
  },
  'POST /packages/v2/adjust': {
    check: (o, _i, err, ctx) => {
      const p = byLabel(ctx.f.packages, o.Label)
      if (!p || p.IsFinished) return err(`Package ${str(o.Label)} is not an active package in the current Facility.`)
      const reason = REF.adjustReasons.find((r) => same(r.Name, str(o.AdjustmentReason)))
      if (!reason) err(`Adjustment reason ${str(o.AdjustmentReason)} is not valid.`)
      else if (reason.RequiresNote && !str(o.ReasonNote)) err(`Adjustment reason ${reason.Name} requires a note.`)
      if (!Number.isFinite(num(o.Quantity)) || num(o.Quantity) === 0) err('Quantity must be a non-zero number (the change).')
      const kind = unitKind(o.UnitOfMeasure)
      if (!kind || kind !== unitKind(p.UnitOfMeasureName)) return err(`Unit of measure ${str(o.UnitOfMeasure)} does not match package ${str(p.Label)} (${String(p.UnitOfMeasureName)}).`)
      const unit = REF.unitsOfMeasure.find((u) => same(u.Name, str(o.UnitOfMeasure)) || u.Abbreviation === o.UnitOfMeasure)!.Name
      if (num(p.Quantity) + convert(num(o.Quantity), unit, String(p.UnitOfMeasureName)) < 0) err(`Package ${str(p.Label)} cannot go below zero.`)
      if (!date(o.AdjustmentDate)) err('AdjustmentDate is required.')
    },
    apply: (o, ctx) => {
      const p = byLabel(ctx.f.packages, o.Label)!
      const unit = REF.unitsOfMeasure.find((u) => same(u.Name, str(o.UnitOfMeasure)) || u.Abbreviation === o.UnitOfMeasure)!.Name
      p.Quantity = Math.round((num(p.Quantity) + convert(num(o.Quantity), unit, String(p.UnitOfMeasureName))) * 10_000) / 10_000
      p.LastModified = ctx.now
      return p.Id
    },
  },
  'PUT /packages/v2/finish': {
    check: (o, _i, err, ctx) => {
      const p = byLabel(ctx.f.packages, o.Label)
      if (!p || p.IsFinished) return err(`Package ${str(o.Label)} is not an active package in the current Facility.`)
      if (num(p.Quantity) !== 0) err(`Package ${str(p.Label)} still holds ${String(p.Quantity)} ${String(p.UnitOfMeasureAbbreviation)}; adjust it to zero first.`)
      if (!date(o.ActualDate)) err('ActualDate is required.')
    },
    apply: (o, ctx) => {
      const p = byLabel(ctx.f.packages, o.Label)!
      Object.assign(p, { IsFinished: true, FinishedDate: String(o.ActualDate).slice(0, 10), ArchivedDate: String(o.ActualDate).slice(0, 10), LastModified: ctx.now })
      return p.Id
    },
  },
  'POST /plantbatches/v2/plantings': {
    gate: plantsOnly,
    check: (o, _i, err, ctx, earlier) => {
      if (!str(o.Name)) err('Name is required.')
      else if (byName(ctx.f.plantBatches, o.Name) || earlier.some((e) => same(e.Name, str(o.Name)))) err(`Plant Batch ${str(o.Name)} already exists.`)
      if (o.Type !== 'Seed' && o.Type !== 'Clone') err('Type must be Seed or Clone.')
      const n = num(o.Count)
      if (!Number.isInteger(n) || n < 1 || n > MAX_BATCH_PLANTS) err(`Count must be a whole number from 1 to ${MAX_BATCH_PLANTS}.`)
      if (!byName(ctx.f.strains, o.Strain)) err(`Strain ${str(o.Strain)} does not exist in the current Facility.`)
      if (o.Location !== undefined && !byName(ctx.f.locations, o.Location)) err(`Location ${str(o.Location)} does not exist in the current Facility.`)
      if (!date(o.ActualDate)) err('ActualDate is required.')
    },
    apply: (o, ctx) => {
      const st = byName(ctx.f.strains, o.Strain)!
      const loc = byName(ctx.f.locations, o.Location)
      const type = REF.plantBatchTypes.find((t) => t.Name === o.Type)!
      const Id = newId(ctx)
      ctx.f.plantBatches.push({ Id, Name: str(o.Name), PlantBatchTypeId: type.Id, PlantBatchTypeName: type.Name, LocationId: loc?.Id ?? null, LocationName: loc?.Name ?? null, StrainId: st.Id, StrainName: st.Name, UntrackedCount: num(o.Count), TrackedCount: 0, PackagedCount: 0, DestroyedCount: 0, PlantedDate: String(o.ActualDate).slice(0, 10), IsOnHold: false, LastModified: ctx.now })
      return Id
    },
  },
  'POST /plantbatches/v2/growthphase': {
    gate: plantsOnly,
    check: (o, _i, err, ctx, earlier) => {
      const b = typeof o.Id === 'number' ? ctx.f.plantBatches.find((x) => x.Id === o.Id) : byName(ctx.f.plantBatches, o.Name)
      if (!b) return err(`Plant Batch ${str(o.Name) || String(o.Id)} does not exist in the current Facility.`)
      const n = num(o.Count)
      const already = earlier.filter((e) => same(e.Name, str(b.Name))).reduce((s, e) => s + num(e.Count), 0)
      if (!Number.isInteger(n) || n < 1 || n > num(b.UntrackedCount) - already) err(`Count must be from 1 to the batch's ${num(b.UntrackedCount) - already} untracked plants.`)
      if (o.GrowthPhase !== 'Vegetative' && o.GrowthPhase !== 'Flowering') err('GrowthPhase must be Vegetative or Flowering.')
      if (!byName(ctx.f.locations, o.NewLocation)) err(`Location ${str(o.NewLocation)} does not exist in the current Facility.`)
      if (!date(o.GrowthDate)) err('GrowthDate is required.')
      const taken = new Set(earlier.flatMap((e) => sequentialTags(str(e.StartingTag), num(e.Count) || 0)))
      for (const tag of Number.isInteger(n) && n > 0 && n <= MAX_BATCH_PLANTS ? sequentialTags(str(o.StartingTag), n) : [str(o.StartingTag)]) {
        const t = tagProblem(ctx, 'plant', tag, taken)
        if (t) return err(t)
      }
    },
    apply: (o, ctx) => {
      const b = typeof o.Id === 'number' ? ctx.f.plantBatches.find((x) => x.Id === o.Id)! : byName(ctx.f.plantBatches, o.Name)!
      const loc = byName(ctx.f.locations, o.NewLocation)!
      const n = num(o.Count)
      for (const tag of sequentialTags(str(o.StartingTag), n)) {
        useTag(ctx, 'plant', tag)
        ctx.f.plants.push({ Id: newId(ctx), Label: tag, State: 'Tracked', GrowthPhase: o.GrowthPhase, PlantBatchId: b.Id, PlantBatchName: b.Name, PlantBatchTypeId: b.PlantBatchTypeId, PlantBatchTypeName: b.PlantBatchTypeName, StrainId: b.StrainId, StrainName: b.StrainName, LocationId: loc.Id, LocationName: loc.Name, PlantedDate: b.PlantedDate, VegetativeDate: String(o.GrowthDate).slice(0, 10), FloweringDate: o.GrowthPhase === 'Flowering' ? String(o.GrowthDate).slice(0, 10) : null, HarvestCount: 0, IsOnHold: false, LastModified: ctx.now })
      }
      Object.assign(b, { UntrackedCount: num(b.UntrackedCount) - n, TrackedCount: num(b.TrackedCount) + n, LastModified: ctx.now })
      return b.Id
    },
  },
  'PUT /plants/v2/growthphase': {
    gate: plantsOnly,
    check: (o, _i, err, ctx) => {
      const p = byIdOrLabel(ctx.f.plants, o)
      if (!p || p.State !== 'Tracked') return err(`Plant ${str(o.Label) || String(o.Id)} is not a tracked plant in the current Facility.`)
      if (!phaseMoveAllowed(p.GrowthPhase, o.GrowthPhase)) err(`Plant ${str(p.Label)} cannot move from ${String(p.GrowthPhase)} to ${str(o.GrowthPhase)}.`)
      if (!byName(ctx.f.locations, o.NewLocation)) err(`Location ${str(o.NewLocation)} does not exist in the current Facility.`)
      if (!date(o.GrowthDate)) err('GrowthDate is required.')
    },
    apply: (o, ctx) => {
      const p = byIdOrLabel(ctx.f.plants, o)!
      const loc = byName(ctx.f.locations, o.NewLocation)!
      Object.assign(p, { GrowthPhase: o.GrowthPhase, LocationId: loc.Id, LocationName: loc.Name, ...(o.GrowthPhase === 'Flowering' ? { FloweringDate: String(o.GrowthDate).slice(0, 10) } : {}), LastModified: ctx.now })
      return p.Id
    },
  },
  'POST /plants/v2/waste': {
    gate: plantsOnly,
    check: (o, _i, err, ctx) => {
      const reason = REF.wasteReasons.find((r) => same(r.Name, str(o.ReasonName)))
      if (!reason) err(`Waste reason ${str(o.ReasonName)} is not valid.`)
      if (!REF.wasteMethods.some((m) => m.ForPlants && same(m.Name, str(o.WasteMethodName)))) err(`Waste method ${str(o.WasteMethodName)} is not valid for plants.`)
      if (unitKind(o.UnitOfMeasureName) !== 'WeightBased') err(`Unit of measure ${str(o.UnitOfMeasureName)} is not a weight.`)
      if (!(num(o.WasteWeight) > 0) && (reason?.RequiresWasteWeight ?? true)) err('WasteWeight must be more than 0.')
      if (reason?.RequiresNote && !str(o.Note)) err(`Waste reason ${reason.Name} requires a note.`)
      if (!date(o.WasteDate)) err('WasteDate is required.')
      const labels = Array.isArray(o.PlantLabels) ? o.PlantLabels : []
      for (const l of labels) if (!byLabel(ctx.f.plants, l)) return err(`Plant ${String(l)} does not exist in the current Facility.`)
    },
    apply: (o, ctx) => {
      const Id = newId(ctx)
      ctx.f.plantWaste.push({ Id, WasteMethodName: str(o.WasteMethodName), MixedMaterial: str(o.MixedMaterial), WasteWeight: num(o.WasteWeight), UnitOfMeasureName: str(o.UnitOfMeasureName), ReasonName: str(o.ReasonName), Note: str(o.Note), WasteDate: str(o.WasteDate), PlantLabels: Array.isArray(o.PlantLabels) ? o.PlantLabels : [], LastModified: ctx.now })
      return Id
    },
  },
  'DELETE /plants/v2': {
    gate: plantsOnly,
    check: (o, _i, err, ctx) => {
      const p = byIdOrLabel(ctx.f.plants, o)
      if (!p || p.State !== 'Tracked') return err(`Plant ${str(o.Label) || String(o.Id)} is not a tracked plant in the current Facility.`)
      if (!REF.wasteReasons.some((r) => same(r.Name, str(o.WasteReasonName)))) err(`Waste reason ${str(o.WasteReasonName)} is not valid.`)
      if (!date(o.ActualDate)) err('ActualDate is required.')
    },
    apply: (o, ctx) => {
      const p = byIdOrLabel(ctx.f.plants, o)!
      Object.assign(p, { State: 'Destroyed', DestroyedDate: String(o.ActualDate).slice(0, 10), DestroyedNote: str(o.ReasonNote), LastModified: ctx.now })
      return p.Id
    },
  },
  'PUT /plants/v2/harvest': {
    gate: plantsOnly,
    check: (o, _i, err, ctx) => {
      const p = byLabel(ctx.f.plants, o.Plant)
      if (!p || p.State !== 'Tracked') return err(`Plant ${str(o.Plant)} is not a tracked plant in the current Facility.`)
      if (p.GrowthPhase !== 'Flowering') err(`Plant ${str(p.Label)} is not flowering and cannot be harvested.`)
      if (!(num(o.Weight) > 0)) err('Weight must be more than 0.')
      if (unitKind(o.UnitOfWeight) !== 'WeightBased') err(`Unit ${str(o.UnitOfWeight)} is not a weight.`)
      if (!byName(ctx.f.locations, o.DryingLocation)) err(`Location ${str(o.DryingLocation)} does not exist in the current Facility.`)
      if (!date(o.ActualDate)) err('ActualDate is required.')
    },
    apply: (o, ctx) => {
      const p = byLabel(ctx.f.plants, o.Plant)!
      const name = str(o.HarvestName) || `${String(o.ActualDate).slice(0, 10)}-${str(o.DryingLocation)}-H`
      let h = byName(ctx.f.harvests, name)
      const loc = byName(ctx.f.locations, o.DryingLocation)!
      const unit = REF.unitsOfMeasure.find((u) => same(u.Name, str(o.UnitOfWeight)) || u.Abbreviation === o.UnitOfWeight)!.Name
      if (!h) ctx.f.harvests.push((h = { Id: newId(ctx), Name: name, HarvestType: 'WholePlant', DryingLocationId: loc.Id, DryingLocationName: loc.Name, HarvestStartDate: String(o.ActualDate).slice(0, 10), PlantCount: 0, TotalWetWeight: 0, UnitOfWeightName: 'Grams', LastModified: ctx.now }))
      Object.assign(h, { PlantCount: num(h.PlantCount) + 1, TotalWetWeight: Math.round((num(h.TotalWetWeight) + convert(num(o.Weight), unit, 'Grams')) * 10_000) / 10_000, LastModified: ctx.now })
      Object.assign(p, { State: 'Harvested', HarvestId: h.Id, HarvestedDate: String(o.ActualDate).slice(0, 10), HarvestedWetWeight: num(o.Weight), HarvestCount: 1, LastModified: ctx.now })
      return h.Id
    },
  },
}
OPS['PUT /packages/v2/adjust'] = OPS['POST /packages/v2/adjust']

export const WRITE_PATHS = Object.keys(OPS)

export function hasWrite(method: string, path: string): boolean {
  return `${method} ${path}` in OPS
}

/** Runs one write body; answers the Ids (v2's WriteResponse) or throws a Refusal. */
export function runWrite(method: string, path: string, body: unknown, ctx: WriteContext): { Ids: number[]; Warnings: null } {
  const op = OPS[`${method} ${path}`]
  op.gate?.(ctx)
  if (!Array.isArray(body)) throw new Refusal(400, 'The request body must be a JSON array of objects.', [{ row: 0, message: 'The request body must be a JSON array of objects.' }])
  if (body.length === 0) throw new Refusal(400, 'The request body is empty.', [{ row: 0, message: 'The request body is empty.' }])
  if (body.length > 10) throw new Refusal(413, `At most 10 objects may be sent in one request; this one has ${body.length}.`)
  const rows: Array<{ row: number; message: string }> = []
  const earlier: Obj[] = []
  body.forEach((raw, i) => {
    const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Obj) : null
    if (!o) return rows.push({ row: i, message: 'Each row must be a JSON object.' })
    op.check(o, i, (message) => rows.push({ row: i, message }), ctx, earlier)
    earlier.push(o)
  })
  if (rows.length) throw new Refusal(400, rows.map((r) => r.message).join(' '), rows)
  return { Ids: (body as Obj[]).map((o) => op.apply(o, ctx)), Warnings: null }
}
