/**
 * What drift compares (issue 9 item 7): for each pair of a Canopy table and the Metrc table synced
 * from METRC, the tag that links a record to METRC's, and per field how each side's value reads,
 * how the Canopy record takes METRC's value, and which METRC call makes METRC take Canopy's (or
 * why it cannot). Values are the words a person compares (a room's name, not its id). Pure: the
 * server side (compare.server.ts, resolve.server.ts) brings the rooms and strains.
 */
import { convert, convertible, normaliseUnit } from '../../format/units'
import type { PushItem } from '../outbox/enqueue.server'

type Rec = Record<string, unknown> & { _id: string }

/** Rooms and strains of the facility, by id and by name (names as METRC matches them: any case). */
export interface Lookups {
  roomName(id: unknown): string | null
  roomId(name: unknown): string | null
  /** the strain's METRC name (set_strains.metrc_name, else its name) */
  strainName(id: unknown): string | null
  strainId(metrcName: unknown): string | null
}

/** A refusal a person reads: why this side cannot win for this drift. */
export class Refused {
  constructor(readonly message: string) {}
}

export interface DriftField {
  key: string
  label: string
  /** compared for this pair (a harvested plant's room is history, not drift) */
  applies?: (rec: Rec, doc: Rec, lk: Lookups) => boolean
  /** Canopy's value (in METRC's terms where they differ: METRC's unit of measure) */
  canopy: (rec: Rec, lk: Lookups, doc: Rec) => string | null
  metrc: (doc: Rec) => string | null
  /** the change to the Canopy record that takes METRC's value */
  toCanopy: (doc: Rec, lk: Lookups, rec: Rec) => Record<string, unknown> | Refused
  /** the METRC call that takes Canopy's value; `day(v)`: a date as METRC's day in the facility's zone (today without one) */
  toMetrc: (rec: Rec, doc: Rec, lk: Lookups, day: (v?: unknown) => string) => PushItem | Refused
}

export interface DriftTable {
  /** the name drift rows carry */
  key: string
  label: string
  /** Canopy's collection and the field holding the METRC tag */
  canopy: string
  tagField: string
  /** the Metrc collection synced from METRC and its tag field */
  metrc: string
  labelField: string
  fields: DriftField[]
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null)

/** Equal as METRC compares names: trimmed, any case; empty is no value. */
export const sameValue = (a: string | null, b: string | null) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase()

// ---------------------------------------------------------------- plants

const plantState = (rec: Rec): string => {
  if (String(rec.alive ?? '').toLowerCase() !== 'no' && String(rec.mark_as_dead ?? '').toLowerCase() !== 'yes') return 'Tracked'
  return rec.phase === 'Harvested' ? 'Harvested' : 'Destroyed'
}
const bothTracked = (rec: Rec, doc: Rec) => plantState(rec) === 'Tracked' && doc.State === 'Tracked'
const plantSource = (rec: Rec) => ({ collection: 'fac_plants', id: rec._id })

/** Room vs METRC's LocationName, for plants and packages alike: METRC's wins if Canopy has that room; Canopy's is a move in METRC. */
function roomField(applies: DriftField['applies'], o: { what: string; endpoint: string; dateKey: string; source: (rec: Rec) => { collection: string; id: string } }): DriftField {
  return {
    key: 'room',
    label: 'Room',
    applies,
    canopy: (rec, lk) => lk.roomName(rec.room),
    metrc: (doc) => text(doc.LocationName),
    toCanopy: (doc, lk) => {
      const id = lk.roomId(doc.LocationName)
      return id ? { room: id } : new Refused(`Canopy has no room named ${String(doc.LocationName ?? '—')}: add it under Rooms first.`)
    },
    toMetrc: (rec, doc, lk, day) => {
      const name = lk.roomName(rec.room)
      if (!name) return new Refused('The Canopy record has no room to send.')
      return { endpoint: o.endpoint, payload: { Label: doc.Label, Location: name, [o.dateKey]: day() }, label: `Move ${o.what} ${String(doc.Label)} to ${name} (drift kept Canopy’s)`, source: o.source(rec) }
    },
  }
}

const plantFields: DriftField[] = [
  {
    key: 'state',
    label: 'State',
    canopy: (rec) => plantState(rec),
    metrc: (doc) => text(doc.State),
    toCanopy: (doc) => {
      if (doc.State === 'Tracked') return { alive: 'yes', mark_as_dead: 'no', phase: text(doc.GrowthPhase) ?? 'Vegetative' }
      if (doc.State === 'Harvested') return { alive: 'no', phase: 'Harvested' }
      if (doc.State === 'Destroyed') return { alive: 'no', phase: 'Destroyed' }
      return new Refused(`Canopy has no plant state ${String(doc.State)}.`)
    },
    toMetrc: () => new Refused('METRC changes a plant’s state only by a harvest or a destroy, with their weights: record it on the Plants screen, or take METRC’s value.'),
  },
  {
    key: 'phase',
    label: 'Growth Phase',
    applies: bothTracked,
    canopy: (rec) => text(rec.phase),
    metrc: (doc) => text(doc.GrowthPhase),
    toCanopy: (doc) => ({ phase: text(doc.GrowthPhase) }),
    toMetrc: (rec, doc, _lk, day) => {
      const from = text(doc.GrowthPhase)
      const to = text(rec.phase)
      if (from !== 'Vegetative' || to !== 'Flowering') return new Refused(`METRC moves a plant only from Vegetative to Flowering; ${from ?? '—'} to ${to ?? '—'} cannot be sent.`)
      return { endpoint: 'PUT /plants/v2/growthphase', payload: { Label: doc.Label, GrowthPhase: 'Flowering', NewLocation: doc.LocationName, GrowthDate: day(rec.phaseDate) }, label: `Plant ${String(doc.Label)} to Flowering (drift kept Canopy’s)`, source: plantSource(rec) }
    },
  },
  roomField(bothTracked, { what: 'plant', endpoint: 'PUT /plants/v2/location', dateKey: 'ActualDate', source: plantSource }),
  {
    key: 'strain',
    label: 'Strain',
    applies: bothTracked,
    canopy: (rec, lk) => lk.strainName(rec.strain),
    metrc: (doc) => text(doc.StrainName),
    toCanopy: (doc, lk) => {
      const id = lk.strainId(doc.StrainName)
      return id ? { strain: id } : new Refused(`Canopy has no strain whose METRC name is ${String(doc.StrainName ?? '—')}: add it under Strains first.`)
    },
    toMetrc: (rec, doc, lk) => {
      const name = lk.strainName(rec.strain)
      if (!name) return new Refused('The Canopy record has no strain to send.')
      return { endpoint: 'PUT /plants/v2/strain', payload: { Label: doc.Label, StrainName: name }, label: `Plant ${String(doc.Label)} strain ${name} (drift kept Canopy’s)`, source: plantSource(rec) }
    },
  },
]

// ---------------------------------------------------------------- packages

const active = (_rec: Rec, doc: Rec) => doc.IsFinished !== true && !doc.ArchivedDate
const packageSource = (rec: Rec) => ({ collection: 'fac_inventory', id: rec._id })
const round4 = (n: number) => Math.round(n * 10_000) / 10_000
/** A Canopy measure ({ qty, unit }) in METRC's unit, when the two measure the same kind of thing. */
function inMetrcUnit(rec: Rec, doc: Rec): number | null {
  const m = rec.qty as { qty?: unknown; unit?: unknown } | null | undefined
  const q = typeof m?.qty === 'number' ? m.qty : typeof m?.qty === 'string' && m.qty.trim() ? Number(m.qty) : NaN
  const unit = typeof m?.unit === 'string' ? m.unit : ''
  const to = String(doc.UnitOfMeasureName ?? '')
  if (!Number.isFinite(q) || !convertible(unit, to)) return null
  return round4(convert(q, unit, to))
}

const packageFields: DriftField[] = [
  {
    key: 'qty',
    label: 'Quantity',
    applies: active,
    canopy: (rec, _lk, doc) => {
      const n = inMetrcUnit(rec, doc)
      if (n !== null) return `${n} ${String(doc.UnitOfMeasureName)}`
      const m = rec.qty as { qty?: unknown; unit?: unknown } | null | undefined
      return m && m.qty !== undefined && m.qty !== '' ? `${String(m.qty)} ${String(m.unit ?? '')}`.trim() : null
    },
    metrc: (doc) => (typeof doc.Quantity === 'number' ? `${round4(doc.Quantity)} ${String(doc.UnitOfMeasureName ?? '')}`.trim() : null),
    toCanopy: (doc) => {
      const unit = normaliseUnit(doc.UnitOfMeasureName)
      if (!unit || unit === 'mg' || typeof doc.Quantity !== 'number') return new Refused(`Canopy has no unit for ${String(doc.UnitOfMeasureName ?? '—')}.`)
      return { qty: { qty: doc.Quantity, unit } }
    },
    toMetrc: (rec, doc, _lk, day) => {
      const n = inMetrcUnit(rec, doc)
      if (n === null || n < 0) return new Refused(`Canopy’s quantity cannot be expressed in ${String(doc.UnitOfMeasureName ?? '—')}.`)
      const delta = round4(n - Number(doc.Quantity ?? 0))
      return {
        endpoint: 'POST /packages/v2/adjust',
        payload: { Label: doc.Label, Quantity: delta, UnitOfMeasure: doc.UnitOfMeasureName, AdjustmentReason: 'Entry Error', AdjustmentDate: day(), ReasonNote: 'Drift reconciliation: Canopy’s quantity kept.' },
        label: `Adjust package ${String(doc.Label)} by ${delta} ${String(doc.UnitOfMeasureName)} (drift kept Canopy’s)`,
        source: packageSource(rec),
        noteField: 'ReasonNote',
      }
    },
  },
  roomField(active, { what: 'package', endpoint: 'PUT /packages/v2/location', dateKey: 'MoveDate', source: packageSource }),
]

export const DRIFT_TABLES: DriftTable[] = [
  { key: 'plants', label: 'Plants', canopy: 'fac_plants', tagField: 'tag', metrc: 'metrc_plants', labelField: 'Label', fields: plantFields },
  { key: 'packages', label: 'Packages', canopy: 'fac_inventory', tagField: 'tag', metrc: 'metrc_packages', labelField: 'Label', fields: packageFields },
]

export const driftTable = (key: string) => DRIFT_TABLES.find((t) => t.key === key)
/** The compared tables a sync of this Metrc collection feeds. */
export const driftTablesOf = (metrcCollection: string) => DRIFT_TABLES.filter((t) => t.metrc === metrcCollection)
