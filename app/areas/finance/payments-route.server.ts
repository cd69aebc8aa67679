/**
 * /FinPayments: record a payment against an open invoice (cash, check, ACH; partial payments; an
 * overpayment refused with the balance named) and the payments recorded, newest first.
 * /TaxReceivables: the open invoices with balance and ageing, filterable by client; CSV and PDF of
 * the same (`/TaxReceivables.csv`, `/TaxReceivables.pdf`, `?client=`).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { areaAccess, refusalAsForm, str } from '../distribution/access.server'
import { timeZoneOf } from '../../facilities/facts.server'
import { formatTaxState } from '../../format/format'
import { usd } from '../distribution/money'
import { facilityOf } from '../distribution/orders.server'
import { pdfResponse, reportPdf, reportTable } from './reports-pdf.server'
import { ageingReport, dayIn, openInvoices } from './reports.server'
import { recordPayment } from './payments.server'

export async function paymentsLoader({ request, context }: LoaderFunctionArgs) {
  const { org } = await areaAccess(request, context, '/FinPayments')
  const url = new URL(request.url)
  const open = await openInvoices(context.database, org)
  const r = await context.database.db.query<{ id: string; doc: Record<string, unknown>; name: string | null }>(
    `SELECT p.id, p.doc, c.doc->>'name' AS name FROM c_fin_payments p LEFT JOIN c_set_clients c ON c.org = p.org AND c.id = p.doc->>'client' WHERE p.org = $1 ORDER BY p.doc->>'paid' DESC, p.id LIMIT 100`,
    [org],
  )
  const done = url.searchParams.get('done')
  return json({
    invoice: url.searchParams.get('invoice') ?? '',
    done: done ? `Payment ${done} recorded.` : null,
    open: open.map((i) => ({ id: i.id, label: `${i.invoiceNo} · ${i.clientName} · balance $${(i.balanceCents / 100).toFixed(2)}`, balanceCents: i.balanceCents })),
    payments: r.rows.map(({ id, doc: p, name }) => ({ id, paymentNo: String(p.paymentNo ?? ''), client: name ?? '', paid: String(p.paid ?? ''), method: String(p.method ?? ''), reference: String(p.reference ?? ''), invoice: String(p.invoice ?? ''), amountCents: typeof p.amountCents === 'number' ? p.amountCents : Math.round(Number(p.amount ?? 0) * 100), taxState: String(p.taxState ?? '') })),
  })
}

export async function paymentsAction({ request, context }: ActionFunctionArgs) {
  const { org, actor } = await areaAccess(request, context, '/FinPayments')
  const f = await request.formData()
  return refusalAsForm(async () => {
    const { payment, invoice } = await recordPayment(context.database, actor, org, { invoice: str(f, 'invoice'), amount: str(f, 'amount'), method: str(f, 'method'), reference: str(f, 'reference'), paid: str(f, 'paid'), memo: str(f, 'memo') })
    return redirect(`/FinPayments?done=${encodeURIComponent(String(payment.paymentNo))}${Number(invoice.balanceCents) > 0 ? `&invoice=${invoice._id}` : ''}`)
  })
}

async function receivablesView({ request, context }: LoaderFunctionArgs) {
  const { org } = await areaAccess(request, context, '/TaxReceivables')
  const url = new URL(request.url)
  const client = url.searchParams.get('client') ?? ''
  const open = await openInvoices(context.database, org, client)
  const clients = await context.database.db.query<{ id: string; name: string }>(
    `SELECT DISTINCT c.id, c.doc->>'name' AS name FROM c_tax_receivables o JOIN c_set_clients c ON c.org = o.org AND c.id = o.doc->>'client' WHERE o.org = $1 ORDER BY 2`,
    [org],
  )
  return { org, client, clients: clients.rows, open, ageing: ageingReport(open) }
}

export async function receivablesLoader(args: LoaderFunctionArgs) {
  return json(await receivablesView(args))
}

export async function receivablesCsv(args: LoaderFunctionArgs) {
  const v = await receivablesView(args)
  const cell = (s: string) => (/[",\n]/.test(s) || /^[=+\-@]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)
  const lines = ['Invoice,Client,Invoice date,Due date,Days past due bucket,Total,Balance,Tax state']
  for (const i of v.open) lines.push([i.invoiceNo, i.clientName, i.invoiceDate.slice(0, 10), i.dueDate.slice(0, 10), i.bucket, (i.totalCents / 100).toFixed(2), (i.balanceCents / 100).toFixed(2), i.taxState].map(cell).join(','))
  lines.push(['Total', '', '', '', '', '', (v.ageing.total.cents / 100).toFixed(2), ''].join(','))
  const csv = `${lines.join('\r\n')}\r\n`
  return new Response(csv, { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="receivables.csv"', 'Cache-Control': 'no-store' } })
}

/** The open invoices as the page lists them (its ageing summary first), a Total row with the balance owed. */
export async function receivablesPdf(args: LoaderFunctionArgs) {
  const v = await receivablesView(args)
  const [fac, tz] = await Promise.all([facilityOf(args.context.database, v.org), timeZoneOf(args.context, v.org)])
  const clientName = v.client ? (v.clients.find((c) => c.id === v.client)?.name ?? v.client) : 'All clients'
  const today = dayIn(tz)
  const pdf = await reportPdf({
    title: 'Receivables',
    facility: fac.name,
    filters: [`Client: ${clientName}`, `Open invoices, ageing as of ${today} (${tz})`],
    tz,
    landscape: true,
    tables: [
      { ...reportTable(['Days past due', 'Invoices', 'Balance'], v.ageing, [], 'Nothing is owed.'), caption: 'Ageing' },
      {
        caption: 'Open invoices',
        head: ['Invoice', 'Client', 'Invoice date', 'Due date', 'Ageing', 'Total', 'Balance', 'Tax state'],
        rows: v.open.map((i) => [i.invoiceNo, i.clientName, i.invoiceDate.slice(0, 10), i.dueDate.slice(0, 10), i.bucket, usd(i.totalCents), usd(i.balanceCents), formatTaxState(i.taxState)]),
        total: ['Total', `${v.open.length} invoice${v.open.length === 1 ? '' : 's'}`, '', '', '', '', usd(v.ageing.total.cents), ''],
        right: [5, 6],
        empty: 'Nothing is owed.',
      },
    ],
  })
  const slug = v.client ? `-${v.client.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 40)}` : ''
  return pdfResponse(`receivables${slug}-${today}.pdf`, pdf)
}
