/** /DisSales: the orders by status; /DisSales/{id}: one order, its papers, payments, METRC status and actions. */
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import { formatDateTime } from '../../format/format'
import { fmtMilli, usd } from './money'
import type { orderAction, orderLoader, ordersLoader } from './orders-route.server'
import { ORDER_STATUSES } from './rules'

const input = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100'
const link = 'text-canopy-300 underline'
const TAX_STATE: Record<string, string> = { t: 'Pending', d: 'Due', p: 'Paid' }

export function OrdersPage() {
  const d = useLoaderData<typeof ordersLoader>()
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">Orders</h1>
      <div className="flex flex-wrap items-end gap-2">
        <Link to="/DisCart" className="flex min-h-11 items-center rounded-md bg-canopy-600 px-4 font-medium text-white">Create Order</Link>
        <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-sm text-slate-300">
            Order # or client
            <input name="q" type="search" defaultValue={d.q} className={input} />
          </label>
          <label className="flex flex-col gap-1 text-sm text-slate-300">
            Status
            <select name="status" aria-label="Status" defaultValue={d.status} className={input}>
              <option value="">Any</option>
              {ORDER_STATUSES.map((s) => <option key={s} value={s}>{s} ({d.counts[s] ?? 0})</option>)}
            </select>
          </label>
          <Button type="submit" tone="plain">Show</Button>
        </Form>
      </div>
      <table className="w-full text-left text-sm" data-testid="orders">
        <thead className="text-slate-400"><tr><th className="p-2">Order #</th><th className="p-2">Client</th><th className="p-2">Date</th><th className="p-2">Status</th><th className="p-2">Invoice</th><th className="p-2 text-right">Total</th></tr></thead>
        <tbody>
          {d.rows.map((r) => (
            <tr key={r.id} className="border-t border-slate-800">
              <td className="p-2"><Link to={`/DisSales/${r.id}`} className={`${link} flex min-h-11 items-center`}>{r.orderNo || r.id}</Link></td>
              <td className="p-2">{r.client}</td>
              <td className="p-2">{r.date ? formatDateTime(r.date) : ''}</td>
              <td className="p-2">{r.status}{r.paid ? ' · paid' : ''}</td>
              <td className="p-2">{r.invoiceNo}</td>
              <td className="p-2 text-right">{usd(r.totalCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!d.rows.length ? <p className="text-slate-400">No orders match.</p> : null}
    </section>
  )
}

export function OrderPage() {
  const d = useLoaderData<typeof orderLoader>()
  const a = useActionData<typeof orderAction>()
  const o = d.order
  const err = a && 'error' in a ? a.error : null
  const can = (x: string) => d.actions.find((y) => y.action === x && !y.refusal)
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <p><Link to="/DisSales" className={link}>All orders</Link></p>
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">Order {o.orderNo}</h1>
      <p className="text-sm">
        Status <strong data-testid="order-status">{o.status}</strong> · {o.date ? formatDateTime(o.date) : ''} · Terms {o.terms}
        {d.client ? <> · <strong>{d.client.name}</strong> ({d.client.type}, license {d.client.license}) · {d.client.address}</> : null}
      </p>
      {d.done ? <Notice tone="success">{d.done}</Notice> : null}
      {err ? <Notice tone="error">{err}</Notice> : null}

      <div className="flex flex-wrap items-end gap-3 rounded-md border border-slate-700 p-3" aria-label="Actions">
        {can('confirm') ? <Form method="post"><Button name="intent" value="confirm">Confirm</Button></Form> : null}
        {can('fulfil') ? (
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="fulfil" />
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              Scan or type the package tags (one per line)
              <textarea name="tags" rows={3} required className={`${input} w-96 font-mono`} />
            </label>
            <Button type="submit">Fulfil</Button>
          </Form>
        ) : null}
        {can('ship') ? <Form method="post"><Button name="intent" value="ship">Ship</Button></Form> : null}
        {can('deliver') ? <Form method="post"><Button name="intent" value="deliver">Mark delivered</Button></Form> : null}
        {can('cancel') ? (
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="cancel" />
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              Reason
              <input name="reason" className={input} maxLength={300} />
            </label>
            <Button tone="danger" type="submit">Cancel order</Button>
          </Form>
        ) : null}
        {!d.actions.some((x) => !x.refusal) ? <p className="text-sm text-slate-400">Nothing more to do on a {o.status.toLowerCase()} order.</p> : null}
      </div>

      <h2 className="text-lg font-semibold">Lines</h2>
      <table className="w-full text-left text-sm" data-testid="order-lines">
        <thead className="text-slate-400"><tr><th className="p-2">Item</th><th className="p-2">Package</th><th className="p-2 text-right">Qty</th><th className="p-2 text-right">Unit price</th><th className="p-2 text-right">Discount</th><th className="p-2 text-right">Line total</th></tr></thead>
        <tbody>
          {o.lines.map((l) => (
            <tr key={l.id} className="border-t border-slate-800">
              <td className="p-2">{l.name}</td><td className="p-2 font-mono text-xs">{l.tag || '—'}</td><td className="p-2 text-right">{fmtMilli(l.qtyMilli)} {l.unit}</td>
              <td className="p-2 text-right">{usd(l.priceCents)}</td><td className="p-2 text-right">{l.discountBp ? `${l.discountBp / 100}%` : '—'}</td><td className="p-2 text-right">{usd(l.totalCents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="text-right">
          <tr className="border-t border-slate-600"><td colSpan={5} className="p-2">Subtotal</td><td className="p-2" data-testid="subtotal">{usd(o.subtotalCents)}</td></tr>
          {o.taxes.map((x) => <tr key={x.id}><td colSpan={5} className="p-2 text-slate-300">{x.name} ({x.rateMilli / 1000}%)</td><td className="p-2">{usd(x.cents)}</td></tr>)}
          <tr className="font-semibold"><td colSpan={5} className="p-2">Total</td><td className="p-2" data-testid="total">{usd(o.totalCents)}</td></tr>
        </tfoot>
      </table>

      {o.packages.length ? (
        <>
          <h2 className="text-lg font-semibold">Packages picked</h2>
          <ul className="text-sm" data-testid="order-packages">
            {o.packages.map((p) => <li key={`${p.line}-${p.tag}`} className="font-mono">{p.tag} · {fmtMilli(p.qtyMilli)} {p.unit} (line {Number(p.line) + 1})</li>)}
          </ul>
        </>
      ) : null}

      <h2 className="text-lg font-semibold">Documents</h2>
      <ul className="flex flex-col gap-1 text-sm">
        {o.manifest ? <li><a href={o.manifest} className={link} target="_blank" rel="noreferrer">Transfer manifest {o.manifestNo} (PDF)</a></li> : null}
        {o.invoicePdf ? <li><a href={o.invoicePdf} className={link} target="_blank" rel="noreferrer">Invoice {d.invoice?.invoiceNo ?? ''} (PDF)</a></li> : null}
        {!o.manifest && !o.invoicePdf ? <li className="text-slate-400">The manifest and the invoice are written when the order ships.</li> : null}
      </ul>

      {d.invoice ? (
        <>
          <h2 className="text-lg font-semibold">Invoice and payments</h2>
          <p className="text-sm" data-testid="invoice-summary">
            Invoice {d.invoice.invoiceNo} · due {d.invoice.dueDate.slice(0, 10)} · balance <strong>{usd(d.invoice.balanceCents)}</strong> · tax state <strong>{TAX_STATE[d.invoice.taxState] ?? d.invoice.taxState}</strong>
            {d.invoice.balanceCents > 0 ? <> · <Link to={`/FinPayments?invoice=${d.invoice.id}`} className={link}>Record a payment</Link></> : null}
          </p>
          {d.payments.length ? <ul className="text-sm">{d.payments.map((p) => <li key={p.paymentNo}>{p.paymentNo} · {p.paid.slice(0, 10)} · {p.method}{p.reference ? ` ${p.reference}` : ''} · {usd(p.amountCents)}</li>)}</ul> : null}
        </>
      ) : null}

      <h2 className="text-lg font-semibold">METRC</h2>
      {d.outbox.length ? (
        <ul className="text-sm" data-testid="order-metrc">
          {d.outbox.map((x) => <li key={x.id}>{x.endpoint}: <strong>{x.status}</strong>{x.metrc_id ? ` (METRC Id ${x.metrc_id})` : ''}{x.message ? ` · ${x.message}` : ''} · <Link to="/MetrcOutbox?tab=queued" className={link}>outbox</Link></li>)}
        </ul>
      ) : <p className="text-sm text-slate-400">{o.metrcStatus || 'Nothing sent to METRC yet: the transfer is queued when the order ships.'}</p>}

      <h2 className="text-lg font-semibold">History</h2>
      <ol className="text-sm" data-testid="order-history">
        {o.history.map((h, i) => <li key={i}>{formatDateTime(h.at)} · <strong>{h.status}</strong> · {h.by}{h.note ? ` · ${h.note}` : ''}</li>)}
      </ol>
    </section>
  )
}
