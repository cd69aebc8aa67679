/**
 * The order flow's figures are written by its own actions only (decision 040): through the generic
 * write path (the table screens' edit form, /dt/v1), an order made by the flow keeps its status, lines
 * and totals, an invoice its amounts, balance and tax state, a payment its amount. Notes, dates and
 * the like stay editable there. A refused write changes nothing (the step runs in its transaction).
 */
import type { WriteStep } from '../../records/write-hooks.server'
import { badInput } from '../../utils/errors'

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
const lineKey = (v: unknown) => (Array.isArray(v) ? v.map((l: Record<string, unknown>) => [l?.product ?? '', Number(l?.qty ?? 0), Number(l?.price ?? 0), Number(l?.total ?? 0)]) : [])

function guard(marker: string, fields: string[], where: string): WriteStep {
  return async (_tx, { before, saved }) => {
    if (!before || typeof before[marker] !== 'number') return
    const changed = fields.filter((f) => (f === 'items' ? !same(lineKey(before.items), lineKey(saved.items)) : !same(before[f], saved[f])))
    if (changed.length) throw badInput(`${changed.join(', ')}: ${where}`, { field: changed[0] })
  }
}

export const orderGuard = guard('totalCents', ['status', 'items', 'subtotal', 'exciseTax', 'total', 'subtotalCents', 'taxCents', 'totalCents', 'packages', 'invoice', 'invoiceNo'], "an order's status, lines and totals change through its own page (/DisSales/{id}: confirm, fulfil, ship, deliver, cancel); nothing was saved.")
export const invoiceGuard = guard('totalCents', ['amount', 'exciseTax', 'salesTax', 'balance', 'taxState', 'totalCents', 'paidCents', 'balanceCents', 'taxCents'], "an invoice's amounts, balance and tax state follow its payments (/FinPayments); nothing was saved.")
export const paymentGuard = guard('amountCents', ['amount', 'amountCents', 'invoice', 'invoiceId', 'taxAmount', 'taxCents'], 'a recorded payment keeps its amount and invoice (record a correcting payment instead); nothing was saved.')
