/**
 * Actions on packages (/MetrcPackages, issue 23): split, adjust with a reason, move, put on hold /
 * release, and take a sample for lab testing. Each is one transaction (decision 038).
 *
 *   split   new packages of the same item, their quantity off the source → POST /packages/v2 each
 *           (the metrc_packages planner: the source as its one ingredient); the source's own
 *           quantity goes down without an adjustment: METRC takes it off itself
 *   sample  a lab sample package off the source                          → POST /packages/v2/testing
 *   adjust  a new quantity with METRC's reason (and note when it needs one) → POST /packages/v2/adjust
 *   move    to a room                                                      → PUT /packages/v2/location (planner)
 *   hold    on hold in Canopy (the reason kept in the note): it cannot be split or sampled until
 *           released. METRC has no call for it (a state puts its own holds); nothing is sent
 */
import type { Doc } from '../../db/types'
import { isYes } from '../../format/format'
import { metrcDay } from '../../metrc/outbox/pushes.server'
import type { ActionContext, ActionInput, ActionWork, AskField, RowActionDef } from '../../records/row-actions.server'
import { registerRowAction } from '../../records/row-actions.server'
import { badInput } from '../../utils/errors'
import { count, dateAsk, dateOf, refuseSome, roomName, roomOf, roomOptions, some } from './common.server'
import { positive } from './rules'

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')
const labelOf = (p: Doc) => str(p.Label) || p._id
const qtyOf = (p: Doc) => Number(p.Quantity) || 0
const unitOf = (p: Doc) => str(p.UnitOfMeasureName)
const round4 = (n: number) => Math.round(n * 10_000) / 10_000
const amount = (p: Doc) => `${qtyOf(p)} ${unitOf(p)}`
/** why a package can give none of its contents, or null */
const closed = (p: Doc) => (p.IsUsed !== undefined && !isYes(p.IsUsed) ? 'finished' : isYes(p.IsOnHold) ? 'on hold' : null)

/** New package tags: none twice, none already a package's. */
async function freshTags(w: ActionWork, tags: string[]): Promise<void> {
  if (new Set(tags).size !== tags.length) throw badInput('The same package tag is there twice.')
  const used = await w.tx.query<{ tag: string }>(`SELECT doc->>'Label' AS tag FROM c_metrc_packages WHERE org = $1 AND doc->>'Label' = ANY($2::text[])`, [w.org, tags])
  if (used.rows.length) throw badInput(`Package tags already used: ${used.rows.map((r) => r.tag).join(', ')}. Nothing was changed.`)
}

/** A new package of the source's item, its contents off the source. */
function childOf(src: Doc, tag: string, qty: number, location: string, at: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Label: tag, PackageType: str(src.PackageType) || 'Product', ItemName: str(src.ItemName), Quantity: qty, UnitOfMeasureName: unitOf(src),
    LocationName: location, SourcePackageLabels: labelOf(src), PackagedDate: at, LabTestingState: str(src.LabTestingState) || 'NotSubmitted',
    IsOnHold: 'no', Note: '', ...extra,
  }
}

/** The room the form names, or the source's own location when none is chosen. */
async function locationOf(c: ActionContext, input: ActionInput, src: Doc): Promise<string> {
  return input.get('location') ? (await roomOf(c, input, 'location', 'Location')).name : str(src.LocationName)
}

const LINES = 5

const split: RowActionDef = {
  rowLabel: labelOf,
  ask: async (c, rows) => [
    {
      key: 'pkg', label: 'New packages', kind: 'lines', lines: LINES,
      help: `One line per new package: its tag (scan it) and how much goes in, in ${unitOf(rows[0]) || 'the package’s unit'}. Empty lines are skipped.`,
      columns: [{ key: 'tag', label: 'Package tag', kind: 'text', scan: true }, { key: 'qty', label: 'Quantity', kind: 'number' }],
    },
    { key: 'location', label: 'Location', kind: 'select', options: [{ value: '', label: `Where it is now${rows[0]?.LocationName ? ` (${str(rows[0].LocationName)})` : ''}` }, ...(await roomOptions(c))] },
    dateAsk('Packaged on'),
  ],
  describe: (_c, rows) => [
    `Package ${labelOf(rows[0])} (${amount(rows[0])} of ${str(rows[0].ItemName)}) is split: each new package takes its quantity off it, and it keeps the rest.`,
    'METRC hears each new package (POST /packages/v2, this package as its ingredient).',
  ],
  async run(w, rows, input) {
    const src = rows[0]
    refuseSome([src], closed, labelOf, 'packages cannot be split')
    const lines: Array<{ tag: string; qty: number }> = []
    for (let i = 0; i < LINES; i++) {
      const tag = input.get(`pkg.${i}.tag`)
      const raw = input.get(`pkg.${i}.qty`)
      if (!tag && !raw) continue
      const qty = positive(raw)
      if (!tag || qty === null) throw badInput(`New package ${i + 1}: a tag and a quantity more than 0.`)
      lines.push({ tag, qty })
    }
    if (!lines.length) throw badInput('New packages: fill in at least one line.')
    await freshTags(w, lines.map((l) => l.tag))
    const total = round4(lines.reduce((s, l) => s + l.qty, 0))
    if (total > qtyOf(src) + 1e-9) throw badInput(`The new packages hold ${total} ${unitOf(src)}; package ${labelOf(src)} holds ${amount(src)}.`)
    const at = dateOf(input)
    const location = await locationOf(w, input, src)
    await w.insert('metrc_packages', lines.map((l) => childOf(src, l.tag, l.qty, location, at)))
    await w.update('metrc_packages', [{ before: src, patch: { Quantity: round4(qtyOf(src) - total) } }], { pushes: false })
    return `Package ${labelOf(src)} split into ${count(lines.length, 'new package')} (${total} ${unitOf(src)}); ${round4(qtyOf(src) - total)} ${unitOf(src)} left in it.`
  },
}

const sample: RowActionDef = {
  rowLabel: labelOf,
  ask: (_c, rows) => [
    { key: 'tag', label: 'Sample package tag', kind: 'text', required: true, scan: true, help: 'Scan the new tag for the sample.' },
    { key: 'qty', label: `Quantity (${unitOf(rows[0]) || 'the package’s unit'})`, kind: 'number', required: true },
    dateAsk('Sampled on'),
  ],
  describe: (_c, rows) => [
    `A lab sample is taken from package ${labelOf(rows[0])} (${amount(rows[0])} of ${str(rows[0].ItemName)}): a new package marked Lab Sample, its quantity off this one.`,
    'METRC hears it as a testing package (POST /packages/v2/testing, this package as its ingredient).',
  ],
  async run(w, rows, input) {
    const src = rows[0]
    refuseSome([src], closed, labelOf, 'packages cannot give a sample')
    const tag = input.get('tag')
    if (!tag) throw badInput('Sample package tag: scan or type the new tag.')
    const qty = positive(input.get('qty'))
    if (qty === null) throw badInput('Quantity: enter a number more than 0.')
    if (qty > qtyOf(src) + 1e-9) throw badInput(`Package ${labelOf(src)} holds ${amount(src)}: not enough for ${qty} ${unitOf(src)}.`)
    await freshTags(w, [tag])
    const at = dateOf(input)
    await w.insert('metrc_packages', [childOf(src, tag, qty, str(src.LocationName), at, { IsTestingSample: 'yes', LabTestingState: 'NotSubmitted' })])
    await w.update('metrc_packages', [{ before: src, patch: { Quantity: round4(qtyOf(src) - qty) } }], { pushes: false })
    return `Lab sample ${tag}: ${qty} ${unitOf(src)} from package ${labelOf(src)}.`
  },
}

/** METRC's adjustment reasons (the synced /MetrcPackageAdjust): name → needs a note. Inside the action, read through its transaction. */
async function reasons(c: ActionContext, tx?: ActionWork['tx']): Promise<Map<string, boolean>> {
  const rows = tx ? await c.store.findIn(tx, c.org, 'metrc_package_adjust', {}, 200) : await c.store.find(c.org, 'metrc_package_adjust', {}, 200)
  return new Map(rows.filter((r) => str(r.Name)).map((r) => [str(r.Name), isYes(r.RequiresNote)]))
}

const adjust: RowActionDef = {
  rowLabel: labelOf,
  ask: async (c, rows): Promise<AskField[]> => {
    const why = await reasons(c)
    return [
      { key: 'qty', label: `New quantity (${unitOf(rows[0]) || 'the package’s unit'})`, kind: 'number', required: true, value: String(qtyOf(rows[0])), help: `Now ${amount(rows[0])}.` },
      { key: 'reason', label: 'Reason', kind: 'select', required: true, options: [...why.keys()].sort().map((n) => ({ value: n, label: why.get(n) ? `${n} (needs a note)` : n })) },
      { key: 'note', label: 'Note', kind: 'textarea' },
      dateAsk('Adjusted on'),
    ]
  },
  describe: (_c, rows) => [`Package ${labelOf(rows[0])} (${amount(rows[0])} of ${str(rows[0].ItemName)}) gets a new quantity, with METRC's reason.`, 'METRC hears the change (POST /packages/v2/adjust).'],
  async run(w, rows, input) {
    const p = rows[0]
    if (p.IsUsed !== undefined && !isYes(p.IsUsed)) throw badInput(`Package ${labelOf(p)} is finished.`)
    const raw = input.get('qty')
    const qty = raw === '' ? NaN : Number(raw)
    if (!Number.isFinite(qty) || qty < 0) throw badInput('New quantity: a number, 0 or more.')
    const delta = round4(qty - qtyOf(p))
    if (delta === 0) throw badInput(`Package ${labelOf(p)} already holds ${amount(p)}: nothing to adjust.`)
    const why = await reasons(w, w.tx)
    const reason = input.get('reason')
    if (!reason || (why.size && !why.has(reason))) throw badInput('Reason: choose one of METRC’s adjustment reasons.')
    const note = input.get('note')
    if (why.get(reason) && !note) throw badInput(`Reason ${reason} needs a note: say what happened.`)
    const at = dateOf(input)
    await w.update('metrc_packages', [{ before: p, patch: { Quantity: qty } }], { pushes: false })
    await w.queue([{
      endpoint: 'POST /packages/v2/adjust',
      payload: { Label: labelOf(p), Quantity: delta, UnitOfMeasure: unitOf(p), AdjustmentReason: reason, AdjustmentDate: metrcDay(at, w.timeZone), ReasonNote: note || null },
      label: `Adjust package ${labelOf(p)} by ${delta > 0 ? '+' : ''}${delta} ${unitOf(p)} (${reason})`,
      source: { collection: 'metrc_packages', id: p._id },
    }])
    return `Package ${labelOf(p)}: ${qtyOf(p)} → ${qty} ${unitOf(p)} (${reason}).`
  },
}

const move: RowActionDef = {
  rowLabel: labelOf,
  ask: async (c) => [{ key: 'room', label: 'To room', kind: 'select', required: true, options: await roomOptions(c) }],
  describe: async (c, rows, input) => {
    const to = (await roomName(c, input.get('room'))) || 'the room you choose'
    const from = [...new Set(rows.map((r) => str(r.LocationName) || 'no location'))]
    return [`${count(rows.length, 'package')} (${some(rows, labelOf)}) move from ${from.slice(0, 3).join(', ')}${from.length > 3 ? ' …' : ''} to ${to}.`, 'METRC hears each move (PUT /packages/v2/location).']
  },
  async run(w, rows, input) {
    const room = await roomOf(w, input)
    refuseSome(rows, (p) => (p.IsUsed !== undefined && !isYes(p.IsUsed) ? 'finished' : null), labelOf, 'packages cannot move')
    const moving = rows.filter((p) => str(p.LocationName) !== room.name)
    await w.update('metrc_packages', moving.map((before) => ({ before, patch: { LocationName: room.name } })))
    const stay = rows.length - moving.length
    return `${count(moving.length, 'package')} moved to ${room.name}${stay ? ` (${stay} already there)` : ''}.`
  },
}

const noted = (p: Doc, line: string) => (str(p.Note) ? `${str(p.Note)}\n${line}` : line)

const hold: RowActionDef = {
  rowLabel: labelOf,
  ask: () => [{ key: 'reason', label: 'Why', kind: 'textarea', required: true, help: 'Kept in each package’s note, with the date.' }, dateAsk('On hold from')],
  describe: (_c, rows) => [`${count(rows.length, 'package')} (${some(rows, labelOf)}) put on hold: none can be split or sampled until released.`, 'Canopy only: METRC has no call for a hold (the state puts its own). Nothing is sent.'],
  async run(w, rows, input) {
    const reason = input.get('reason')
    if (!reason) throw badInput('Why: say why the packages are held.')
    const at = dateOf(input)
    const open = rows.filter((p) => !isYes(p.IsOnHold))
    await w.update('metrc_packages', open.map((before) => ({ before, patch: { IsOnHold: 'yes', Note: noted(before, `On hold ${metrcDay(at, w.timeZone)}: ${reason}`) } })))
    return `${count(open.length, 'package')} put on hold${rows.length > open.length ? ` (${rows.length - open.length} already were)` : ''}.`
  },
}

const release: RowActionDef = {
  rowLabel: labelOf,
  ask: () => [{ key: 'reason', label: 'Why (optional)', kind: 'textarea' }, dateAsk('Released on')],
  describe: (_c, rows) => [`${count(rows.length, 'package')} (${some(rows, labelOf)}) released from hold.`, 'Canopy only: nothing is sent to METRC.'],
  async run(w, rows, input) {
    const at = dateOf(input)
    const reason = input.get('reason')
    const held = rows.filter((p) => isYes(p.IsOnHold))
    await w.update('metrc_packages', held.map((before) => ({ before, patch: { IsOnHold: 'no', Note: noted(before, `Released ${metrcDay(at, w.timeZone)}${reason ? `: ${reason}` : ''}`) } })))
    return `${count(held.length, 'package')} released${rows.length > held.length ? ` (${rows.length - held.length} were not on hold)` : ''}.`
  },
}

export function registerPackageActions(): void {
  registerRowAction('metrc_packages', 'split', split)
  registerRowAction('metrc_packages', 'sample', sample)
  registerRowAction('metrc_packages', 'adjust', adjust)
  registerRowAction('metrc_packages', 'move', move)
  registerRowAction('metrc_packages', 'hold', hold)
  registerRowAction('metrc_packages', 'release', release)
}
