/**
 * An order's life (issue 24 item 2): Draft → Confirmed → Picking → Shipped → Delivered, or
 * Cancelled. Each action is one transaction with the order row locked (FOR UPDATE), so two
 * actions on one order queue behind each other and the status rules (rules.ts refusalOf) see the
 * committed state. Fulfil assigns scanned packages to the lines and takes the quantities off them
 * in that same transaction; each package row is locked and written only where it still holds
 * enough (a conditional UPDATE), so stock never goes below zero, however many orders race.
 * Ship writes the invoice (its number from the facility's sequence), the manifest and invoice
 * PDFs and the METRC transfer in the outbox, all or nothing.
 */
import type { Database } from '../../db/index.server'
import type { Actor, Doc } from '../../db/types'
import { enqueuePushes } from '../../metrc/outbox/enqueue.server'
import { badInput, conflict } from '../../utils/errors'
import { fmtMilli, dollars } from './money'
import { measureOf, milliOf, type CartLine } from './cart.server'
import { refusalOf, termDays, TRANSITIONS, type OrderAction } from './rules'
import { storeOrderPdfs } from './pdf.server'
import { metrcPushesFor } from './metrc.server'
import { inWork, type Work } from './work.server'

export interface AssignedPackage {
  line: string
  inv: string
  tag: string
  qtyMilli: number
  unit: string
}
export interface HistoryEntry {
  status: string
  at: string
  by: string
  note?: string
}

/** For tests: a step called between the parts of an action (to fail it half way). */
export type Probe = (step: string) => Promise<void> | void

async function lockOrder(w: Work, id: string, action: OrderAction): Promise<Doc> {
  const order = await w.must('dis_orders', id, true, 'order')
  const why = refusalOf(action, String(order.status ?? ''))
  if (why) throw conflict(why)
  return order
}

const historyOf = (o: Doc) => (Array.isArray(o.history) ? (o.history as HistoryEntry[]) : [])
const moved = (o: Doc, status: string, by: string, note?: string) => ({ status, history: [...historyOf(o), { status, at: new Date().toISOString(), by, ...(note ? { note } : {}) }] })

export async function confirmOrder(database: Database, actor: Actor, org: string, id: string): Promise<Doc> {
  return inWork(database, actor, org, async (w) => {
    const o = await lockOrder(w, id, 'confirm')
    return w.update('dis_orders', o, moved(o, TRANSITIONS.confirm.to, actor.uid))
  })
}

/** Tags typed or scanned: one per line, or separated by commas or spaces. */
export const parseTags = (s: string) => [...new Set(s.split(/[\s,;]+/).map((t) => t.trim().toUpperCase()).filter(Boolean))]

/**
 * Fulfil: every line gets a package among the scanned tags (a package line its own package; a
 * product line a package of that product with enough left), and the package loses the line's
 * quantity. A tag nobody ordered, a line without a package or a package short of stock refuses
 * the whole action: nothing changes.
 */
export async function fulfilOrder(database: Database, actor: Actor, org: string, id: string, tagsInput: string, probe?: Probe): Promise<Doc> {
  const tags = parseTags(tagsInput)
  if (!tags.length) throw badInput('Scan or type the tag of each package you pick.', { field: 'tags' })
  return inWork(database, actor, org, async (w) => {
    const o = await lockOrder(w, id, 'fulfil')
    const lines = (o.items as CartLine[]) ?? []
    const invByTag = new Map<string, Doc>()
    for (const tag of tags) {
      const r = await w.tx.query<{ id: string }>(`SELECT id FROM c_dis_inventory WHERE org = $1 AND upper(doc->>'tag') = $2 ORDER BY id LIMIT 1`, [org, tag])
      if (!r.rows[0]) throw badInput(`No package with tag ${tag} is on hand here.`, { field: 'tags' })
      invByTag.set(tag, (await w.get('dis_inventory', r.rows[0].id))!)
    }
    // which package serves which line
    const need = new Map<string, number>()
    const assigned: AssignedPackage[] = []
    for (const l of lines) {
      const candidates = l.source === 'package' ? [...invByTag.values()].filter((p) => p._id === l.inv) : [...invByTag.values()].filter((p) => p.product === l.product)
      const pick = candidates.find((p) => milliOf(measureOf(p.qty).qty) - (need.get(p._id) ?? 0) >= l.qtyMilli)
      const short = l.source === 'package' ? candidates[0] : undefined
      if (!pick && short) {
        const m = measureOf(short.qty)
        throw conflict(`Package ${String(short.tag)} holds ${fmtMilli(Math.max(0, milliOf(m.qty) - (need.get(short._id) ?? 0)))} ${m.unit}, less than the ${fmtMilli(l.qtyMilli)} line ${Number(l.id) + 1} needs: another order took it first. Nothing was changed.`)
      }
      if (!pick) {
        throw badInput(
          l.source === 'package' ? `Line ${Number(l.id) + 1} (${l.name}) is package ${l.tag}: scan that tag.` : `Line ${Number(l.id) + 1} (${l.name}, ${fmtMilli(l.qtyMilli)} ${l.unit}): scan a package of this product that holds enough.`,
          { field: 'tags' },
        )
      }
      need.set(pick._id, (need.get(pick._id) ?? 0) + l.qtyMilli)
      assigned.push({ line: l.id, inv: pick._id, tag: String(pick.tag), qtyMilli: l.qtyMilli, unit: measureOf(pick.qty).unit })
    }
    const unused = [...invByTag.entries()].filter(([, p]) => !need.has(p._id)).map(([t]) => t)
    if (unused.length) throw badInput(`Tag ${unused.join(', ')} is not for this order: take it back to its shelf and scan again.`, { field: 'tags' })
    // take the quantities off, each package locked, in id order (no deadlock between racing orders)
    for (const [invId, milli] of [...need.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      await takeFromPackage(w, invId, milli)
      await probe?.('package taken')
    }
    return w.update('dis_orders', o, { ...moved(o, 'Picking', actor.uid, `${assigned.length} package line${assigned.length === 1 ? '' : 's'} picked`), packages: assigned })
  })
}

/** Takes `milli` thousandths off a package, locked; refuses (nothing written) when it holds less. */
export async function takeFromPackage(w: Work, invId: string, milli: number): Promise<Doc> {
  const p = await w.must('dis_inventory', invId, true, 'package')
  const m = measureOf(p.qty)
  const have = milliOf(m.qty)
  if (have < milli) throw conflict(`Package ${String(p.tag)} holds ${fmtMilli(have)} ${m.unit}, less than the ${fmtMilli(milli)} this order needs: another order took it first. Nothing was changed.`)
  const left = (have - milli) / 1000
  return w.update('dis_inventory', p, { qty: { ...m, qty: left } }, { sql: `(doc->'qty'->>'qty')::numeric >= $4::numeric`, params: [milli / 1000] })
}

async function returnToPackage(w: Work, invId: string, milli: number): Promise<void> {
  const p = await w.get('dis_inventory', invId, true)
  if (!p) return
  const m = measureOf(p.qty)
  await w.update('dis_inventory', p, { qty: { ...m, qty: (milliOf(m.qty) + milli) / 1000 } })
}

export async function cancelOrder(database: Database, actor: Actor, org: string, id: string, reason = ''): Promise<Doc> {
  return inWork(database, actor, org, async (w) => {
    const o = await lockOrder(w, id, 'cancel')
    const pk = Array.isArray(o.packages) ? (o.packages as AssignedPackage[]) : []
    for (const p of [...pk].sort((a, b) => a.inv.localeCompare(b.inv))) await returnToPackage(w, p.inv, p.qtyMilli)
    return w.update('dis_orders', o, { ...moved(o, 'Cancelled', actor.uid, reason.trim() ? reason.trim().slice(0, 300) : pk.length ? 'picked packages returned to stock' : undefined), packages: [] })
  })
}

export async function deliverOrder(database: Database, actor: Actor, org: string, id: string): Promise<Doc> {
  return inWork(database, actor, org, async (w) => {
    const o = await lockOrder(w, id, 'deliver')
    return w.update('dis_orders', o, { ...moved(o, 'Delivered', actor.uid), deliveryDate: new Date().toISOString() })
  })
}

export interface Facility {
  org: string
  name: string
  license: string
  state: string
  /** the facility's IANA time zone (METRC takes its times in it, without a zone) */
  timeZone?: string
}
export async function facilityOf(database: Database, org: string): Promise<Facility> {
  const f = await database.store.get('auth', 'org', org)
  return { org, name: String(f?.fullName ?? org), license: String(f?.license ?? ''), state: String(f?.state ?? ''), timeZone: typeof f?.timezone === 'string' && f.timezone ? f.timezone : undefined }
}

/**
 * Ship: the invoice (number INV-{year}-{n} from the facility's sequence, due by the order's
 * terms), the manifest and invoice PDFs stored under the facility's files, the METRC transfer (or
 * sales receipt) queued in the outbox, and the order Shipped. A failure anywhere leaves none of it.
 */
export async function shipOrder(database: Database, actor: Actor, org: string, id: string, opts: { dataDir: string; now?: Date; probe?: Probe }): Promise<Doc> {
  const fac = await facilityOf(database, org)
  return inWork(database, actor, org, async (w) => {
    const o = await lockOrder(w, id, 'ship')
    const client = await w.must('set_clients', String(o.client), false, 'client')
    const now = opts.now ?? new Date()
    const invN = await w.next('invoice')
    const manN = await w.next('manifest')
    const invoiceNo = `INV-${now.toISOString().slice(0, 4)}-${String(invN).padStart(5, '0')}`
    const manifestNo = `MAN-${now.toISOString().slice(0, 4)}-${String(manN).padStart(5, '0')}`
    const terms = String(o.terms ?? 'COD')
    const due = new Date(now.getTime() + termDays(terms) * 86_400_000)
    const vehicle = (await w.tx.query<{ doc: Record<string, unknown> }>(`SELECT doc FROM c_set_transport WHERE org = $1 AND coalesce(doc->>'status', 'Active') = 'Active' ORDER BY id LIMIT 1`, [org])).rows[0]?.doc ?? {}
    const files = await storeOrderPdfs(opts.dataDir, { fac, order: o, client, invoiceNo, manifestNo, invoiceDate: now, dueDate: due, terms, vehicle })
    w.undo.push(files.remove)
    await opts.probe?.('files written')
    const totalCents = Number(o.totalCents)
    const invoiceId = `inv-${invN}-${Date.now().toString(36)}`
    await w.insert('tax_receivables', invoiceId, {
      invoiceNo,
      client: client._id,
      invoiceDate: now.toISOString(),
      dueDate: due.toISOString(),
      amount: dollars(Number(o.subtotalCents)),
      exciseTax: dollars(Number(o.taxCents)),
      salesTax: 0,
      balance: dollars(totalCents),
      taxState: 't',
      terms,
      invoicePdf: files.invoiceHref,
      order: o._id,
      orderNo: o.orderNo,
      subtotalCents: Number(o.subtotalCents),
      taxCents: Number(o.taxCents),
      totalCents,
      paidCents: 0,
      balanceCents: totalCents,
      notes: `Order ${String(o.orderNo)}`,
    })
    await opts.probe?.('invoice written')
    const metrcLicense = (await w.tx.query<{ license: string }>('SELECT license FROM metrc_links WHERE org = $1', [org])).rows[0]?.license ?? null
    const queued = await enqueuePushes(w.tx, org, actor, metrcPushesFor({ fac, metrcLicense, order: o, client, invoiceNo, manifestNo, vehicle, shipAt: now }))
    await opts.probe?.('outbox written')
    return w.update('dis_orders', o, {
      ...moved(o, 'Shipped', actor.uid),
      invoice: invoiceId,
      invoiceNo,
      shippedAt: now.toISOString(),
      manifestNo,
      manifest: files.manifestHref,
      invoicePdf: files.invoiceHref,
      metrcStatus: queued.length ? `queued (${queued.map((q) => q.status).join(', ')})` : 'not linked to METRC',
      metrcOutbox: queued.map((q) => q.id),
    })
  })
}
