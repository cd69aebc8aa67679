/**
 * Actions on harvests (/CulHarvest): record dry weight and waste (METRC: POST /harvests/v2/waste
 * for the waste), make packages (metrc_packages records; the metrc_packages planner sends each as
 * POST /harvests/v2/packages with the harvest as its ingredient) and finish (PUT /harvests/v2/finish).
 * METRC names a harvest by its number: it is read from the synced /MetrcHarvests by name; before
 * the first sync the push starts failed and says what to fill in on /MetrcOutbox.
 */
import type { Doc } from '../../db/types'
import { readMeasure } from '../../format/units'
import { metrcDay } from '../../metrc/outbox/pushes.server'
import type { ActionWork } from '../../records/row-actions.server'
import { registerRowAction, type RowActionDef } from '../../records/row-actions.server'
import { WEIGHT_UOM_NAMES } from '../../seed/schemas/metrc'
import { badInput } from '../../utils/errors'
import { count, dateAsk, dateOf, optionsOf, roomName, roomOptions } from './common.server'
import { inGrams, positive } from './rules'

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')
const nameOf = (r: Doc) => str(r.name) || r._id
const UNITS = ['g', 'oz', 'lb']
const METRC_UNIT: Record<string, string> = { g: 'Grams', oz: 'Ounces', lb: 'Pounds' }
export const NEEDS_HARVEST_ID = "METRC needs the harvest's number: fill in Id (see /MetrcHarvests after Sync now) and resend."

/** METRC's number of a harvest, from the synced METRC harvests, or null. */
async function metrcHarvestId(w: ActionWork, name: string): Promise<number | null> {
  // an error would end the transaction (PostgreSQL): ask whether the synced table exists first
  if (!(await w.tx.query<{ t: string | null }>(`SELECT to_regclass('c_metrc_harvests')::text AS t`)).rows[0]?.t) return null
  const r = await w.tx.query<{ id: string }>(`SELECT doc->>'Id' AS id FROM c_metrc_harvests WHERE org = $1 AND doc->>'Name' = $2 LIMIT 1`, [w.org, name])
  const n = Number(r.rows[0]?.id)
  return Number.isInteger(n) && n > 0 ? n : null
}

/** grams a measure holds, 0 when none */
const grams = (v: unknown) => {
  const m = readMeasure(v)
  return m ? (inGrams(m.qty, m.unit) ?? 0) : 0
}

const dry: RowActionDef = {
  rowLabel: nameOf,
  ask: () => [
    { key: 'dry', label: 'Dry weight', kind: 'number', required: true },
    { key: 'waste', label: 'Waste weight (optional)', kind: 'number' },
    { key: 'wasteType', label: 'Waste type', kind: 'select', options: optionsOf(['Plant Material', 'Fibrous', 'Root Ball']), value: 'Plant Material' },
    { key: 'unit', label: 'Unit', kind: 'select', options: optionsOf(UNITS), value: 'g' },
    dateAsk('Weighed on'),
  ],
  describe: (_c, rows) => [`Harvest ${nameOf(rows[0])}: its dry weight (and any waste) is recorded; status → Curing.`, 'A waste weight goes to METRC (POST /harvests/v2/waste); METRC keeps no dry weight of its own.'],
  async run(w, rows, input) {
    const h = rows[0]
    if (str(h.status) === 'Finished') throw badInput(`Harvest ${nameOf(h)} is finished.`)
    const unit = UNITS.includes(input.get('unit')) ? input.get('unit') : 'g'
    const d = positive(input.get('dry'))
    if (d === null) throw badInput('Dry weight: enter a number more than 0.')
    const waste = input.get('waste') ? positive(input.get('waste')) : 0
    if (waste === null) throw badInput('Waste weight: a number more than 0, or leave it empty.')
    if (grams(h.wetWeight) && (inGrams(d + waste, unit) ?? 0) > grams(h.wetWeight) + 1e-6) throw badInput(`Dry weight and waste (${d + waste} ${unit}) are more than the wet weight.`)
    const at = dateOf(input)
    const prevWaste = readMeasure(h.wasteWeight)
    const wasteTotal = waste ? { qty: Math.round(((prevWaste && prevWaste.unit === unit ? prevWaste.qty : 0) + waste) * 100) / 100, unit } : h.wasteWeight
    await w.update('fac_harvests', [{ before: h, patch: { dryWeight: { qty: d, unit }, ...(waste ? { wasteWeight: wasteTotal } : {}), status: 'Curing' } }])
    if (waste) {
      const id = await metrcHarvestId(w, nameOf(h))
      await w.queue([{ endpoint: 'POST /harvests/v2/waste', payload: { Id: id, WasteType: input.get('wasteType') || 'Plant Material', UnitOfWeight: METRC_UNIT[unit], WasteWeight: waste, ActualDate: metrcDay(at, w.timeZone) }, label: `Harvest ${nameOf(h)}: ${waste} ${unit} waste`, source: { collection: 'fac_harvests', id: h._id }, ...(id ? {} : { problem: NEEDS_HARVEST_ID }) }])
    }
    return `Harvest ${nameOf(h)}: ${d} ${unit} dry${waste ? `, ${waste} ${unit} waste` : ''}.`
  },
}

const finish: RowActionDef = {
  rowLabel: nameOf,
  ask: () => [dateAsk('Finished on')],
  describe: (_c, rows) => [`${count(rows.length, 'harvest')} finished (status Finished): ${rows.slice(0, 5).map(nameOf).join(', ')}.`, 'METRC hears each (PUT /harvests/v2/finish).'],
  async run(w, rows, input) {
    const at = dateOf(input)
    const open = rows.filter((h) => str(h.status) !== 'Finished')
    await w.update('fac_harvests', open.map((before) => ({ before, patch: { status: 'Finished', finished: at } })))
    for (const h of open) {
      const id = await metrcHarvestId(w, nameOf(h))
      await w.queue([{ endpoint: 'PUT /harvests/v2/finish', payload: { Id: id, ActualDate: metrcDay(at, w.timeZone) }, label: `Finish harvest ${nameOf(h)}`, source: { collection: 'fac_harvests', id: h._id }, ...(id ? {} : { problem: NEEDS_HARVEST_ID }) }])
    }
    return `${count(open.length, 'harvest')} finished.`
  },
}

const LINES = 5

const pkg: RowActionDef = {
  rowLabel: nameOf,
  ask: async (c) => [
    {
      key: 'pkg',
      label: 'Packages',
      kind: 'lines',
      lines: LINES,
      help: 'One line per package: its tag (scan it), the item, how much. Empty lines are skipped.',
      columns: [
        { key: 'tag', label: 'Package tag', kind: 'text', scan: true },
        { key: 'item', label: 'Item', kind: 'text' },
        { key: 'qty', label: 'Quantity', kind: 'number' },
        { key: 'unit', label: 'Unit', kind: 'select', options: optionsOf(WEIGHT_UOM_NAMES) },
      ],
    },
    { key: 'location', label: 'Location', kind: 'select', options: [{ value: '', label: 'None' }, ...(await roomOptions(c))] },
    dateAsk('Packaged on'),
  ],
  describe: (_c, rows) => [`Packages made from harvest ${nameOf(rows[0])}; its weight goes into them.`, 'METRC hears each package (POST /harvests/v2/packages, the harvest as its ingredient).'],
  async run(w, rows, input) {
    const h = rows[0]
    if (str(h.status) === 'Finished') throw badInput(`Harvest ${nameOf(h)} is finished: no more packages from it.`)
    const lines: Array<{ tag: string; item: string; qty: number; unit: string }> = []
    for (let i = 0; i < LINES; i++) {
      const v = (k: string) => input.get(`pkg.${i}.${k}`)
      if (!v('tag') && !v('item') && !v('qty')) continue
      const qty = positive(v('qty'))
      if (!v('tag') || !v('item') || qty === null) throw badInput(`Package ${i + 1}: a tag, an item and a quantity more than 0.`)
      const unit = (WEIGHT_UOM_NAMES as readonly string[]).includes(v('unit')) ? v('unit') : 'Grams'
      lines.push({ tag: v('tag'), item: v('item'), qty, unit })
    }
    if (!lines.length) throw badInput('Packages: fill in at least one line.')
    if (new Set(lines.map((l) => l.tag)).size !== lines.length) throw badInput('The same package tag is there twice.')
    const used = await w.tx.query<{ tag: string }>(`SELECT doc->>'Label' AS tag FROM c_metrc_packages WHERE org = $1 AND doc->>'Label' = ANY($2::text[])`, [w.org, lines.map((l) => l.tag)])
    if (used.rows.length) throw badInput(`Package tags already used: ${used.rows.map((r) => r.tag).join(', ')}. Nothing was changed.`)
    const total = lines.reduce((s, l) => s + (inGrams(l.qty, l.unit) ?? 0), 0)
    const holds = grams(h.dryWeight) || grams(h.wetWeight) - grams(h.wasteWeight)
    if (holds > 0 && total > holds + 1e-6) throw badInput(`These packages weigh ${Math.round(total * 100) / 100} g; harvest ${nameOf(h)} holds ${Math.round(holds * 100) / 100} g.`)
    const at = dateOf(input)
    const location = input.get('location') ? await roomName(w, input.get('location')) : ''
    await w.insert('metrc_packages', lines.map((l) => ({ Label: l.tag, PackageType: 'Product', ItemName: l.item, Quantity: l.qty, UnitOfMeasureName: l.unit, LocationName: location, SourceHarvestNames: nameOf(h), PackagedDate: at, LabTestingState: 'NotSubmitted', IsOnHold: 'no', Note: '' })))
    await w.update('fac_harvests', [{ before: h, patch: { status: 'Packaged' } }])
    return `${count(lines.length, 'package')} made from harvest ${nameOf(h)}.`
  },
}

export function registerHarvestActions(): void {
  registerRowAction('fac_harvests', 'dry', dry)
  registerRowAction('fac_harvests', 'finish', finish)
  registerRowAction('fac_harvests', 'package', pkg)
}
