/**
 * Harvests (→ MetrcHarvests, MetrcHarvestWasteType): lists, packages from a harvest (a new package
 * tag, a weight-based item; the weights come off the harvest's current weight) and harvest waste.
 */
import { z } from 'zod'
import { requirePlants } from '../auth'
import { REF } from '../reference'
import { tagProblem, unitKind, unitName } from '../rules'
import { byName, day, inUnit, missing, newId, num, round4, same, unitAbbrev, useTag, write, zBool, zDate, zNumber, zOpt, zText, type Family, type WriteContext } from './kit'

const Ingredient = z
  .object({ HarvestId: z.number().int().nullish(), HarvestName: zOpt, Weight: zNumber.positive('must be more than 0'), UnitOfWeight: zText })
  .passthrough()
  .refine((o) => typeof o.HarvestId === 'number' || !!o.HarvestName, { message: 'HarvestId or HarvestName is required', path: ['HarvestName'] })
const Package = z.object({ Tag: zText, Location: zOpt, Item: zText, UnitOfWeight: zText, Note: zOpt, IsProductionBatch: zBool, IsDonation: zBool, IsTradeSample: zBool, ProductRequiresRemediation: zBool, ActualDate: zDate, Ingredients: z.array(Ingredient).min(1).max(100) }).passthrough()
const Finish = z.object({ Id: z.number().int(), ActualDate: zDate }).passthrough()
const Unfinish = z.object({ Id: z.number().int() }).passthrough()
const Waste = z.object({ Id: z.number().int(), WasteType: zText, UnitOfWeight: zText, WasteWeight: zNumber.positive('must be more than 0'), ActualDate: zDate }).passthrough()

type Ing = z.infer<typeof Ingredient>
const harvestOf = (ctx: WriteContext, i: { HarvestId?: number | null; HarvestName?: string | null }) => (typeof i.HarvestId === 'number' ? ctx.f.harvests.find((h) => h.Id === i.HarvestId) : byName(ctx.f.harvests, i.HarvestName))
const current = (h: Record<string, unknown>) => num(h.CurrentWeight ?? h.TotalWetWeight)
/** grams already taken from `h` by earlier rows of the same body */
const takenBefore = (ctx: WriteContext, h: Record<string, unknown>, earlier: Ing[][]) => earlier.flat().filter((i) => harvestOf(ctx, i) === h).reduce((s, i) => s + (unitKind(i.UnitOfWeight) === 'WeightBased' ? inUnit(i.Weight, i.UnitOfWeight, String(h.UnitOfWeightName)) : 0), 0)

export const harvests: Family = {
  lists: {
    '/harvests/v2/active': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.harvests.filter((h) => !h.FinishedDate && !h.IsOnHold) },
    '/harvests/v2/onhold': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.harvests.filter((h) => !h.FinishedDate && h.IsOnHold) },
    '/harvests/v2/inactive': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.harvests.filter((h) => !!h.FinishedDate) },
    '/harvests/v2/waste/types': { license: 'none', shape: 'paged', rows: () => REF.harvestWasteTypes },
    '/harvests/v2/waste': { license: 'required', shape: 'paged', plants: true, rows: (_s, f, q) => f!.harvestWaste.filter((w) => !q.get('harvestId') || String(w.HarvestId) === q.get('harvestId')) },
  },
  byId: { harvests: { plants: true, rows: (f) => f.harvests } },
  writes: {
    'POST /harvests/v2/packages': write({
      schema: Package,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const t = tagProblem(o.Tag, ctx.f.tags.package, new Set(earlier.map((e) => e.Tag)))
        if (t) err(t)
        const item = byName(ctx.f.items, o.Item)
        if (!item) err(missing('Item', o.Item))
        else if (item.QuantityType !== 'WeightBased') err(`Item ${String(item.Name)} is ${String(item.QuantityType)} and cannot be packaged from a harvest by weight.`)
        if (unitKind(o.UnitOfWeight) !== 'WeightBased') err(`Unit ${o.UnitOfWeight} is not a weight.`)
        if (o.Location && !byName(ctx.f.locations, o.Location)) err(missing('Location', o.Location))
        o.Ingredients.forEach((i, k) => {
          const h = harvestOf(ctx, i)
          if (!h || h.FinishedDate) return err(`Harvest ${i.HarvestName ?? i.HarvestId} is not an active harvest in the current Facility.`)
          if (unitKind(i.UnitOfWeight) !== 'WeightBased') return err(`Unit ${i.UnitOfWeight} is not a weight.`)
          const before = takenBefore(ctx, h, [...earlier.map((e) => e.Ingredients), o.Ingredients.slice(0, k)])
          if (before + inUnit(i.Weight, i.UnitOfWeight, String(h.UnitOfWeightName)) > current(h) + 1e-9) err(`Harvest ${String(h.Name)} does not hold that much (${current(h) - before} ${String(h.UnitOfWeightName)} left).`)
        })
      },
      apply: (o, ctx) => {
        const item = byName(ctx.f.items, o.Item)!
        const unit = unitName(o.UnitOfWeight)!
        let qty = 0
        for (const i of o.Ingredients) {
          const h = harvestOf(ctx, i)!
          const w = inUnit(i.Weight, i.UnitOfWeight, String(h.UnitOfWeightName))
          Object.assign(h, { CurrentWeight: round4(current(h) - w), TotalPackagedWeight: round4(num(h.TotalPackagedWeight) + w), PackageCount: num(h.PackageCount) + 1, LastModified: ctx.now })
          qty += inUnit(i.Weight, i.UnitOfWeight, unit)
        }
        useTag(ctx, 'package', o.Tag)
        item.IsUsed = true
        const loc = byName(ctx.f.locations, o.Location)
        const Id = newId(ctx)
        ctx.f.packages.push({ Id, Label: o.Tag, PackageType: 'Product', ItemId: item.Id, ItemName: item.Name, ItemCategoryName: item.ProductCategoryName, ItemStrainName: item.StrainName, Quantity: round4(qty), OriginalPackageQuantity: round4(qty), UnitOfMeasureName: unit, UnitOfMeasureAbbreviation: unitAbbrev(unit), LocationId: loc?.Id ?? null, LocationName: loc?.Name ?? null, SourceHarvestNames: o.Ingredients.map((i) => String(harvestOf(ctx, i)!.Name)).join(', '), SourceHarvestCount: o.Ingredients.length, PackagedDate: day(o.ActualDate), LabTestingState: 'NotSubmitted', IsOnHold: false, IsFinished: false, FinishedDate: null, ArchivedDate: null, Note: o.Note ?? '', LastModified: ctx.now })
        return Id
      },
    }),
    'PUT /harvests/v2/finish': write({
      schema: Finish,
      gate: requirePlants,
      check: (o, err, ctx) => {
        const h = ctx.f.harvests.find((x) => x.Id === o.Id)
        if (!h || h.FinishedDate) err(`Harvest ${o.Id} is not an active harvest in the current Facility.`)
      },
      apply: (o, ctx) => {
        const h = ctx.f.harvests.find((x) => x.Id === o.Id)!
        Object.assign(h, { FinishedDate: day(o.ActualDate), LastModified: ctx.now })
        return h.Id
      },
    }),
    'PUT /harvests/v2/unfinish': write({
      schema: Unfinish,
      gate: requirePlants,
      check: (o, err, ctx) => {
        const h = ctx.f.harvests.find((x) => x.Id === o.Id)
        if (!h || !h.FinishedDate) err(`Harvest ${o.Id} is not a finished harvest in the current Facility.`)
      },
      apply: (o, ctx) => {
        const h = ctx.f.harvests.find((x) => x.Id === o.Id)!
        Object.assign(h, { FinishedDate: null, LastModified: ctx.now })
        return h.Id
      },
    }),
    'POST /harvests/v2/waste': write({
      schema: Waste,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const h = ctx.f.harvests.find((x) => x.Id === o.Id)
        if (!h || h.FinishedDate) return err(`Harvest ${o.Id} is not an active harvest in the current Facility.`)
        if (!REF.harvestWasteTypes.some((t) => same(t.Name, o.WasteType))) err(`Waste type ${o.WasteType} is not valid.`)
        if (unitKind(o.UnitOfWeight) !== 'WeightBased') return err(`Unit ${o.UnitOfWeight} is not a weight.`)
        const before = earlier.filter((e) => e.Id === o.Id && unitKind(e.UnitOfWeight) === 'WeightBased').reduce((s, e) => s + inUnit(e.WasteWeight, e.UnitOfWeight, String(h.UnitOfWeightName)), 0)
        if (before + inUnit(o.WasteWeight, o.UnitOfWeight, String(h.UnitOfWeightName)) > current(h) + 1e-9) err(`Harvest ${String(h.Name)} does not hold that much.`)
      },
      apply: (o, ctx) => {
        const h = ctx.f.harvests.find((x) => x.Id === o.Id)!
        const w = inUnit(o.WasteWeight, o.UnitOfWeight, String(h.UnitOfWeightName))
        Object.assign(h, { CurrentWeight: round4(current(h) - w), TotalWasteWeight: round4(num(h.TotalWasteWeight) + w), LastModified: ctx.now })
        const Id = newId(ctx)
        ctx.f.harvestWaste.push({ Id, HarvestId: h.Id, WasteTypeName: REF.harvestWasteTypes.find((t) => same(t.Name, o.WasteType))!.Name, WasteWeight: o.WasteWeight, UnitOfWeightName: unitName(o.UnitOfWeight), ActualDate: day(o.ActualDate), LastModified: ctx.now })
        return Id
      },
    }),
  },
}
