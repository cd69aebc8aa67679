/**
 * Plant batches (→ MetrcPlantBatches, MetrcPlantBatchTypes): lists, plantings (1–100 plants, a
 * known strain) and growth phase (n untracked plants become tracked plants on n unused plant tags
 * from StartingTag up).
 */
import { z } from 'zod'
import { requirePlants } from '../auth'
import { REF } from '../reference'
import { batchSizeAllowed, MAX_BATCH_PLANTS, sequentialTags, tagProblem } from '../rules'
import { byName, day, missing, newId, num, same, useTag, write, zCount, zDate, zOpt, zText, type Family } from './kit'

const Planting = z.object({ Name: zText, Type: z.enum(['Seed', 'Clone']), Count: zCount, Strain: zText, Location: zOpt, PatientLicenseNumber: zOpt, ActualDate: zDate }).passthrough()
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
