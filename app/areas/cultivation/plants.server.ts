/**
 * Actions on tagged plants (/culPlants): move, change phase, destroy, harvest. Each is one
 * transaction through the engine's row actions (decision 038); the fac_plants planner
 * (metrc/outbox/pushes.server.ts) turns each changed plant into its METRC call:
 * PUT /plants/v2/location, PUT /plants/v2/growthphase, DELETE /plants/v2, PUT /plants/v2/harvest.
 */
import type { Doc } from '../../db/types'
import { isYes } from '../../format/format'
import { registerRowAction, type RowActionDef } from '../../records/row-actions.server'
import { MIX_MATERIALS, METRC_WASTE_REASONS, WASTE_METHODS } from '../../seed/schemas/operations'
import { badInput } from '../../utils/errors'
import { count, dateAsk, dateOf, needPositive, optionsOf, refuseSome, roomName, roomOf, roomOptions, some } from './common.server'
import { phaseProblem, positive, splitWeight } from './rules'

const tagOf = (r: Doc) => String(r.tag ?? r._id)
const str = (v: unknown) => (typeof v === 'string' ? v : '')
/** why a plant can no longer be acted on, or null (a destroyed or harvested plant is also IsUsed = no: out of the active view) */
const gone = (r: Doc) => (isYes(r.mark_as_dead) || str(r.phase) === 'Destroyed' ? 'destroyed' : str(r.harvest) || str(r.phase) === 'Harvested' ? 'harvested' : null)

/** "30 from Veg Room 1, 10 from Veg Room 2" */
async function byRoom(c: Parameters<RowActionDef['describe']>[0], rows: Doc[]): Promise<string> {
  const n = new Map<string, number>()
  for (const r of rows) n.set(str(r.room), (n.get(str(r.room)) ?? 0) + 1)
  const parts: string[] = []
  for (const [id, k] of n) parts.push(`${k} from ${(await roomName(c, id)) || 'no room'}`)
  return parts.join(', ')
}

const move: RowActionDef = {
  rowLabel: tagOf,
  ask: async (c) => [{ key: 'room', label: 'Move to room', kind: 'select', required: true, options: await roomOptions(c) }],
  async describe(c, rows, input) {
    const to = (await roomName(c, input.get('room'))) || 'the room you choose'
    return [`${count(rows.length, 'plant')} move to ${to}: ${await byRoom(c, rows)}.`, 'METRC hears each move (PUT /plants/v2/location).']
  },
  async run(w, rows, input) {
    const room = await roomOf(w, input)
    refuseSome(rows, gone, tagOf, 'plants cannot move')
    const moving = rows.filter((r) => str(r.room) !== room.id)
    await w.update('fac_plants', moving.map((before) => ({ before, patch: { room: room.id } })))
    return `${count(moving.length, 'plant')} moved to ${room.name}${moving.length < rows.length ? ` (${rows.length - moving.length} were there already)` : ''}.`
  },
}

const PHASES = ['Vegetative', 'Flowering', 'Mother']

const phase: RowActionDef = {
  rowLabel: tagOf,
  ask: async (c) => [
    { key: 'phase', label: 'New growth phase', kind: 'select', required: true, options: optionsOf(PHASES) },
    { key: 'room', label: 'Move to room (optional)', kind: 'select', options: [{ value: '', label: 'Stay where they are' }, ...(await roomOptions(c))] },
    dateAsk('Phase changed on'),
  ],
  async describe(c, rows, input) {
    const from = [...new Set(rows.map((r) => str(r.phase) || '?'))].join(' / ')
    const to = input.get('phase') || 'the phase you choose'
    const room = await roomName(c, input.get('room'))
    return [`${count(rows.length, 'plant')}: phase ${from} → ${to}${room ? `, room → ${room} (${await byRoom(c, rows)})` : ''}.`, 'METRC hears each plant (PUT /plants/v2/growthphase, with its location).']
  },
  async run(w, rows, input) {
    const to = input.get('phase')
    if (!PHASES.includes(to)) throw badInput('New growth phase: choose Vegetative, Flowering or Mother.')
    const room = input.get('room') ? await roomOf(w, input) : null
    const at = dateOf(input)
    refuseSome(rows, (r) => gone(r) ?? phaseProblem(str(r.phase), to), tagOf, 'plants cannot change phase')
    await w.update('fac_plants', rows.map((before) => ({ before, patch: { phase: to, phaseDate: at, ...(room ? { room: room.id } : {}) } })))
    return `${count(rows.length, 'plant')} now ${to}${room ? ` in ${room.name}` : ''}.`
  },
}

const UNITS = ['g', 'oz', 'lb']

const destroy: RowActionDef = {
  rowLabel: tagOf,
  ask: () => [
    { key: 'waste_reason', label: 'Waste reason (METRC)', kind: 'select', required: true, options: optionsOf(METRC_WASTE_REASONS) },
    { key: 'waste_method', label: 'Waste method', kind: 'select', required: true, options: optionsOf(WASTE_METHODS) },
    { key: 'mix_material', label: 'Mix material', kind: 'select', required: true, options: optionsOf(MIX_MATERIALS) },
    { key: 'weight', label: 'Waste weight (all selected plants together)', kind: 'number', required: true },
    { key: 'unit', label: 'Unit', kind: 'select', options: optionsOf(UNITS), value: 'g' },
    { key: 'note', label: 'Note', kind: 'text' },
    dateAsk('Destroyed on'),
  ],
  async describe(c, rows) {
    return [`${count(rows.length, 'plant')} are destroyed (${some(rows, tagOf)}): ${await byRoom(c, rows)}.`, 'Each is marked dead with the waste method, mix material and weight; METRC hears each (DELETE /plants/v2).']
  },
  async run(w, rows, input) {
    const weight = needPositive(input, 'weight', 'Waste weight')
    const unit = UNITS.includes(input.get('unit')) ? input.get('unit') : 'g'
    const reason = input.get('waste_reason')
    if (!(METRC_WASTE_REASONS as readonly string[]).includes(reason)) throw badInput('Waste reason: choose one of METRC\'s reasons.')
    const at = dateOf(input)
    refuseSome(rows, gone, tagOf, 'plants cannot be destroyed')
    const each = splitWeight(weight, rows.length)
    const note = input.get('note')
    await w.update(
      'fac_plants',
      rows.map((before, i) => ({
        before,
        patch: { mark_as_dead: 'yes', alive: 'no', IsUsed: 'no', phase: 'Destroyed', phaseDate: at, waste_reason: reason, waste_method: input.get('waste_method'), mix_material: input.get('mix_material'), dead_weight: { qty: each[i], unit }, ...(note ? { notes: note } : {}) },
      })),
    )
    return `${count(rows.length, 'plant')} destroyed (${weight} ${unit} waste).`
  },
}

const harvest: RowActionDef = {
  rowLabel: tagOf,
  ask: async (c) => [
    { key: 'name', label: 'Harvest name', kind: 'text', required: true, value: `${new Date().toISOString().slice(0, 10)}-H` },
    { key: 'dryRoom', label: 'Drying room', kind: 'select', required: true, options: await roomOptions(c) },
    dateAsk('Harvested on'),
    { key: 'wet', label: 'Wet weight of each plant', kind: 'weights', units: UNITS, scale: { screen: '/CulHarvest', field: 'wetWeight' } },
  ],
  async describe(c, rows) {
    return [`${count(rows.length, 'plant')} are harvested into one new harvest (${await byRoom(c, rows)}).`, 'Weigh each plant (Remote Scale fills the next row) or enter one total; METRC hears each plant with its wet weight (PUT /plants/v2/harvest).']
  },
  async run(w, rows, input) {
    const name = input.get('name')
    if (!name) throw badInput('Harvest name: enter a name.')
    if ((await w.store.findIn(w.tx, w.org, 'fac_harvests', { name }, 1)).length) throw badInput(`Harvest name: ${name} exists already; choose another.`)
    const dry = await roomOf(w, input, 'dryRoom', 'Drying room')
    const at = dateOf(input)
    const unit = UNITS.includes(input.get('wet.unit')) ? input.get('wet.unit') : 'g'
    refuseSome(rows, (r) => gone(r) ?? (str(r.phase) === 'Flowering' ? null : `${str(r.phase) || 'no phase'}, not flowering`), tagOf, 'plants cannot be harvested')
    const total = positive(input.get('wet.total'))
    const own = rows.map((r) => positive(input.get(`wet.${r._id}`)))
    let weights: number[]
    if (own.every((x) => x !== null)) weights = own as number[]
    else if (total !== null && own.every((x) => x === null)) weights = splitWeight(total, rows.length)
    else {
      const missing = rows.filter((_, i) => own[i] === null)
      throw badInput(total !== null ? 'Enter either a weight for every plant or one total, not both.' : `Wet weight: ${count(missing.length, 'plant')} not weighed yet (${some(missing, tagOf)}). Weigh each plant or enter one total.`)
    }
    const sum = Math.round(weights.reduce((s, x) => s + x, 0) * 100) / 100
    const strains = [...new Set(rows.map((r) => str(r.strain)))]
    const rooms = [...new Set(rows.map((r) => str(r.room)))]
    const [h] = await w.insert('fac_harvests', [{ name, strain: strains.length === 1 ? strains[0] : '', room: rooms.length === 1 ? rooms[0] : '', dryRoom: dry.id, harvested: at, plants: rows.length, wetWeight: { qty: sum, unit }, status: 'Drying' }])
    await w.update('fac_plants', rows.map((before, i) => ({ before, patch: { harvest: h._id, phase: 'Harvested', alive: 'no', IsUsed: 'no', phaseDate: at, wetWeight: { qty: weights[i], unit } } })))
    return `Harvest ${name}: ${count(rows.length, 'plant')}, ${sum} ${unit} wet, drying in ${dry.name}.`
  },
}

export function registerPlantActions(): void {
  registerRowAction('fac_plants', 'move', move)
  registerRowAction('fac_plants', 'phase', phase)
  registerRowAction('fac_plants', 'destroy', destroy)
  registerRowAction('fac_plants', 'harvest', harvest)
}
