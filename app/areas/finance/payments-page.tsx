/** /FinPayments (record a payment, the payments) and /TaxReceivables (open invoices, ageing). */
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import { usd } from '../distribution/money'
import { PAYMENT_METHODS } from '../distribution/rules'
import { BarChart } from './bar-chart'
import type { paymentsAction, paymentsLoader, receivablesLoader } from './payments-route.server'

const input = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100'
const link = 'text-canopy-300 underline'
const TAX_STATE: Record<string, string> = { t: 'Pending', d: 'Due', p: 'Paid' }

export function PaymentsPage() {
  const d = useLoaderData<typeof paymentsLoader>()
  const a = useActionData<typeof paymentsAction>()
  const err = a && 'error' in a ? a : null
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">Payments</h1>
      {d.done ? <Notice tone="success">{d.done}</Notice> : null}
      {err ? <Notice tone="error">{err.error}</Notice> : null}
      <Form method="post" className="grid max-w-3xl gap-3 rounded-md border border-slate-700 p-3 sm:grid-cols-2" aria-label="Record a payment">
        <label className="flex flex-col gap-1 text-sm text-slate-300 sm:col-span-2">
          Invoice
          <select name="invoice" aria-label="Invoice" defaultValue={d.invoice} required className={input}>
            <option value="">Choose an open invoice…</option>
            {d.open.map((i) => <option key={i.id} value={i.id}>{i.label}</option>)}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm text-slate-300">Amount $<input name="amount" inputMode="decimal" required className={input} aria-invalid={err?.field === 'amount' || undefined} /></label>
        <fieldset className="flex flex-col gap-1 text-sm text-slate-300">
          <legend>Method</legend>
          <div className="flex gap-3">
            {PAYMENT_METHODS.map((m, i) => <label key={m} className="flex min-h-11 items-center gap-2"><input type="radio" name="method" value={m} defaultChecked={i === 0} className="h-5 w-5" />{m}</label>)}
          </div>
        </fieldset>
        <label className="flex flex-col gap-1 text-sm text-slate-300">Reference (check number, ACH trace)<input name="reference" maxLength={60} className={input} /></label>
        <label className="flex flex-col gap-1 text-sm text-slate-300">Received on<input name="paid" type="date" className={input} /></label>
        <label className="flex flex-col gap-1 text-sm text-slate-300 sm:col-span-2">Memo<input name="memo" maxLength={500} className={input} /></label>
        <div className="sm:col-span-2"><Button type="submit">Record payment</Button></div>
      </Form>
      <h2 className="text-lg font-semibold">Recorded payments</h2>
      <table className="w-full text-left text-sm" data-testid="payments">
        <thead className="text-slate-400"><tr><th className="p-2">Payment #</th><th className="p-2">Date</th><th className="p-2">Client</th><th className="p-2">Invoice</th><th className="p-2">Method</th><th className="p-2 text-right">Amount</th><th className="p-2">Tax state</th></tr></thead>
        <tbody>
          {d.payments.map((p) => (
            <tr key={p.id} className="border-t border-slate-800"><td className="p-2">{p.paymentNo}</td><td className="p-2">{p.paid.slice(0, 10)}</td><td className="p-2">{p.client}</td><td className="p-2">{p.invoice}</td><td className="p-2">{p.method}{p.reference ? ` ${p.reference}` : ''}</td><td className="p-2 text-right">{usd(p.amountCents)}</td><td className="p-2">{TAX_STATE[p.taxState] ?? p.taxState}</td></tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

export function ReceivablesPage() {
  const d = useLoaderData<typeof receivablesLoader>()
  const q = d.client ? `?client=${encodeURIComponent(d.client)}` : ''
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">Receivables</h1>
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm text-slate-300">
          Client
          <select name="client" aria-label="Client" defaultValue={d.client} className={input}>
            <option value="">All clients</option>
            {d.clients.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
          </select>
        </label>
        <Button type="submit" tone="plain">Show</Button>
      </Form>
      <BarChart rows={d.ageing.rows} title="Open balances by days past due" />
      <table className="w-full max-w-xl text-left text-sm" data-testid="ageing">
        <thead className="text-slate-400"><tr><th className="p-2">Days past due</th><th className="p-2 text-right">Invoices</th><th className="p-2 text-right">Balance</th></tr></thead>
        <tbody>{d.ageing.rows.map((r) => <tr key={r.key} className="border-t border-slate-800"><td className="p-2">{r.label}</td><td className="p-2 text-right">{r.count}</td><td className="p-2 text-right">{usd(r.cents)}</td></tr>)}</tbody>
        <tfoot><tr className="border-t border-slate-600 font-semibold"><td className="p-2">Total</td><td className="p-2 text-right">{d.ageing.total.count}</td><td className="p-2 text-right" data-testid="ageing-total">{usd(d.ageing.total.cents)}</td></tr></tfoot>
      </table>
      <table className="w-full text-left text-sm" data-testid="open-invoices">
        <thead className="text-slate-400"><tr><th className="p-2">Invoice</th><th className="p-2">Client</th><th className="p-2">Date</th><th className="p-2">Due</th><th className="p-2">Ageing</th><th className="p-2 text-right">Total</th><th className="p-2 text-right">Balance</th><th className="p-2">Tax state</th><th className="p-2"></th></tr></thead>
        <tbody>
          {d.open.map((i) => (
            <tr key={i.id} className="border-t border-slate-800" data-testid="open-invoice">
              <td className="p-2">{i.invoicePdf ? <a href={i.invoicePdf} className={link} target="_blank" rel="noreferrer">{i.invoiceNo}</a> : i.invoiceNo}</td>
              <td className="p-2">{i.clientName}</td><td className="p-2">{i.invoiceDate.slice(0, 10)}</td><td className="p-2">{i.dueDate.slice(0, 10)}</td><td className="p-2">{i.bucket}</td>
              <td className="p-2 text-right">{usd(i.totalCents)}</td><td className="p-2 text-right">{usd(i.balanceCents)}</td><td className="p-2">{TAX_STATE[i.taxState] ?? i.taxState}</td>
              <td className="p-2"><Link to={`/FinPayments?invoice=${i.id}`} className={`${link} flex min-h-11 items-center`}>Record payment</Link></td>
            </tr>
          ))}
        </tbody>
      </table>
      {!d.open.length ? <p className="text-slate-400">Nothing is owed.</p> : null}
      <p><a href={`/TaxReceivables.csv${q}`} className={link} download>Download CSV</a> · <a href={`/TaxReceivables.pdf${q}`} className={link} download>Download PDF</a></p>
    </section>
  )
}
