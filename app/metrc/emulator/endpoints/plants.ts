/**
 * Plants (→ MetrcPlants, MetrcPlantGrowth, MetrcWasteReasons, MetrcWasteMethods, MetrcAddTypes):
 * lists, growth phase (one way: Vegetative → Flowering), move (to a location for plants), strain
 * (an active strain), waste (a reason, a method for plants, a weight), destroy, harvest (from
 * Flowering only).
 */
import { z } from 'zod'
import { requirePlants } from '../auth'
import { REF } from '../reference'
import { batchSizeAllowed, MAX_BATCH_PLANTS, phaseMoveAllowed, unitKind, unitName } from '../rules'
import { byIdOrLabel, byLabel, byName, day, inUnit, missing, newId, num, round4, same, write, zCount, zDate, zNumber, zOpt, zText, type Family } from './kit'
import { plantWasteWire, plantWire } from '../wire'

const IdOrLabel = { Id: z.number().int().nullish(), Label: zOpt }
const idOrLabel = (o: { Id?: number | null; Label?: string | null }) => typeof o.Id === 'number' || !!o.Label
const needsOne = { message: 'Id or Label is required', path: ['Label'] }
const Phase = z.object({ ...IdOrLabel, GrowthPhase: zText, NewLocation: zText, GrowthDate: zDate }).passthrough().refine(idOrLabel, needsOne)
const Move = z.object({ ...IdOrLabel, Location: zText, Sublocation: zOpt, ActualDate: zDate }).passthrough().refine(idOrLabel, needsOne)
const Strain = z.object({ ...IdOrLabel, StrainName: zText }).passthrough().refine(idOrLabel, needsOne)
const Waste = z.object({ WasteMethodName: zText, MixedMaterial: zOpt, WasteWeight: zNumber.min(0), UnitOfMeasureName: zText, ReasonName: zText, Note: zOpt, LocationName: zOpt, SublocationName: zOpt, WasteDate: zDate, PlantLabels: z.array(z.string()).max(100).default([]) }).passthrough()
const Destroy = z.object({ ...IdOrLabel, WasteMethodName: zOpt, WasteMaterialMixed: zOpt, WasteWeight: zNumber.min(0).nullish(), WasteUnitOfMeasureName: zOpt, WasteReasonName: zText, Count: zCount.min(0).nullish(), ReasonNote: zOpt, ActualDate: zDate }).passthrough().refine(idOrLabel, needsOne)
const Planting = z.object({ PlantLabel: zText, PlantBatchName: zText, PlantBatchType: z.enum(['Seed', 'Clone']), PlantCount: zCount, LocationName: zOpt, SublocationName: zOpt, StrainName: zText, PatientLicenseNumber: zOpt, ActualDate: zDate }).passthrough()
const Harvest = z.object({ Plant: zText, Weight: zNumber.positive('must be more than 0'), UnitOfWeight: zText, DryingLocation: zText, HarvestName: zOpt, ActualDate: zDate }).passthrough()

const notTracked = (o: { Id?: number | null; Label?: string | null }) => `Plant ${o.Label ?? o.Id} is not a tracked plant in the current Facility.`
const reason = (name: string) => REF.wasteReasons.find((r) => same(r.Name, name))
/** a waste reason's demands: a weight (in a weight unit) and a note when it says so */
function checkReason(name: string, weight: number | null | undefined, unit: string | null | undefined, note: string | null | undefined, err: (m: string) => void) {
  const r = reason(name)
  if (!r) return err(`Waste reason ${name} is not valid.`)
  if (r.RequiresWasteWeight && !(num(weight) > 0)) err(`Waste reason ${r.Name} requires a waste weight.`)
  if (num(weight) > 0 && unitKind(unit) !== 'WeightBased') err(`Unit of measure ${unit ?? ''} is not a weight.`)
  if (r.RequiresNote && !note) err(`Waste reason ${r.Name} requires a note.`)
}
const plantMethod = (name: string | null | undefined) => REF.wasteMethods.some((m) => m.ForPlants && same(m.Name, name))
const plantMethodName = (name: string) => REF.wasteMethods.find((m) => same(m.Name, name))?.Name ?? name

export const plants: Family = {
  lists: {
    '/plants/v2/vegetative': { license: 'required', shape: 'paged', modified: true, plants: true, wire: plantWire, rows: (_s, f) => f!.plants.filter((p) => p.State === 'Tracked' && !p.IsOnHold && p.GrowthPhase === 'Vegetative') },
    '/plants/v2/flowering': { license: 'required', shape: 'paged', modified: true, plants: true, wire: plantWire, rows: (_s, f) => f!.plants.filter((p) => p.State === 'Tracked' && !p.IsOnHold && p.GrowthPhase === 'Flowering') },
    '/plants/v2/onhold': { license: 'required', shape: 'paged', modified: true, plants: true, wire: plantWire, rows: (_s, f) => f!.plants.filter((p) => p.State === 'Tracked' && p.IsOnHold && p.GrowthPhase !== 'Mother') },
    '/plants/v2/inactive': { license: 'required', shape: 'paged', modified: true, plants: true, wire: plantWire, rows: (_s, f) => f!.plants.filter((p) => p.State !== 'Tracked' && p.GrowthPhase !== 'Mother') },
    // mother plants have lists of their own (and are in none of the lists above)
    '/plants/v2/mother': { license: 'required', shape: 'paged', modified: true, plants: true, wire: plantWire, rows: (_s, f) => f!.plants.filter((p) => p.State === 'Tracked' && !p.IsOnHold && p.GrowthPhase === 'Mother') },
    '/plants/v2/mother/onhold': { license: 'required', shape: 'paged', modified: true, plants: true, wire: plantWire, rows: (_s, f) => f!.plants.filter((p) => p.State === 'Tracked' && p.IsOnHold && p.GrowthPhase === 'Mother') },
    '/plants/v2/mother/inactive': { license: 'required', shape: 'paged', modified: true, plants: true, wire: plantWire, rows: (_s, f) => f!.plants.filter((p) => p.State !== 'Tracked' && p.GrowthPhase === 'Mother') },
    '/plants/v2/growthphases': { license: 'required', shape: 'bare', plants: true, rows: () => REF.growthPhases },
    '/plants/v2/waste/methods/all': { license: 'none', shape: 'paged', rows: () => REF.wasteMethods },
    '/wastemethods/v2': { license: 'none', shape: 'bare', rows: () => REF.wasteMethods },
    '/plants/v2/waste/reasons': { license: 'required', shape: 'paged', rows: () => REF.wasteReasons },
    // no lastModified here: METRC's waste list is read whole; its rows have no Id and no note
    '/plants/v2/waste': { license: 'required', shape: 'paged', plants: true, wire: plantWasteWire, rows: (_s, f) => f!.plantWaste },
    '/plants/v2/additives/types': { license: 'none', shape: 'bare', rows: () => REF.additiveTypes },
  },
  byId: { plants: { plants: true, rows: (f) => f.plants, wire: plantWire } },
  writes: {
    'PUT /plants/v2/growthphase': write({
      schema: Phase,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const p = byIdOrLabel(ctx.f.plants, o)
        if (!p || p.State !== 'Tracked') return err(notTracked(o))
        const from = earlier.filter((e) => byIdOrLabel(ctx.f.plants, e) === p).at(-1)?.GrowthPhase ?? p.GrowthPhase
        if (!phaseMoveAllowed(from, o.GrowthPhase)) err(`Plant ${String(p.Label)} cannot move from ${String(from)} to ${o.GrowthPhase}.`)
        if (!byName(ctx.f.locations, o.NewLocation)) err(missing('Location', o.NewLocation))
      },
      apply: (o, ctx) => {
        const p = byIdOrLabel(ctx.f.plants, o)!
        const loc = byName(ctx.f.locations, o.NewLocation)!
        Object.assign(p, { GrowthPhase: o.GrowthPhase, LocationId: loc.Id, LocationName: loc.Name, ...(o.GrowthPhase === 'Flowering' ? { FloweringDate: day(o.GrowthDate) } : {}), LastModified: ctx.now })
        return p.Id
      },
    }),
    'PUT /plants/v2/location': write({
      schema: Move,
      gate: requirePlants,
      check: (o, err, ctx) => {
        const p = byIdOrLabel(ctx.f.plants, o)
        if (!p || p.State !== 'Tracked') return err(notTracked(o))
        const loc = byName(ctx.f.locations, o.Location)
        if (!loc) return err(missing('Location', o.Location))
        if (loc.ForPlants === false) err(`Location ${String(loc.Name)} cannot hold plants.`)
      },
      apply: (o, ctx) => {
        const p = byIdOrLabel(ctx.f.plants, o)!
        const loc = byName(ctx.f.locations, o.Location)!
        Object.assign(p, { LocationId: loc.Id, LocationName: loc.Name, LastModified: ctx.now })
        return p.Id
      },
    }),
    'PUT /plants/v2/strain': write({
      schema: Strain,
      gate: requirePlants,
      check: (o, err, ctx) => {
        const p = byIdOrLabel(ctx.f.plants, o)
        if (!p || p.State !== 'Tracked') return err(notTracked(o))
        if (!byName(ctx.f.strains, o.StrainName)) err(missing('Strain', o.StrainName))
      },
      apply: (o, ctx) => {
        const p = byIdOrLabel(ctx.f.plants, o)!
        const st = byName(ctx.f.strains, o.StrainName)!
        Object.assign(p, { StrainId: st.Id, StrainName: st.Name, LastModified: ctx.now })
        return p.Id
      },
    }),
    'POST /plants/v2/waste': write({
      schema: Waste,
      gate: requirePlants,
      check: (o, err, ctx) => {
        checkReason(o.ReasonName, o.WasteWeight, o.UnitOfMeasureName, o.Note, err)
        if (!plantMethod(o.WasteMethodName)) err(`Waste method ${o.WasteMethodName} is not valid for plants.`)
        if (unitKind(o.UnitOfMeasureName) !== 'WeightBased') err(`Unit of measure ${o.UnitOfMeasureName} is not a weight.`)
        const unknown = o.PlantLabels.find((l) => !byLabel(ctx.f.plants, l))
        if (unknown !== undefined) err(missing('Plant', unknown))
        if (o.LocationName && !byName(ctx.f.locations, o.LocationName)) err(missing('Location', o.LocationName))
      },
      apply: (o, ctx) => {
        const Id = newId(ctx)
        const plants = o.PlantLabels.map((l) => byLabel(ctx.f.plants, l)!)
        const batch = plants.length && plants.every((p) => p.PlantBatchId === plants[0].PlantBatchId) ? plants[0] : null
        // METRC keeps the waste under a number of its own; the method, reason, weight and date
        // come back in the list, the note and the mixed material do not
        ctx.f.plantWaste.push({ Id, PlantWasteNumber: String(Id).padStart(10, '0'), WasteMethodName: plantMethodName(o.WasteMethodName), WasteWeight: o.WasteWeight, WasteUnitOfMeasureName: unitName(o.UnitOfMeasureName), WasteReasonName: reason(o.ReasonName)!.Name, PlantBatchId: batch?.PlantBatchId ?? null, PlantBatchName: batch?.PlantBatchName ?? null, PlantCount: plants.length, WasteDate: day(o.WasteDate), MixedMaterial: o.MixedMaterial ?? '', Note: o.Note ?? '', LocationName: o.LocationName ?? null, PlantLabels: o.PlantLabels, LastModified: ctx.now })
        return Id
      },
    }),
    'DELETE /plants/v2': write({
      schema: Destroy,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const p = byIdOrLabel(ctx.f.plants, o)
        if (!p || p.State !== 'Tracked' || earlier.some((e) => byIdOrLabel(ctx.f.plants, e) === p)) return err(notTracked(o))
        checkReason(o.WasteReasonName, o.WasteWeight, o.WasteUnitOfMeasureName, o.ReasonNote, err)
        if (o.WasteMethodName && !plantMethod(o.WasteMethodName)) err(`Waste method ${o.WasteMethodName} is not valid for plants.`)
      },
      apply: (o, ctx) => {
        const p = byIdOrLabel(ctx.f.plants, o)!
        Object.assign(p, { State: 'Destroyed', DestroyedDate: day(o.ActualDate), DestroyedNote: o.ReasonNote ?? '', LastModified: ctx.now })
        const b = ctx.f.plantBatches.find((x) => x.Id === p.PlantBatchId)
        if (b) Object.assign(b, { TrackedCount: Math.max(0, num(b.TrackedCount) - 1), DestroyedCount: num(b.DestroyedCount) + 1, LastModified: ctx.now })
        return p.Id
      },
    }),
    // clones taken off a mother (or any tracked plant): a new plant batch of untracked plants
    'POST /plants/v2/plantings': write({
      schema: Planting,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const p = byLabel(ctx.f.plants, o.PlantLabel)
        if (!p || p.State !== 'Tracked') err(`Plant ${o.PlantLabel} is not a tracked plant in the current Facility.`)
        if (byName(ctx.f.plantBatches, o.PlantBatchName) || earlier.some((e) => same(e.PlantBatchName, o.PlantBatchName))) err(`Plant Batch ${o.PlantBatchName} already exists.`)
        if (!batchSizeAllowed(o.PlantCount)) err(`PlantCount must be a whole number from 1 to ${MAX_BATCH_PLANTS}.`)
        if (!byName(ctx.f.strains, o.StrainName)) err(missing('Strain', o.StrainName))
        if (o.LocationName && !byName(ctx.f.locations, o.LocationName)) err(missing('Location', o.LocationName))
      },
      apply: (o, ctx) => {
        const p = byLabel(ctx.f.plants, o.PlantLabel)!
        const st = byName(ctx.f.strains, o.StrainName)!
        const loc = byName(ctx.f.locations, o.LocationName)
        const type = REF.plantBatchTypes.find((t) => t.Name === o.PlantBatchType)!
        const Id = newId(ctx)
        ctx.f.plantBatches.push({ Id, Name: o.PlantBatchName, PlantBatchTypeId: type.Id, PlantBatchTypeName: type.Name, LocationId: loc?.Id ?? null, LocationName: loc?.Name ?? null, StrainId: st.Id, StrainName: st.Name, PatientLicenseNumber: o.PatientLicenseNumber ?? null, UntrackedCount: o.PlantCount, TrackedCount: 0, PackagedCount: 0, DestroyedCount: 0, SourcePlantId: p.Id, SourcePlantLabel: p.Label, PlantedDate: day(o.ActualDate), IsOnHold: false, LastModified: ctx.now })
        Object.assign(p, { ClonedCount: num(p.ClonedCount) + o.PlantCount, LastModified: ctx.now })
        return Id
      },
    }),
    'PUT /plants/v2/harvest': write({
      schema: Harvest,
      gate: requirePlants,
      check: (o, err, ctx, earlier) => {
        const p = byLabel(ctx.f.plants, o.Plant)
        if (!p || p.State !== 'Tracked' || earlier.some((e) => e.Plant === o.Plant)) return err(`Plant ${o.Plant} is not a tracked plant in the current Facility.`)
        if (p.GrowthPhase !== 'Flowering') err(`Plant ${String(p.Label)} is not flowering and cannot be harvested.`)
        if (unitKind(o.UnitOfWeight) !== 'WeightBased') err(`Unit ${o.UnitOfWeight} is not a weight.`)
        if (!byName(ctx.f.locations, o.DryingLocation)) err(missing('Location', o.DryingLocation))
      },
      apply: (o, ctx) => {
        const p = byLabel(ctx.f.plants, o.Plant)!
        const loc = byName(ctx.f.locations, o.DryingLocation)!
        const name = o.HarvestName || `${day(o.ActualDate)}-${String(loc.Name)}-H`
        let h = byName(ctx.f.harvests, name)
        if (!h) ctx.f.harvests.push((h = { Id: newId(ctx), Name: name, HarvestType: 'WholePlant', DryingLocationId: loc.Id, DryingLocationName: loc.Name, HarvestStartDate: day(o.ActualDate), PlantCount: 0, TotalWetWeight: 0, CurrentWeight: 0, TotalWasteWeight: 0, PackageCount: 0, TotalPackagedWeight: 0, UnitOfWeightName: 'Grams', IsOnHold: false, FinishedDate: null, LastModified: ctx.now }))
        const grams = inUnit(o.Weight, o.UnitOfWeight, 'Grams')
        Object.assign(h, { PlantCount: num(h.PlantCount) + 1, TotalWetWeight: round4(num(h.TotalWetWeight) + grams), CurrentWeight: round4(num(h.CurrentWeight ?? h.TotalWetWeight) + grams), LastModified: ctx.now })
        Object.assign(p, { State: 'Harvested', HarvestId: h.Id, HarvestedDate: day(o.ActualDate), HarvestedWetWeight: o.Weight, HarvestedUnitOfWeightName: unitName(o.UnitOfWeight), HarvestCount: 1, LastModified: ctx.now })
        return h.Id
      },
    }),
  },
}
