/**
 * The order's rules (issue 24 items 2 and 5), pure and shared by the browser (instant totals) and
 * the server (which alone decides): statuses and what may follow what, which taxes of /SetTax apply
 * to a client, and an order's totals from its lines.
 */
import { grossCents, lineCents, taxCents } from './money'

export const ORDER_STATUSES = ['Draft', 'Confirmed', 'Picking', 'Shipped', 'Delivered', 'Cancelled'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** The actions on an order's page, what they need and where they lead. */
export const TRANSITIONS = {
  confirm: { from: ['Draft'], to: 'Confirmed', label: 'Confirm' },
  fulfil: { from: ['Confirmed'], to: 'Picking', label: 'Fulfil' },
  ship: { from: ['Picking'], to: 'Shipped', label: 'Ship' },
  deliver: { from: ['Shipped'], to: 'Delivered', label: 'Mark delivered' },
  cancel: { from: ['Draft', 'Confirmed', 'Picking'], to: 'Cancelled', label: 'Cancel' },
} as const satisfies Record<string, { from: readonly OrderStatus[]; to: OrderStatus; label: string }>
export type OrderAction = keyof typeof TRANSITIONS

/** Why `action` may not run on an order in `status` (null: it may). */
export function refusalOf(action: OrderAction, status: string): string | null {
  const t = TRANSITIONS[action]
  if ((t.from as readonly string[]).includes(status)) return null
  if (action === 'ship') return status === 'Draft' || status === 'Confirmed' ? `An order that is ${status.toLowerCase()} cannot ship: confirm it and fulfil it (scan its packages) first.` : `A ${status.toLowerCase()} order cannot ship again.`
  if (action === 'cancel') return status === 'Delivered' ? 'A delivered order cannot be cancelled: record a return instead.' : status === 'Shipped' ? 'A shipped order cannot be cancelled: it is on the road with its manifest.' : 'This order is already cancelled.'
  if (action === 'fulfil') return status === 'Draft' ? 'Confirm the order before fulfilling it.' : `A ${status.toLowerCase()} order cannot be fulfilled.`
  if (action === 'confirm') return `Only a draft order can be confirmed; this one is ${status.toLowerCase()}.`
  return `Only a shipped order can be marked delivered; this one is ${status.toLowerCase()}.`
}

export interface TaxRate {
  id: string
  name: string
  jurisdiction: string
  level: string
  tax_type: string
  rate: number
  basis: string
  IsUsed?: string
}
export interface ClientFacts {
  state: string
  city?: string
  tax_exempt?: string
}

/** Bases charged on a wholesale sale; retail-price and per-weight taxes are not the distributor's to charge here. */
const WHOLESALE_BASES = new Set(['Gross receipts', 'Wholesale price', 'Average market rate'])

/**
 * The taxes of /SetTax an order to this client carries: those of the client's state (and of its city,
 * `City, ST`), charged as a percentage on a wholesale basis; sales tax not for a tax-exempt client.
 */
export function taxesFor(rates: TaxRate[], client: ClientFacts): TaxRate[] {
  const st = client.state.trim().toUpperCase()
  const city = `${(client.city ?? '').trim()}, ${st}`.toLowerCase()
  return rates
    .filter((t) => t.IsUsed !== 'no' && Number(t.rate) > 0 && WHOLESALE_BASES.has(t.basis))
    .filter((t) => t.jurisdiction.trim().toUpperCase() === st || t.jurisdiction.trim().toLowerCase() === city)
    .filter((t) => !(t.tax_type === 'Sales' && client.tax_exempt === 'yes'))
    .sort((a, b) => a.name.localeCompare(b.name))
}

export interface LineInput {
  qtyMilli: number
  priceCents: number
  discountBp: number
}
export interface Totals {
  lines: Array<{ grossCents: number; discountCents: number; totalCents: number }>
  grossCents: number
  discountCents: number
  subtotalCents: number
  taxes: Array<{ id: string; name: string; rateMilli: number; cents: number }>
  taxCents: number
  totalCents: number
}

/** rate % (number as stored in /SetTax) → thousandths of a percent, exactly */
export const rateMilliOf = (rate: number) => Math.round(Number(rate) * 1000)

export function totalsOf(lines: LineInput[], taxes: Array<Pick<TaxRate, 'id' | 'name' | 'rate'>>): Totals {
  const ls = lines.map((l) => {
    const g = grossCents(l.qtyMilli, l.priceCents)
    const t = lineCents(l.qtyMilli, l.priceCents, l.discountBp)
    return { grossCents: g, discountCents: g - t, totalCents: t }
  })
  const subtotal = ls.reduce((s, l) => s + l.totalCents, 0)
  const tx = taxes.map((t) => ({ id: t.id, name: t.name, rateMilli: rateMilliOf(t.rate), cents: taxCents(subtotal, rateMilliOf(t.rate)) }))
  const taxTotal = tx.reduce((s, t) => s + t.cents, 0)
  return {
    lines: ls,
    grossCents: ls.reduce((s, l) => s + l.grossCents, 0),
    discountCents: ls.reduce((s, l) => s + l.discountCents, 0),
    subtotalCents: subtotal,
    taxes: tx,
    taxCents: taxTotal,
    totalCents: subtotal + taxTotal,
  }
}

/** SPEC §3 tax states of an invoice, from what was paid: t Pending (nothing yet), d Due (part), p Paid. */
export function taxStateOf(totalCents: number, paidCents: number): 't' | 'd' | 'p' {
  if (paidCents >= totalCents) return 'p'
  return paidCents > 0 ? 'd' : 't'
}

export const PAYMENT_METHODS = ['Cash', 'Check', 'ACH'] as const

/** Days a term gives: "Net 30" → 30, COD/Prepaid → 0. */
export const termDays = (terms: string) => Number(/^Net (\d+)$/.exec(terms)?.[1] ?? 0)

/** Ageing buckets of an open invoice by days past its due date. */
export const AGEING = ['Current', '1–30', '31–60', '61–90', '90+'] as const
export function ageingBucket(dueIso: string, now: Date): (typeof AGEING)[number] {
  const days = Math.floor((now.getTime() - new Date(dueIso).getTime()) / 86_400_000)
  if (days <= 0) return 'Current'
  if (days <= 30) return '1–30'
  if (days <= 60) return '31–60'
  if (days <= 90) return '61–90'
  return '90+'
}
