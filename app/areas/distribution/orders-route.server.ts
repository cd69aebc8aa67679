/**
 * /DisSales (Orders) and /DisSales/{id} (one order): the list by status, and the order's page with
 * its lines, totals and taxes, picked packages, status history, documents (manifest, invoice),
 * payments and METRC status; its actions (confirm, fulfil by scanned tags, ship, deliver, cancel)
 * are plain form posts to the order's page.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import type { CartLine } from './cart.server'
import { areaAccess, refusalAsForm, str } from './access.server'
import { ORDER_STATUSES, refusalOf, TRANSITIONS, type OrderAction } from './rules'
import { cancelOrder, confirmOrder, deliverOrder, fulfilOrder, shipOrder, type AssignedPackage, type HistoryEntry } from './orders.server'

export const ORDERS_PATH = '/DisSales'
const cents = (d: Record<string, unknown>, k: string, dollarsKey: string) => (typeof d[k] === 'number' ? (d[k] as number) : Math.round(Number(d[dollarsKey] ?? 0) * 100))

export async function ordersLoader({ request, context }: LoaderFunctionArgs) {
  const { org } = await areaAccess(request, context, ORDERS_PATH)
  const url = new URL(request.url)
  const status = url.searchParams.get('status') ?? ''
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 60)
  const params: unknown[] = [org]
  let where = 'o.org = $1'
  if ((ORDER_STATUSES as readonly string[]).includes(status)) {
    params.push(status)
    where += ` AND o.doc->>'status' = $${params.length}`
  }
  if (q) {
    params.push(`%${q.toLowerCase()}%`)
    where += ` AND (lower(o.doc->>'orderNo') LIKE $${params.length} OR lower(c.doc->>'name') LIKE $${params.length})`
  }
  const r = await context.database.db.query<{ id: string; doc: Record<string, unknown>; client: string | null }>(
    `SELECT o.id, o.doc, c.doc->>'name' AS client FROM c_dis_orders o LEFT JOIN c_set_clients c ON c.org = o.org AND c.id = o.doc->>'client' WHERE ${where} ORDER BY o.doc->>'orderDate' DESC NULLS LAST, o.id LIMIT 200`,
    params,
  )
  const counts = await context.database.db.query<{ status: string; n: number }>(`SELECT doc->>'status' AS status, count(*)::int AS n FROM c_dis_orders WHERE org = $1 GROUP BY 1`, [org])
  return json({
    status,
    q,
    counts: Object.fromEntries(counts.rows.map((c) => [c.status, c.n])),
    rows: r.rows.map((o) => ({ id: o.id, orderNo: String(o.doc.orderNo ?? ''), client: o.client ?? '', date: String(o.doc.orderDate ?? ''), status: String(o.doc.status ?? ''), totalCents: cents(o.doc, 'totalCents', 'total'), invoiceNo: String(o.doc.invoiceNo ?? ''), paid: o.doc.paid === 'yes' })),
  })
}

const DONE: Record<string, string> = { created: 'Order created from the cart (draft): confirm it when the client agrees.', confirm: 'Order confirmed.', fulfil: 'Packages picked: their quantities were taken off stock.', ship: 'Shipped: manifest and invoice written, METRC transfer queued.', deliver: 'Marked delivered.', cancel: 'Order cancelled.' }

export async function orderLoader({ request, context, params }: LoaderFunctionArgs) {
  const { org } = await areaAccess(request, context, ORDERS_PATH)
  const id = params.id ?? ''
  if (id === 'new') throw redirect('/DisCart')
  const db = context.database
  const o = /^[\w-]{1,64}$/.test(id) ? await db.store.get(org, 'dis_orders', id) : null
  if (!o) throw new Response('There is no order at this address.', { status: 404, statusText: 'Not found' })
  const client = o.client ? await db.store.get(org, 'set_clients', String(o.client)) : null
  const invoice = typeof o.invoice === 'string' ? await db.store.get(org, 'tax_receivables', o.invoice) : null
  const payments = invoice ? (await db.db.query<{ doc: Record<string, unknown> }>(`SELECT doc FROM c_fin_payments WHERE org = $1 AND doc->>'invoiceId' = $2 ORDER BY doc->>'paid'`, [org, invoice._id])).rows.map((r) => r.doc) : []
  const outbox = (await db.db.query<{ id: string; endpoint: string; status: string; message: string | null; metrc_id: string | null }>(`SELECT id, endpoint, status, message, metrc_id::text FROM metrc_outbox WHERE org = $1 AND source_collection = 'dis_orders' AND source_id = $2 ORDER BY seq`, [org, o._id])).rows
  const status = String(o.status ?? '')
  const actions = (Object.keys(TRANSITIONS) as OrderAction[]).map((a) => ({ action: a, label: TRANSITIONS[a].label, refusal: refusalOf(a, status) }))
  const url = new URL(request.url)
  return json({
    done: DONE[url.searchParams.get('done') ?? ''] ?? null,
    order: {
      id: o._id,
      orderNo: String(o.orderNo ?? ''),
      date: String(o.orderDate ?? ''),
      status,
      terms: String(o.terms ?? ''),
      notes: String(o.notes ?? ''),
      lines: ((o.items as CartLine[]) ?? []).map((l) => ({ id: String(l.id), name: String(l.name ?? ''), tag: String(l.tag ?? ''), qtyMilli: typeof l.qtyMilli === 'number' ? l.qtyMilli : Math.round(Number(l.qty ?? 0) * 1000), unit: String(l.unit ?? 'units'), priceCents: typeof l.priceCents === 'number' ? l.priceCents : Math.round(Number(l.price ?? 0) * 100), discountBp: Number(l.discountBp ?? 0), totalCents: typeof l.totalCents === 'number' ? l.totalCents : Math.round(Number(l.total ?? 0) * 100) })),
      subtotalCents: cents(o, 'subtotalCents', 'subtotal'),
      taxes: (o.taxes as Array<{ id: string; name: string; rateMilli: number; cents: number }>) ?? [],
      taxCents: cents(o, 'taxCents', 'exciseTax'),
      totalCents: cents(o, 'totalCents', 'total'),
      packages: (o.packages as AssignedPackage[]) ?? [],
      history: (o.history as HistoryEntry[]) ?? [],
      manifestNo: String(o.manifestNo ?? ''),
      manifest: String(o.manifest ?? ''),
      invoicePdf: String(o.invoicePdf ?? invoice?.invoicePdf ?? ''),
      metrcStatus: String(o.metrcStatus ?? ''),
    },
    client: client ? { name: String(client.name ?? ''), license: String(client.license ?? ''), type: String(client.client_type ?? ''), address: `${String(client.address ?? '')}, ${String(client.city ?? '')}, ${String(client.state ?? '')}` } : null,
    invoice: invoice ? { id: invoice._id, invoiceNo: String(invoice.invoiceNo ?? ''), dueDate: String(invoice.dueDate ?? ''), balanceCents: typeof invoice.balanceCents === 'number' ? invoice.balanceCents : Math.round(Number(invoice.balance ?? 0) * 100), taxState: String(invoice.taxState ?? '') } : null,
    payments: payments.map((p) => ({ paymentNo: String(p.paymentNo ?? ''), paid: String(p.paid ?? ''), method: String(p.method ?? ''), reference: String(p.reference ?? ''), amountCents: Number(p.amountCents ?? 0) })),
    outbox,
    actions,
  })
}

export async function orderAction({ request, context, params }: ActionFunctionArgs) {
  const { org, actor } = await areaAccess(request, context, ORDERS_PATH)
  const id = params.id ?? ''
  const f = await request.formData()
  const intent = str(f, 'intent') as OrderAction
  const db = context.database
  return refusalAsForm(async () => {
    if (intent === 'confirm') await confirmOrder(db, actor, org, id)
    else if (intent === 'fulfil') await fulfilOrder(db, actor, org, id, str(f, 'tags'))
    else if (intent === 'ship') await shipOrder(db, actor, org, id, { dataDir: context.env.DATA_DIR })
    else if (intent === 'deliver') await deliverOrder(db, actor, org, id)
    else if (intent === 'cancel') await cancelOrder(db, actor, org, id, str(f, 'reason'))
    else return json({ error: 'Unknown action.', field: null }, { status: 400 })
    return redirect(`${ORDERS_PATH}/${encodeURIComponent(id)}?done=${intent}`)
  })
}
