/**
 * Plant batches: take clones from a mother (/CulMoms → a new planting; METRC: the mother's
 * POST /plants/v2/plantings, planned by the fac_plantings planner), tag plants from a batch
 * (/CulPlantings: N plant records with consecutive or scanned tags, the batch's count reduced;
 * METRC: POST /plantbatches/v2/growthphase, one per run of consecutive tags) and destroy part of a
 * batch (METRC: DELETE /plantbatches/v2 with its waste).
 */
import type { Doc } from '../../db/types'
import { metrcDay } from '../../metrc/outbox/pushes.server'
import { registerRowAction, type RowActionDef } from '../../records/row-actions.server'
import { MIX_MATERIALS, METRC_WASTE_REASONS, WASTE_METHODS } from '../../seed/schemas/operations'
import { badInput } from '../../utils/errors'
import { count, dateAsk, dateOf, needPositive, optionsOf, roomName, roomOf, roomOptions } from './common.server'
import { consecutiveRuns, tagList, tagSequence } from './rules'

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')
const left = (b: Doc) => Number(b.count ?? b.orig ?? 0) || 0

const clone: RowActionDef = {
  rowLabel: (r) => str(r.name) || r._id,
  ask: async (c, rows) => [
    { key: 'name', label: 'New batch name', kind: 'text', required: true, value: `${str(rows[0]?.name).split(' ')[0] || 'PB'}-${new Date().toISOString().slice(0, 10)}` },
    { key: 'count', label: 'Clones taken (1–100)', kind: 'number', required: true },
    { key: 'room', label: 'Room', kind: 'select', required: true, options: await roomOptions(c) },
    { key: 'mtag', label: 'Batch tag', kind: 'text', required: true, scan: true, help: 'Scan or type the tag of the new batch.' },
    dateAsk('Cut on'),
  ],
  async describe(_c, rows) {
    const m = rows[0]
    return [`A new plant batch of clones cut from mother ${str(m?.name)} (tag ${str(m?.tag) || '?'}).`, "METRC hears it as the mother's planting (POST /plants/v2/plantings)."]
  },
  async run(w, rows, input) {
    const mom = rows[0]
    if (str(mom.active) === 'no') throw badInput(`Mother ${str(mom.name)} is retired; clones cannot be taken from it.`)
    const name = input.get('name')
    if (!name) throw badInput('New batch name: enter a name.')
    if ((await w.store.findIn(w.tx, w.org, 'fac_plantings', { name }, 1)).length) throw badInput(`New batch name: ${name} exists already; choose another.`)
    const n = needPositive(input, 'count', 'Clones taken')
    if (!Number.isInteger(n) || n > 100) throw badInput('Clones taken: a whole number from 1 to 100.')
    const room = await roomOf(w, input)
    const at = dateOf(input)
    await w.insert('fac_plantings', [{ name, strain: mom.strain, room: room.id, mtag: input.get('mtag'), origin: str(mom.tag), type: 'Clone', orig: n, count: n, planted: at, phase: 'Clone', mother: mom._id }])
    await w.update('fac_moms', [{ before: mom, patch: { clonesTaken: (Number(mom.clonesTaken) || 0) + n, lastCut: at } }])
    return `Batch ${name}: ${n} clones from ${str(mom.name)} in ${room.name}.`
  },
}

const tag: RowActionDef = {
  rowLabel: (r) => str(r.name) || r._id,
  ask: async (c, rows) => [
    { key: 'count', label: 'How many plants to tag', kind: 'number', value: String(left(rows[0] ?? ({} as Doc)) || '') },
    { key: 'start', label: 'Starting tag', kind: 'text', scan: true, help: 'The tags follow on from it: …0001, …0002, …' },
    { key: 'tags', label: 'Or the tags scanned one by one', kind: 'textarea', scan: true, help: 'One tag per line (the RFID reader types each one).' },
    { key: 'phase', label: 'Growth phase', kind: 'select', options: optionsOf(['Vegetative', 'Flowering']), value: 'Vegetative' },
    { key: 'room', label: 'Room', kind: 'select', options: await roomOptions(c), value: str(rows[0]?.room) },
    dateAsk('Tagged on'),
  ],
  async describe(c, rows, input) {
    const b = rows[0]
    const n = Number(input.get('count')) || tagList(input.get('tags')).length
    return [`Batch ${str(b?.name)} has ${left(b)} untagged plants${n ? `; ${count(n, 'plant')} get tags and become tracked plants` : ''} in ${(await roomName(c, input.get('room') || b?.room)) || 'the room you choose'}.`, 'The batch count goes down by as many; METRC hears it as the batch\'s growth phase (POST /plantbatches/v2/growthphase).']
  },
  async run(w, rows, input) {
    const b = rows[0]
    const scanned = tagList(input.get('tags'))
    let tags: string[]
    if (scanned.length) {
      if (input.get('start')) throw badInput('Give a starting tag or scanned tags, not both.')
      tags = scanned
    } else {
      const n = needPositive(input, 'count', 'How many plants to tag')
      if (!Number.isInteger(n)) throw badInput('How many plants to tag: a whole number.')
      if (!input.get('start')) throw badInput('Starting tag: scan or type the first tag (or scan each tag below).')
      tags = tagSequence(input.get('start'), n)
      if (!tags.length) throw badInput('Starting tag: it must end in digits, with room for that many tags after it.')
    }
    if (new Set(tags).size !== tags.length) throw badInput('The same tag is there twice.')
    if (tags.length > left(b)) throw badInput(`Batch ${str(b.name)} has ${left(b)} untagged plants; ${tags.length} tags given.`)
    const used = await w.tx.query<{ tag: string }>(`SELECT doc->>'tag' AS tag FROM c_fac_plants WHERE org = $1 AND doc->>'tag' = ANY($2::text[])`, [w.org, tags])
    if (used.rows.length) throw badInput(`Tags already on plants: ${used.rows.slice(0, 5).map((r) => r.tag).join(', ')}. Nothing was changed.`)
    const phase = input.get('phase') === 'Flowering' ? 'Flowering' : 'Vegetative'
    const room = input.get('room') ? await roomOf(w, input) : { id: str(b.room), name: await roomName(w, b.room) }
    if (!room.name) throw badInput('Room: choose one of this facility\'s rooms.')
    const at = dateOf(input)
    await w.insert('fac_plants', tags.map((t) => ({ tag: t, strain: b.strain, room: room.id, phase, planted: b.planted, phaseDate: at, planting: b._id, alive: 'yes' })))
    await w.update('fac_plantings', [{ before: b, patch: { count: left(b) - tags.length, phase } }])
    await w.queue(
      consecutiveRuns(tags).map((r) => ({
        endpoint: 'POST /plantbatches/v2/growthphase',
        payload: { Name: str(b.name), Count: r.count, StartingTag: r.start, GrowthPhase: phase, NewLocation: room.name, NewSublocation: null, GrowthDate: metrcDay(at, w.timeZone), PatientLicenseNumber: null },
        label: `Batch ${str(b.name)}: ${count(r.count, 'plant')} tagged from ${r.start}, ${phase} in ${room.name}`,
        source: { collection: 'fac_plantings', id: b._id },
      })),
    )
    return `${count(tags.length, 'plant')} tagged from batch ${str(b.name)} (${tags[0]}${tags.length > 1 ? ` … ${tags[tags.length - 1]}` : ''}); ${left(b) - tags.length} left untagged.`
  },
}

const UNITS = ['g', 'oz', 'lb']
const METRC_UNIT: Record<string, string> = { g: 'Grams', oz: 'Ounces', lb: 'Pounds' }

const destroyPart: RowActionDef = {
  rowLabel: (r) => str(r.name) || r._id,
  ask: () => [
    { key: 'count', label: 'How many untagged plants', kind: 'number', required: true },
    { key: 'waste_reason', label: 'Waste reason (METRC)', kind: 'select', required: true, options: optionsOf(METRC_WASTE_REASONS) },
    { key: 'waste_method', label: 'Waste method', kind: 'select', required: true, options: optionsOf(WASTE_METHODS) },
    { key: 'mix_material', label: 'Mix material', kind: 'select', required: true, options: optionsOf(MIX_MATERIALS) },
    { key: 'weight', label: 'Waste weight', kind: 'number', required: true },
    { key: 'unit', label: 'Unit', kind: 'select', options: optionsOf(UNITS), value: 'g' },
    { key: 'note', label: 'Note', kind: 'text' },
    dateAsk('Destroyed on'),
  ],
  describe: (_c, rows) => [`Part of batch ${str(rows[0]?.name)} (${left(rows[0] ?? ({} as Doc))} untagged plants) is destroyed; its count goes down.`, 'METRC hears it as the batch\'s destroy (DELETE /plantbatches/v2), with the waste.'],
  async run(w, rows, input) {
    const b = rows[0]
    const n = needPositive(input, 'count', 'How many untagged plants')
    if (!Number.isInteger(n) || n > left(b)) throw badInput(`How many untagged plants: a whole number from 1 to ${left(b)}.`)
    const weight = needPositive(input, 'weight', 'Waste weight')
    const unit = UNITS.includes(input.get('unit')) ? input.get('unit') : 'g'
    if (!(METRC_WASTE_REASONS as readonly string[]).includes(input.get('waste_reason'))) throw badInput("Waste reason: choose one of METRC's reasons.")
    if (!input.get('waste_method') || !input.get('mix_material')) throw badInput('Waste Method, Mix Material and Dead Weight should all be specified')
    const at = dateOf(input)
    await w.update('fac_plantings', [{ before: b, patch: { count: left(b) - n } }])
    await w.queue([
      {
        endpoint: 'DELETE /plantbatches/v2',
        payload: { PlantBatch: str(b.name), Count: n, WasteMethodName: input.get('waste_method'), WasteMaterialMixed: input.get('mix_material'), WasteReasonName: input.get('waste_reason'), ReasonNote: input.get('note'), WasteWeight: weight, WasteUnitOfMeasure: METRC_UNIT[unit], ActualDate: metrcDay(at, w.timeZone) },
        label: `Destroy ${n} of batch ${str(b.name)} (${weight} ${unit} waste)`,
        source: { collection: 'fac_plantings', id: b._id },
        noteField: 'ReasonNote',
      },
    ])
    return `${count(n, 'plant')} of batch ${str(b.name)} destroyed; ${left(b) - n} left.`
  },
}

export function registerBatchActions(): void {
  registerRowAction('fac_moms', 'clone', clone)
  registerRowAction('fac_plantings', 'tag', tag)
  registerRowAction('fac_plantings', 'destroy', destroyPart)
}
