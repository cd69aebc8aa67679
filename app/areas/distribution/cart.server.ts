/**
 * The cart of /DisCart (issue 24 item 1): one per user and facility, kept in dis_cart under the id
 * `cart-{uid}` (leave and come back), every change audited. Lines come from a package on hand
 * (dis_inventory: its tag, its product, at most what it holds) or from a product of the price list
 * (dis_products); quantity, unit price, discount. The totals are the server's (rules.ts totalsOf).
 */
import type { Database } from '../../db/index.server'
import type { Actor, Doc } from '../../db/types'
import { badInput } from '../../utils/errors'
import { dollars, parseCents, parseMilli, parsePercentBp, fmtMilli } from './money'
import { taxesFor, totalsOf, type TaxRate, type Totals } from './rules'
import { body, inWork } from './work.server'

export const MAX_LINES = 10

export interface CartLine {
  id: string
  source: 'package' | 'product'
  inv?: string
  tag: string
  product: string
  name: string
  unit: string
  qtyMilli: number
  priceCents: number
  discountBp: number
  // as the generic screens show them
  qty: number
  price: number
  discount: number
  total: number
  totalCents: number
}

export const cartId = (uid: string) => `cart-${uid.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64)

export const measureOf = (v: unknown): { qty: number; unit: string } => {
  const m = (v ?? {}) as { qty?: unknown; unit?: unknown }
  return { qty: Number(m.qty ?? 0) || 0, unit: String(m.unit ?? 'units') }
}
export const milliOf = (n: number) => Math.round(n * 1000)

export async function taxRatesOf(database: Database, org: string): Promise<TaxRate[]> {
  const rows = await database.store.find(org, 'set_tax', {}, 500)
  return rows.map((t) => ({ id: t._id, name: String(t.name ?? ''), jurisdiction: String(t.jurisdiction ?? ''), level: String(t.level ?? ''), tax_type: String(t.tax_type ?? ''), rate: Number(t.rate ?? 0), basis: String(t.basis ?? ''), IsUsed: t.IsUsed as string | undefined }))
}

export async function clientTaxes(database: Database, org: string, client: Doc | null): Promise<TaxRate[]> {
  if (!client) return []
  return taxesFor(await taxRatesOf(database, org), { state: String(client.state ?? ''), city: String(client.city ?? ''), tax_exempt: String(client.tax_exempt ?? '') })
}

export function linesOf(doc: Doc | null): CartLine[] {
  return Array.isArray(doc?.items) ? (doc!.items as CartLine[]).filter((l) => typeof l?.qtyMilli === 'number') : []
}

export function priced(lines: CartLine[], taxes: TaxRate[]): Totals {
  return totalsOf(lines.map((l) => ({ qtyMilli: l.qtyMilli, priceCents: l.priceCents, discountBp: l.discountBp })), taxes)
}

/** Line fields the generic screens show, from the exact ones. */
function shown(l: Omit<CartLine, 'qty' | 'price' | 'discount' | 'total' | 'totalCents'>, totalCents: number): CartLine {
  return { ...l, qty: l.qtyMilli / 1000, price: dollars(l.priceCents), discount: l.discountBp / 100, total: dollars(totalCents), totalCents }
}

export async function getCart(database: Database, org: string, uid: string): Promise<Doc | null> {
  return database.store.get(org, 'dis_cart', cartId(uid))
}

export interface AddLine {
  source: string
  ref: string
  qty: string
  price: string
  discount: string
}

/** Checks one new line against what is on hand and the cart's other lines; returns it priced. */
async function newLine(database: Database, org: string, lines: CartLine[], input: AddLine): Promise<CartLine> {
  if (lines.length >= MAX_LINES) throw badInput(`An order holds at most ${MAX_LINES} lines: submit this one and start another.`, { field: 'ref' })
  const qtyMilli = parseMilli(input.qty)
  if (qtyMilli === null) throw badInput('Quantity: enter a number above 0 (up to 3 decimals).', { field: 'qty' })
  const discountBp = parsePercentBp(input.discount)
  if (discountBp === null) throw badInput('Discount: a percentage from 0 to 100 (up to 2 decimals).', { field: 'discount' })
  let priceCents = input.price.trim() ? parseCents(input.price) : null
  if (input.price.trim() && (priceCents === null || priceCents < 0)) throw badInput('Unit price: an amount such as 12.50.', { field: 'price' })
  const id = String(lines.length ? Math.max(...lines.map((l) => Number(l.id) || 0)) + 1 : 0)
  if (input.source === 'package') {
    const inv = await database.store.get(org, 'dis_inventory', input.ref)
    if (!inv) throw badInput('Choose a package on hand.', { field: 'ref' })
    const m = measureOf(inv.qty)
    const taken = lines.filter((l) => l.inv === inv._id).reduce((s, l) => s + l.qtyMilli, 0)
    const left = milliOf(m.qty) - taken
    if (qtyMilli > left) throw badInput(`Package ${String(inv.tag)} has ${fmtMilli(Math.max(0, left))} ${m.unit} available${taken ? ' beside this cart\'s other lines' : ''}; you asked for ${fmtMilli(qtyMilli)}.`, { field: 'qty' })
    const product = inv.product ? await database.store.get(org, 'dis_products', String(inv.product)) : null
    priceCents ??= parseCents(product?.wholesale ?? 0) ?? 0
    const base = { id, source: 'package' as const, inv: inv._id, tag: String(inv.tag ?? ''), product: String(inv.product ?? ''), name: String(product?.name ?? inv.tag), unit: m.unit, qtyMilli, priceCents, discountBp }
    return shown(base, priced([{ ...base } as CartLine], []).lines[0].totalCents)
  }
  if (input.source === 'product') {
    const product = await database.store.get(org, 'dis_products', input.ref)
    if (!product || product.IsUsed === 'no' || product.active === 'no') throw badInput('Choose a product from the price list.', { field: 'ref' })
    priceCents ??= parseCents(product.wholesale ?? 0) ?? 0
    const base = { id, source: 'product' as const, tag: '', product: product._id, name: String(product.name ?? ''), unit: 'units', qtyMilli, priceCents, discountBp }
    return shown(base, priced([{ ...base } as CartLine], []).lines[0].totalCents)
  }
  throw badInput('Add a line from a package or from a product.', { field: 'source' })
}

async function saveCart(database: Database, actor: Actor, org: string, uid: string, patch: Record<string, unknown>): Promise<Doc> {
  const cur = await getCart(database, org, uid)
  const lines = (patch.items as CartLine[] | undefined) ?? linesOf(cur)
  const clientId = (patch.client as string | undefined) ?? String(cur?.client ?? '')
  const client = clientId ? await database.store.get(org, 'set_clients', clientId) : null
  const t = priced(lines, await clientTaxes(database, org, client))
  const doc = { ...(cur ? body(cur) : {}), owner: uid, rep: actor.uid, created: cur?.created ?? new Date().toISOString(), ...patch, client: clientId, items: lines, subtotal: dollars(t.subtotalCents), subtotalCents: t.subtotalCents }
  return database.store.upsert(actor, org, 'dis_cart', cartId(uid), doc)
}

export async function setCartClient(database: Database, actor: Actor, org: string, uid: string, clientId: string): Promise<Doc> {
  const client = await database.store.get(org, 'set_clients', clientId)
  if (!client || client.IsUsed === 'no') throw badInput('Choose a client from the list.', { field: 'client' })
  if (client.license_exp && new Date(String(client.license_exp)).getTime() < Date.now()) throw badInput(`${String(client.name)}'s license ${String(client.license)} expired on ${String(client.license_exp).slice(0, 10)}: it cannot receive cannabis.`, { field: 'client' })
  return saveCart(database, actor, org, uid, { client: client._id, terms: String(client.terms ?? 'COD') })
}

export async function addCartLine(database: Database, actor: Actor, org: string, uid: string, input: AddLine): Promise<Doc> {
  const cur = await getCart(database, org, uid)
  const lines = linesOf(cur)
  const line = await newLine(database, org, lines, input)
  return saveCart(database, actor, org, uid, { items: [...lines, line] })
}

export async function removeCartLine(database: Database, actor: Actor, org: string, uid: string, lineId: string): Promise<Doc> {
  const lines = linesOf(await getCart(database, org, uid))
  return saveCart(database, actor, org, uid, { items: lines.filter((l) => l.id !== lineId) })
}

export async function clearCart(database: Database, actor: Actor, org: string, uid: string): Promise<void> {
  const cur = await getCart(database, org, uid)
  if (cur) await database.store.remove(actor, org, 'dis_cart', cur._id)
}

/**
 * Submitting the cart: one transaction reads it (locked), prices it once more with the client's
 * taxes, takes the next order number, writes the order (Draft) and removes the cart.
 */
export async function submitCart(database: Database, actor: Actor, org: string, uid: string, notes = ''): Promise<Doc> {
  const pre = await getCart(database, org, uid)
  const client = pre?.client ? await database.store.get(org, 'set_clients', String(pre.client)) : null
  const taxes = await clientTaxes(database, org, client)
  return inWork(database, actor, org, async (w) => {
    const cart = await w.get('dis_cart', cartId(uid), true)
    const lines = linesOf(cart)
    if (!cart || !lines.length) throw badInput('The cart is empty: add at least one line.', { field: 'ref' })
    if (!client || client._id !== cart.client) throw badInput('Choose the client this order is for.', { field: 'client' })
    const t = priced(lines, taxes)
    const n = await w.next('order')
    const now = new Date().toISOString()
    const order = await w.insert('dis_orders', `so-${n}-${Date.now().toString(36)}`, {
      orderNo: `SO-${now.slice(0, 4)}-${String(n).padStart(5, '0')}`,
      client: client._id,
      clientName: String(client.name ?? ''),
      orderDate: now,
      items: lines.map((l, i) => ({ ...l, total: dollars(t.lines[i].totalCents), totalCents: t.lines[i].totalCents })),
      grossCents: t.grossCents,
      discountCents: t.discountCents,
      subtotalCents: t.subtotalCents,
      taxes: t.taxes,
      taxCents: t.taxCents,
      totalCents: t.totalCents,
      subtotal: dollars(t.subtotalCents),
      exciseTax: dollars(t.taxCents),
      total: dollars(t.totalCents),
      status: 'Draft',
      terms: String(cart.terms ?? client.terms ?? 'COD'),
      paid: 'no',
      rep: actor.uid,
      notes: notes.slice(0, 2000),
      history: [{ status: 'Draft', at: now, by: actor.uid }],
      packages: [],
    })
    await w.remove('dis_cart', cart)
    return order
  })
}
