/**
 * Payments against an invoice (issue 24 item 3): cash, check or ACH, partial payments allowed, an
 * overpayment refused with the balance named. One transaction locks the invoice (tax_receivables),
 * writes the payment (fin_payments, its number from the facility's sequence, linked to the invoice
 * by id and number), and moves the invoice's paid, balance and tax state (rules.ts taxStateOf:
 * t Pending → d Due → p Paid); a paid invoice marks its order paid. The tax portion of a payment is
 * the invoice's tax in proportion to what is paid so far, rounded once on the running total, so
 * the portions of a fully paid invoice add up to its tax exactly.
 */
import type { Database } from '../../db/index.server'
import type { Actor, Doc } from '../../db/types'
import { badInput, conflict } from '../../utils/errors'
import { divRound, dollars, parseCents, usd } from '../distribution/money'
import { PAYMENT_METHODS, taxStateOf } from '../distribution/rules'
import { inWork } from '../distribution/work.server'

export interface PaymentInput {
  invoice: string
  amount: string
  method: string
  reference?: string
  paid?: string
  memo?: string
}

/** An invoice's exact figures; invoices written before issue 24 carry dollars only. */
export function invoiceCents(d: Doc): { totalCents: number; paidCents: number; balanceCents: number; taxCents: number } {
  const total = typeof d.totalCents === 'number' ? d.totalCents : Math.round((Number(d.amount ?? 0) + Number(d.exciseTax ?? 0) + Number(d.salesTax ?? 0)) * 100)
  const balance = typeof d.balanceCents === 'number' ? d.balanceCents : Math.round(Number(d.balance ?? 0) * 100)
  const tax = typeof d.taxCents === 'number' ? d.taxCents : Math.round((Number(d.exciseTax ?? 0) + Number(d.salesTax ?? 0)) * 100)
  return { totalCents: total, paidCents: total - balance, balanceCents: balance, taxCents: tax }
}

const taxPaid = (taxCents: number, totalCents: number, paidCents: number) => (totalCents > 0 ? Number(divRound(BigInt(taxCents) * BigInt(paidCents), BigInt(totalCents))) : 0)

export async function recordPayment(database: Database, actor: Actor, org: string, input: PaymentInput): Promise<{ payment: Doc; invoice: Doc }> {
  const cents = parseCents(input.amount)
  if (cents === null || cents <= 0) throw badInput('Amount: enter what was paid, such as 250.00.', { field: 'amount' })
  if (!(PAYMENT_METHODS as readonly string[]).includes(input.method)) throw badInput(`Method: one of ${PAYMENT_METHODS.join(', ')}.`, { field: 'method' })
  const reference = (input.reference ?? '').trim().slice(0, 60)
  if (input.method === 'Check' && !reference) throw badInput('Reference: the check number.', { field: 'reference' })
  const when = input.paid?.trim() ? new Date(input.paid) : new Date()
  if (Number.isNaN(when.getTime()) || when.getTime() > Date.now() + 86_400_000) throw badInput('Date: the day the payment was received (not in the future).', { field: 'paid' })
  return inWork(database, actor, org, async (w) => {
    const inv = await w.get('tax_receivables', input.invoice, true)
    if (!inv) throw badInput('Choose the invoice this payment is for.', { field: 'invoice' })
    const c = invoiceCents(inv)
    if (c.balanceCents <= 0) throw conflict(`Invoice ${String(inv.invoiceNo)} is paid in full: nothing is owed on it.`)
    if (cents > c.balanceCents) throw badInput(`That is more than is owed: invoice ${String(inv.invoiceNo)} has a balance of ${usd(c.balanceCents)}, and ${usd(cents)} would overpay it by ${usd(cents - c.balanceCents)}. Nothing was recorded.`, { field: 'amount' })
    const paidAfter = c.paidCents + cents
    const portion = taxPaid(c.taxCents, c.totalCents, paidAfter) - taxPaid(c.taxCents, c.totalCents, c.paidCents)
    const n = await w.next('payment')
    const state = taxStateOf(c.totalCents, paidAfter)
    const payment = await w.insert('fin_payments', `pay-${n}-${Date.now().toString(36)}`, {
      paymentNo: `PAY-${when.toISOString().slice(0, 4)}-${String(n).padStart(5, '0')}`,
      client: inv.client,
      paid: when.toISOString(),
      amount: dollars(cents),
      amountCents: cents,
      method: input.method,
      reference,
      invoice: String(inv.invoiceNo ?? ''),
      invoiceId: inv._id,
      taxAmount: dollars(portion),
      taxCents: portion,
      taxState: state,
      receivedBy: actor.uid,
      cleared: input.method === 'Cash' ? 'yes' : 'no',
      memo: (input.memo ?? '').slice(0, 500),
    })
    const balance = c.totalCents - paidAfter
    const invoice = await w.update('tax_receivables', inv, {
      totalCents: c.totalCents,
      taxCents: c.taxCents,
      paidCents: paidAfter,
      balanceCents: balance,
      balance: dollars(balance),
      taxState: state,
    })
    if (balance === 0 && typeof inv.order === 'string') {
      const order = await w.get('dis_orders', inv.order, true)
      if (order) await w.update('dis_orders', order, { paid: 'yes' })
    }
    return { payment, invoice }
  })
}
