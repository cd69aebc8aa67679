/**
 * Which local changes METRC must hear about, and as what (issue 9 item 5). One planner per table,
 * run by the one write path (app/records/write.server.ts) before the store write; its items are
 * queued in the store write's own transaction (enqueue.server.ts). Writes that come from METRC (the
 * sync) do not pass here, so nothing echoes back.
 *
 *   fac_plantings  create                          → POST /plantbatches/v2/plantings
 *                  create, clones off a mother      → POST /plants/v2/plantings (the mother's call: METRC makes the batch)
 *   fac_plants     a clone (untagged in METRC: a member of its plant batch) to Vegetative/Flowering
 *                                                   → POST /plantbatches/v2/growthphase (the plant takes its tag)
 *                  phase Vegetative → Flowering    → PUT /plants/v2/growthphase
 *                  room changed                    → PUT /plants/v2/location
 *                  put in a harvest                → PUT /plants/v2/harvest (the harvest's wet weight per plant)
 *                  marked dead                     → DELETE /plants/v2 (destroy, with the waste)
 *   metrc_wmix     create                          → POST /plants/v2/waste
 *   metrc_items    create / change                 → POST /items/v2 / PUT /items/v2
 *   metrc_packages create from a harvest            → POST /harvests/v2/packages
 *                  create from one source package  → POST /packages/v2 (a split: the new package's quantity off it)
 *                  a lab sample (IsTestingSample)  → POST /packages/v2/testing
 *                  create from other packages      → POST /packages/v2 (Ingredients filled in on the outbox screen)
 *                  quantity changed                → POST /packages/v2/adjust
 *                  location changed                → PUT /packages/v2/location
 *
 * Every body carries each field METRC's own example body has (app/metrc/reference `bodyOf`; the
 * contract test holds them to it), empty (null) where Canopy has no value.
 *
 * What METRC needs and Canopy's form does not ask for (a destroy's waste reason, an adjustment's
 * reason) makes the item start as failed, with a message saying what to fill in on the outbox
 * screen before it is sent.
 */
import type { Queryable } from '../../db/driver.server'
import { tableOf } from '../../db/sql'
import { isYes as yes } from '../../format/format'
import { readMeasure } from '../../format/units'
import { bodyOf } from '../reference'
import type { PushItem } from './enqueue.server'

export interface PlanContext {
  org: string
  timeZone: string
  /** a referenced record (a room, a strain, a harvest), read once per change */
  record: (collection: string, id: unknown) => Promise<Record<string, unknown> | null>
}

export type PlannedPush = Omit<PushItem, 'source'>
export type Planner = (before: Record<string, unknown> | null, after: Record<string, unknown>, c: PlanContext) => Promise<PlannedPush[]>

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')

/** A date as METRC's YYYY-MM-DD in the facility's time zone (today when absent). */
export function metrcDay(v: unknown, timeZone: string): string {
  const d = v ? new Date(String(v)) : new Date()
  const at = Number.isFinite(d.getTime()) ? d : new Date()
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

const METRC_UNITS: Record<string, string> = { g: 'Grams', kg: 'Kilograms', oz: 'Ounces', lb: 'Pounds', units: 'Each', ml: 'Milliliters', l: 'Liters' }

/** A measure field ({qty, unit} or "12 g") as METRC's weight and unit name. */
function weightOf(v: unknown): { weight: number; unit: string } | null {
  const m = readMeasure(v)
  return m ? { weight: m.qty, unit: METRC_UNITS[m.unit] ?? m.unit } : null
}

const strainName = async (c: PlanContext, id: unknown) => {
  const st = await c.record('set_strains', id)
  return str(st?.metrc_name) || str(st?.name)
}
const roomName = async (c: PlanContext, id: unknown) => str((await c.record('set_rooms', id))?.name)

export const NEEDS_REASON = 'METRC needs a waste reason to destroy a plant: fill in WasteReasonName (one of /MetrcWasteReasons) and resend.'
export const NEEDS_WEIGHT = "METRC needs the plant's wet weight: fill in Weight (in UnitOfWeight) and resend."
export const NEEDS_INGREDIENTS = 'METRC needs the source packages: fill in Ingredients as TAG QUANTITY UNIT (several separated by ;) and resend.'
export const NEEDS_ONE_HARVEST = 'This package names several source harvests: fill in how much comes from each as Ingredients, NAME WEIGHT UNIT separated by ;, and resend.'
export const NEEDS_BATCH = "METRC needs the plant batch this clone belongs to: fill in Name (the batch's name in METRC) and resend."
export const NEEDS_ADJUST_REASON = 'METRC needs a reason for a package adjustment: fill in AdjustmentReason (one of /MetrcPackageAdjust) and resend.'

/** The item's fields METRC takes besides these: the record's names where the request's differ (`…UnitOfMeasure` ← `…UnitOfMeasureName`). */
const ITEM_RENAMED: Record<string, string> = { ItemCategory: 'ProductCategoryName', UnitOfMeasure: 'UnitOfMeasureName', Strain: 'StrainName', ItemBrand: 'ItemBrandName' }
/** Files and processing jobs Canopy does not keep: not sent (METRC's example has them empty too). */
const ITEM_NOT_KEPT = /FileSystemIds$|^ProcessingJob|^ItemIngredients$/

/** An item as METRC's POST/PUT /items/v2 takes it: every field of METRC's body, from the record. */
export function itemBody(r: Record<string, unknown>): Record<string, unknown> {
  const example = bodyOf('POST /items/v2') ?? {}
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(example)) {
    if (ITEM_NOT_KEPT.test(k)) continue
    const from = ITEM_RENAMED[k] ?? (/UnitOfMeasure$/.test(k) ? `${k}Name` : k)
    const v = r[from]
    out[k] = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? (typeof example[k] === 'number' && Number.isFinite(Number(v)) ? Number(v) : v.trim()) : null
  }
  out.Name = str(r.Name)
  out.ItemCategory = str(r.ProductCategoryName)
  out.UnitOfMeasure = str(r.UnitOfMeasureName)
  return out
}

const PLANNERS: Record<string, Planner> = {
  fac_plantings: async (before, r, c) => {
    if (before) return []
    const strain = await strainName(c, r.strain)
    const room = await roomName(c, r.room)
    const type = str(r.type).toLowerCase() === 'seed' ? 'Seed' : 'Clone'
    const count = Number(r.orig)
    if (str(r.mother)) {
      // clones cut from a mother plant: METRC's call on the mother creates the batch
      const mother = str((await c.record('fac_moms', r.mother))?.tag)
      return [{
        endpoint: 'POST /plants/v2/plantings',
        payload: { PlantLabel: mother, PlantBatchName: str(r.name), PlantBatchType: type, PlantCount: count, LocationName: room || null, SublocationName: null, StrainName: strain, PatientLicenseNumber: null, ActualDate: metrcDay(r.planted, c.timeZone) },
        label: `Planting ${str(r.name)}: ${count} ${type === 'Seed' ? 'seeds' : 'clones'} of ${strain || '?'} from mother ${mother || '?'}${room ? ` in ${room}` : ''}`,
        ...(mother ? {} : { problem: "METRC needs the mother plant's tag: fill in PlantLabel and resend." }),
      }]
    }
    return [{
      endpoint: 'POST /plantbatches/v2/plantings',
      payload: { Name: str(r.name), Type: type, Count: count, Strain: strain, Location: room || null, Sublocation: null, PatientLicenseNumber: null, ActualDate: metrcDay(r.planted, c.timeZone), SourcePlantBatches: null },
      label: `Planting ${str(r.name)}: ${count} ${type === 'Seed' ? 'seeds' : 'clones'} of ${strain || '?'}${room ? ` in ${room}` : ''}`,
    }]
  },
  fac_plants: async (before, r, c) => {
    if (!before) return []
    const tag = str(r.tag)
    if (!tag) return []
    const out: PlannedPush[] = []
    const phase = str(r.phase)
    if (phase !== str(before.phase) && (phase === 'Vegetative' || phase === 'Flowering') && !yes(r.mark_as_dead)) {
      const room = await roomName(c, r.room)
      const was = str(before.phase)
      if (was !== 'Vegetative' && was !== 'Flowering') {
        // a clone is not a plant in METRC yet but one of its batch's untracked plants: the batch's
        // growth phase call gives it its tag (PUT /plants/v2/growthphase would not find it)
        const batch = str((await c.record('fac_plantings', r.planting))?.name)
        out.push({
          endpoint: 'POST /plantbatches/v2/growthphase',
          payload: { Name: batch, Count: 1, StartingTag: tag, GrowthPhase: phase, NewLocation: room, NewSublocation: null, GrowthDate: metrcDay(r.phaseDate, c.timeZone), PatientLicenseNumber: null },
          label: `Plant ${tag} from batch ${batch || '?'} to ${phase}${room ? ` in ${room}` : ''}`,
          ...(batch ? {} : { problem: NEEDS_BATCH }),
        })
      } else
        out.push({
          endpoint: 'PUT /plants/v2/growthphase',
          payload: { Id: null, Label: tag, NewTag: null, GrowthPhase: phase, NewLocation: room, NewSublocation: null, GrowthDate: metrcDay(r.phaseDate, c.timeZone) },
          label: `Plant ${tag} to ${phase}${room ? ` in ${room}` : ''}`,
        })
    }
    // a room change on its own is a move (a phase change carries its new location with it)
    if (!out.length && !yes(r.mark_as_dead) && str(r.room) !== str(before.room) && str(r.room)) {
      const room = await roomName(c, r.room)
      if (room) out.push({ endpoint: 'PUT /plants/v2/location', payload: { Id: null, Label: tag, Location: room, Sublocation: null, ActualDate: metrcDay(null, c.timeZone) }, label: `Move plant ${tag} to ${room}` })
    }
    if (str(r.harvest) && str(r.harvest) !== str(before.harvest) && !yes(r.mark_as_dead)) {
      const hv = (await c.record('fac_harvests', r.harvest)) ?? {}
      const h = { name: str(hv.name) || null, dry: hv.dryRoom, plants: Number(hv.plants), at: hv.harvested }
      const total = weightOf(hv.wetWeight)
      // the plant's own wet weight when it was weighed (a harvest action), else the harvest's weight per plant
      const own = weightOf(r.wetWeight)
      const each = own && own.weight > 0 ? own : total && h.plants > 0 ? { weight: Math.round((total.weight / h.plants) * 10_000) / 10_000, unit: total.unit } : null
      const dry = (await roomName(c, h.dry)) || (await roomName(c, r.room))
      out.push({
        endpoint: 'PUT /plants/v2/harvest',
        payload: { Plant: tag, Weight: each?.weight ?? 0, UnitOfWeight: each?.unit ?? 'Grams', DryingLocation: dry, DryingSublocation: null, HarvestName: h.name ?? '', PatientLicenseNumber: null, ActualDate: metrcDay(h.at, c.timeZone) },
        label: `Harvest plant ${tag} into ${h.name ?? '?'}${each ? ` (${each.weight} ${each.unit} wet${own && own.weight > 0 ? '' : ", the harvest's weight per plant"})` : ''}`,
        ...(each ? {} : { problem: NEEDS_WEIGHT }),
      })
    }
    if (yes(r.mark_as_dead) && !yes(before.mark_as_dead)) {
      const w = weightOf(r.dead_weight)
      out.push({
        endpoint: 'DELETE /plants/v2',
        // METRC takes the material the waste was mixed with as its own field (WasteMaterialMixed)
        payload: { Id: null, Label: tag, WasteMethodName: str(r.waste_method) || null, WasteMaterialMixed: str(r.mix_material) || null, WasteWeight: w?.weight ?? 0, WasteUnitOfMeasureName: w?.unit ?? 'Grams', WasteReasonName: str(r.waste_reason), Count: 1, ReasonNote: str(r.notes), ActualDate: metrcDay(r.phaseDate ?? r.ts, c.timeZone) },
        label: `Destroy plant ${tag}${w ? ` (${w.weight} ${w.unit} waste)` : ''}`,
        noteField: 'ReasonNote',
        // a destroy action asks for METRC's waste reason; the edit form's Mark As Dead may leave it out
        ...(str(r.waste_reason) ? {} : { problem: NEEDS_REASON }),
      })
    }
    return out
  },
  metrc_wmix: async (before, r, c) => {
    if (before) return []
    const labels = str(r.PlantLabels).split(/[\s,;]+/).filter(Boolean)
    return [{
      endpoint: 'POST /plants/v2/waste',
      payload: { WasteMethodName: str(r.WasteMethodName), MixedMaterial: str(r.MixedMaterial), WasteWeight: Number(r.WasteWeight), UnitOfMeasureName: str(r.UnitOfMeasureName), ReasonName: str(r.ReasonName), Note: str(r.Note), LocationName: str(r.LocationName) || null, SublocationName: null, WasteDate: metrcDay(r.WasteDate, c.timeZone), PlantLabels: labels },
      label: `Plant waste ${Number(r.WasteWeight)} ${str(r.UnitOfMeasureName)} (${str(r.ReasonName)}, ${str(r.WasteMethodName)})`,
      noteField: 'Note',
    }]
  },
  metrc_items: async (before, r) => {
    const body = itemBody(r)
    if (!before) return [{ endpoint: 'POST /items/v2', payload: body, label: `New item ${String(body.Name)}` }]
    const id = Number(before.MetrcId ?? before.Id)
    // any field METRC keeps for the item (a unit weight, a THC content…), not only its name and category
    const was = itemBody(before)
    const changed = Object.keys(body).some((k) => JSON.stringify(was[k]) !== JSON.stringify(body[k]))
    if (!changed || !Number.isInteger(id)) return []
    return [{ endpoint: 'PUT /items/v2', payload: { Id: id, ...body }, label: `Item ${String(body.Name)} changed` }]
  },
  metrc_packages: async (before, r, c) => {
    if (!before) {
      const harvests = str(r.SourceHarvestNames).split(',').map((x) => x.trim()).filter(Boolean)
      const common = {
        Tag: str(r.Label), Location: str(r.LocationName) || null, Sublocation: null, Item: str(r.ItemName), PatientLicenseNumber: null, Note: str(r.Note),
        IsProductionBatch: false, ProductionBatchNumber: null, IsDonation: false, IsTradeSample: false, ProductRequiresRemediation: false,
        ActualDate: metrcDay(r.PackagedDate, c.timeZone), ExpirationDate: null, SellByDate: null, UseByDate: null,
      }
      const qty = Number(r.Quantity)
      const unit = str(r.UnitOfMeasureName)
      if (harvests.length) {
        return [{
          endpoint: 'POST /harvests/v2/packages',
          payload: { ...common, UnitOfWeight: unit, RemediateProduct: false, Ingredients: harvests.length === 1 ? [{ HarvestId: null, HarvestName: harvests[0], Weight: qty, UnitOfWeight: unit }] : [] },
          label: `New package ${common.Tag}: ${qty} ${unit} of ${common.Item} from ${harvests.join(', ')}`,
          noteField: 'Note',
          ...(harvests.length === 1 ? {} : { problem: NEEDS_ONE_HARVEST }),
        }]
      }
      // a split or a lab sample names its one source package: the new package's quantity comes off it
      const sources = str(r.SourcePackageLabels).split(',').map((x) => x.trim()).filter(Boolean)
      const ingredients = sources.length === 1 ? [{ Package: sources[0], Quantity: qty, UnitOfMeasure: unit }] : []
      const body = { ...common, Quantity: qty, UnitOfMeasure: unit, IsFinishedGood: false, UseSameItem: false, Ingredients: ingredients }
      if (yes(r.IsTestingSample)) {
        return [{
          endpoint: 'POST /packages/v2/testing',
          payload: { ...body, RequiredLabTestBatches: [], ProcessingJobTypeId: null, LabTestStageId: null },
          label: `Lab sample ${common.Tag}: ${qty} ${unit} of ${common.Item}${sources.length ? ` from ${sources.join(', ')}` : ''}`,
          noteField: 'Note',
          ...(ingredients.length ? {} : { problem: NEEDS_INGREDIENTS }),
        }]
      }
      return [{
        endpoint: 'POST /packages/v2',
        payload: body,
        label: `New package ${common.Tag}: ${qty} ${unit} of ${common.Item}${sources.length ? ` from ${sources.join(', ')}` : ''}`,
        noteField: 'Note',
        ...(ingredients.length ? {} : { problem: NEEDS_INGREDIENTS }),
      }]
    }
    const out: PlannedPush[] = []
    const delta = Math.round((Number(r.Quantity) - Number(before.Quantity)) * 10_000) / 10_000
    if (Number.isFinite(delta) && delta !== 0 && str(r.Label)) {
      out.push({
        endpoint: 'POST /packages/v2/adjust',
        payload: { Label: str(r.Label), Quantity: delta, UnitOfMeasure: str(r.UnitOfMeasureName), AdjustmentReason: '', AdjustmentDate: metrcDay(null, c.timeZone), ReasonNote: str(r.Note) },
        label: `Adjust package ${str(r.Label)} by ${delta > 0 ? '+' : ''}${delta} ${str(r.UnitOfMeasureName)}`,
        noteField: 'ReasonNote',
        problem: NEEDS_ADJUST_REASON,
      })
    }
    if (str(r.Label) && str(r.LocationName) && str(r.LocationName) !== str(before.LocationName)) {
      out.push({
        endpoint: 'PUT /packages/v2/location',
        payload: { Label: str(r.Label), Location: str(r.LocationName), Sublocation: null, MoveDate: metrcDay(null, c.timeZone) },
        label: `Move package ${str(r.Label)} to ${str(r.LocationName)}`,
      })
    }
    return out
  },
}

export const pushesFromTable = (collection: string) => Object.hasOwn(PLANNERS, collection)

/** A business area's planner for one of its tables (app/areas, decision 022): what METRC must hear of a change. */
export function registerPushPlanner(collection: string, planner: Planner): void {
  PLANNERS[collection] = planner
}

/**
 * Referenced records for planners, each read once, through `q` (the change's transaction; the
 * write path has already checked the ids exist in their tables).
 */
export function recordReader(q: Queryable, org: string): PlanContext['record'] {
  const seen = new Map<string, Promise<Record<string, unknown> | null>>()
  return (collection, id) => {
    if (typeof id !== 'string' || !id) return Promise.resolve(null)
    const key = `${collection}/${id}`
    if (!seen.has(key)) seen.set(key, q.query<{ doc: Record<string, unknown> }>(`SELECT doc FROM ${tableOf(collection)} WHERE org = $1 AND id = $2`, [org, id]).then((r) => r.rows[0]?.doc ?? null))
    return seen.get(key)!
  }
}

/** The pushes a change of `collection` calls for (none for tables METRC does not hear about). */
export async function planPushes(collection: string, before: Record<string, unknown> | null, after: Record<string, unknown>, c: PlanContext): Promise<PlannedPush[]> {
  const planner = PLANNERS[collection]
  return planner ? planner(before, after, c) : []
}
