/**
 * Plant batches (→ MetrcPlantBatches, MetrcPlantBatchTypes): lists, plantings (1–100 plants, a
 * known strain) and growth phase (n untracked plants become tracked plants on n unused plant tags
 * from StartingTag up).
 */
import { z } from 'zod'
import { requirePlants } from '../auth'
import { REF } from '../reference'
import { batchSizeAllowed, MAX_BATCH_PLANTS, sequentialTags, tagProblem, unitKind } from '../rules'
import { byName, day, missing, newId, num, same, useTag, write, zCount, zDate, zOpt, zText, type Family } from './kit'

const Planting = z.object({ Name: zText, Type: z.enum(['Seed', 'Clone']), Count: zCount, Strain: zText, Location: zOpt, PatientLicenseNumber: zOpt, ActualDate: zDate }).passthrough()
const Destroy = z
  .object({ PlantBatch: zText, Count: zCount, WasteMethodName: zOpt, WasteMaterialMixed: zOpt, WasteReasonName: zText, ReasonNote: zOpt, WasteWeight: z.number().min(0).nullish(), WasteUnitOfMeasure: zOpt, ActualDate: zDate })
  .passthrough()
const Split = z.object({ PlantBatch: zText, GroupName: zText, Count: zCount, Location: zOpt, Sublocation: zOpt, Strain: zOpt, PatientLicenseNumber: zOpt, ActualDate: zDate }).passthrough()
const Move = z.object({ Name: zText, Location: zText, Sublocation: zOpt, MoveDate: zDate }).passthrough()
/** untracked plants left in a batch after the earlier rows of the same body took theirs */
const untrackedLeft = (b: Record<string, unknown>, taken: number) => num(b.UntrackedCount) - taken
const GrowthPhase = z
  .object({ Id: z.number().int().nullish(), Name: zOpt, Count: zCount, StartingTag: zText, GrowthPhase: z.enum(['Vegetative', 'Flowering']), NewLocation: zText, GrowthDate: zDate })
  .passthrough()
  .refine((o) => typeof o.Id === 'number' || !!o.Name, { message: 'Name or Id is required', path: ['Name'] })

export const plantBatches: Family = {
  lists: {
    '/plantbatches/v2/active': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.plantBatches.filter((b) => num(b.UntrackedCount) > 0 || num(b.TrackedCount) > 0) },
    '/plantbatches/v2/inactive': { license: 'required', shape: 'paged', modified: true, plants: true, rows: (_s, f) => f!.plantBatches.filter((b) => num(b.UntrackedCount) === 0 && num(b.TrackedCount) === 0) },
    '/plantbatches/v2/types': { license: 'none', shape: 'paged', rows: () => REF.plantBatchTypes.map((t) => ({ ...t, LastModified: '2024-01-01T00:00:00+00:00' })) },
    '/plantbatches/v2/waste/reasons': { license: 'required', shape: 'paged', rows: () => REF.wasteReasons },
  },
  byId: { plantbatches: { plants: true, rows: (f) => f.plantBatches } },
  writes: {
    'POST /plantbatches/v2/plantings': write({
      schema: Planting,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        if (byName(ctx.f.plantBatches, o.Name) || earlier.some((e) => same(e.Name, o.Name))) err(`Plant Batch ${o.Name} already exists.`)
        if (!batchSizeAllowed(o.Count)) err(`Count must be a whole number from 1 to ${MAX_BATCH_PLANTS}.`)
        if (!byName(ctx.f.strains, o.Strain)) err(missing('Strain', o.Strain))
        if (o.Location && !byName(ctx.f.locations, o.Location)) err(missing('Location', o.Location))
      },
      apply: (o, ctx) => {
        const st = byName(ctx.f.strains, o.Strain)!
        st.IsUsed = true
        const loc = byName(ctx.f.locations, o.Location)
        const type = REF.plantBatchTypes.find((t) => t.Name === o.Type)!
        const Id = newId(ctx)
        ctx.f.plantBatches.push({ Id, Name: o.Name, PlantBatchTypeId: type.Id, PlantBatchTypeName: type.Name, LocationId: loc?.Id ?? null, LocationName: loc?.Name ?? null, StrainId: st.Id, StrainName: st.Name, PatientLicenseNumber: o.PatientLicenseNumber ?? null, UntrackedCount: o.Count, TrackedCount: 0, PackagedCount: 0, DestroyedCount: 0, PlantedDate: day(o.ActualDate), IsOnHold: false, LastModified: ctx.now })
        return Id
      },
    }),
    // destroying immature plants: the batch's untracked count goes down, with the waste METRC records
    'DELETE /plantbatches/v2': write({
      schema: Destroy,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const b = byName(ctx.f.plantBatches, o.PlantBatch)
        if (!b) return err(`Plant Batch ${o.PlantBatch} does not exist in the current Facility.`)
        const left = untrackedLeft(b, earlier.filter((e) => same(e.PlantBatch, o.PlantBatch)).reduce((s, e) => s + e.Count, 0))
        if (o.Count < 1 || o.Count > left) err(`Count must be from 1 to the batch's ${left} untracked plants.`)
        const reason = REF.wasteReasons.find((r) => same(r.Name, o.WasteReasonName))
        if (!reason) err(`Waste reason ${o.WasteReasonName} is not valid.`)
        else if (reason.RequiresNote && !o.ReasonNote) err(`Waste reason ${reason.Name} requires a note.`)
        else if (reason.RequiresWasteWeight && !(num(o.WasteWeight) > 0)) err(`Waste reason ${reason.Name} requires a waste weight.`)
        if (o.WasteMethodName && !REF.wasteMethods.some((m) => m.ForPlants && same(m.Name, o.WasteMethodName))) err(`Waste method ${o.WasteMethodName} is not valid for plants.`)
        if (num(o.WasteWeight) > 0 && unitKind(o.WasteUnitOfMeasure) !== 'WeightBased') err(`Unit of measure ${o.WasteUnitOfMeasure ?? ''} is not a weight.`)
      },
      apply: (o, ctx) => {
        const b = byName(ctx.f.plantBatches, o.PlantBatch)!
        Object.assign(b, { UntrackedCount: num(b.UntrackedCount) - o.Count, DestroyedCount: num(b.DestroyedCount) + o.Count, LastModified: ctx.now })
        return b.Id
      },
    }),
    // part of a batch becomes a batch of its own
    'POST /plantbatches/v2/split': write({
      schema: Split,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const b = byName(ctx.f.plantBatches, o.PlantBatch)
        if (!b) return err(`Plant Batch ${o.PlantBatch} does not exist in the current Facility.`)
        if (byName(ctx.f.plantBatches, o.GroupName) || earlier.some((e) => same(e.GroupName, o.GroupName))) err(`Plant Batch ${o.GroupName} already exists.`)
        const left = untrackedLeft(b, earlier.filter((e) => same(e.PlantBatch, o.PlantBatch)).reduce((s, e) => s + e.Count, 0))
        if (!batchSizeAllowed(o.Count) || o.Count > left) err(`Count must be from 1 to the batch's ${left} untracked plants.`)
        if (o.Location && !byName(ctx.f.locations, o.Location)) err(missing('Location', o.Location))
        if (o.Strain && !byName(ctx.f.strains, o.Strain)) err(missing('Strain', o.Strain))
      },
      apply: (o, ctx) => {
        const b = byName(ctx.f.plantBatches, o.PlantBatch)!
        const loc = byName(ctx.f.locations, o.Location) ?? ctx.f.locations.find((l) => l.Id === b.LocationId)
        const st = byName(ctx.f.strains, o.Strain) ?? ctx.f.strains.find((x) => x.Id === b.StrainId)
        Object.assign(b, { UntrackedCount: num(b.UntrackedCount) - o.Count, LastModified: ctx.now })
        const Id = newId(ctx)
        ctx.f.plantBatches.push({ Id, Name: o.GroupName, PlantBatchTypeId: b.PlantBatchTypeId, PlantBatchTypeName: b.PlantBatchTypeName, LocationId: loc?.Id ?? null, LocationName: loc?.Name ?? null, StrainId: st?.Id ?? null, StrainName: st?.Name ?? null, PatientLicenseNumber: o.PatientLicenseNumber ?? null, UntrackedCount: o.Count, TrackedCount: 0, PackagedCount: 0, DestroyedCount: 0, PlantedDate: day(o.ActualDate), SourcePlantBatchIds: [b.Id], SourcePlantBatchNames: b.Name, IsOnHold: false, LastModified: ctx.now })
        return Id
      },
    }),
    'PUT /plantbatches/v2/location': write({
      schema: Move,
      gate: requirePlants,
      check: (o, err, ctx) => {
        if (!byName(ctx.f.plantBatches, o.Name)) return err(`Plant Batch ${o.Name} does not exist in the current Facility.`)
        const loc = byName(ctx.f.locations, o.Location)
        if (!loc) err(missing('Location', o.Location))
        else if (loc.ForPlantBatches === false) err(`Location ${String(loc.Name)} cannot hold plant batches.`)
      },
      apply: (o, ctx) => {
        const b = byName(ctx.f.plantBatches, o.Name)!
        const loc = byName(ctx.f.locations, o.Location)!
        Object.assign(b, { LocationId: loc.Id, LocationName: loc.Name, LastModified: ctx.now })
        return b.Id
      },
    }),
    'POST /plantbatches/v2/growthphase': write({
      schema: GrowthPhase,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const b = typeof o.Id === 'number' ? ctx.f.plantBatches.find((x) => x.Id === o.Id) : byName(ctx.f.plantBatches, o.Name)
        if (!b) return err(`Plant Batch ${o.Name ?? o.Id} does not exist in the current Facility.`)
        const left = num(b.UntrackedCount) - earlier.filter((e) => same(e.Name, b.Name) || e.Id === b.Id).reduce((s, e) => s + e.Count, 0)
        if (o.Count < 1 || o.Count > left) err(`Count must be from 1 to the batch's ${left} untracked plants.`)
        if (!byName(ctx.f.locations, o.NewLocation)) err(missing('Location', o.NewLocation))
        const claimed = new Set(earlier.flatMap((e) => sequentialTags(e.StartingTag, e.Count)))
        const wanted = o.Count >= 1 && o.Count <= MAX_BATCH_PLANTS ? sequentialTags(o.StartingTag, o.Count) : [o.StartingTag]
        if (!wanted.length) return err(`Tag ${o.StartingTag} is not valid.`)
        for (const tag of wanted) {
          const t = tagProblem(tag, ctx.f.tags.plant, claimed)
          if (t) return err(t)
        }
      },
      apply: (o, ctx) => {
        const b = typeof o.Id === 'number' ? ctx.f.plantBatches.find((x) => x.Id === o.Id)! : byName(ctx.f.plantBatches, o.Name)!
        const loc = byName(ctx.f.locations, o.NewLocation)!
        for (const tag of sequentialTags(o.StartingTag, o.Count)) {
          useTag(ctx, 'plant', tag)
          ctx.f.plants.push({ Id: newId(ctx), Label: tag, State: 'Tracked', GrowthPhase: o.GrowthPhase, PlantBatchId: b.Id, PlantBatchName: b.Name, PlantBatchTypeId: b.PlantBatchTypeId, PlantBatchTypeName: b.PlantBatchTypeName, StrainId: b.StrainId, StrainName: b.StrainName, LocationId: loc.Id, LocationName: loc.Name, PlantedDate: b.PlantedDate, VegetativeDate: day(o.GrowthDate), FloweringDate: o.GrowthPhase === 'Flowering' ? day(o.GrowthDate) : null, HarvestCount: 0, IsOnHold: false, LastModified: ctx.now })
        }
        Object.assign(b, { UntrackedCount: num(b.UntrackedCount) - o.Count, TrackedCount: num(b.TrackedCount) + o.Count, LastModified: ctx.now })
        return b.Id
      },
    }),
  },
}
