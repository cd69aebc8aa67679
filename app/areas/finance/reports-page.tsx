/** /DisReports and /FinReports: a period, a chart, the rows and their total (the sum of the rows), a CSV and a PDF of the same. */
import { Form, Link, useLoaderData } from '@remix-run/react'
import { Button } from '../../components/ui'
import { usd } from '../distribution/money'
import { BarChart } from './bar-chart'
import type { disReportsLoader, finReportsLoader } from './reports-route.server'
import type { Report } from './reports.server'

const input = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100'
const link = 'text-canopy-300 underline'

function PeriodForm({ from, to, children }: { from: string; to: string; children?: React.ReactNode }) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col gap-1 text-sm text-slate-300">From<input type="date" name="from" defaultValue={from} className={input} /></label>
      <label className="flex flex-col gap-1 text-sm text-slate-300">To<input type="date" name="to" defaultValue={to} className={input} /></label>
      {children}
      <Button type="submit" tone="plain">Show</Button>
    </Form>
  )
}

function ReportTable({ id, head, rep, extra = [] }: { id: string; head: string[]; rep: Report; extra?: string[] }) {
  return (
    <table className="w-full max-w-3xl text-left text-sm" data-testid={id}>
      <thead className="text-slate-400"><tr>{head.map((h, i) => <th key={h} className={`p-2 ${i ? 'text-right' : ''}`}>{h}</th>)}</tr></thead>
      <tbody>
        {rep.rows.map((r) => (
          <tr key={r.key} className="border-t border-slate-800" data-testid="report-row">
            <td className="p-2">{r.label}</td><td className="p-2 text-right">{r.count}</td><td className="p-2 text-right">{usd(r.cents)}</td>
            {extra.map((k) => <td key={k} className="p-2 text-right">{usd(r.extra?.[k] ?? 0)}</td>)}
          </tr>
        ))}
      </tbody>
      <tfoot><tr className="border-t border-slate-600 font-semibold" data-testid="report-total"><td className="p-2">Total</td><td className="p-2 text-right">{rep.total.count}</td><td className="p-2 text-right">{usd(rep.total.cents)}</td>{extra.map((k) => <td key={k} className="p-2 text-right">{usd(rep.total.extra?.[k] ?? 0)}</td>)}</tr></tfoot>
    </table>
  )
}

const BY_LABEL = { client: 'Client', product: 'Product', day: 'Day', month: 'Month' } as const

export function DisReportsPage() {
  const d = useLoaderData<typeof disReportsLoader>()
  const qs = `from=${d.period.from}&to=${d.period.to}&by=${d.by}`
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">Reports</h1>
      <p className="text-sm text-slate-300">Sales: orders shipped in the period, net of discounts, before tax ({d.period.tz}).</p>
      <PeriodForm from={d.period.from} to={d.period.to}>
        <label className="flex flex-col gap-1 text-sm text-slate-300">
          Sales by
          <select name="by" aria-label="Sales by" defaultValue={d.by} className={input}>{Object.entries(BY_LABEL).map(([k, v]) => <option key={k} value={k}>{v}</option>)}</select>
        </label>
      </PeriodForm>
      <BarChart rows={d.report.rows} title={`Net sales by ${d.by}, ${d.period.from} to ${d.period.to}`} />
      <ReportTable id="sales-report" head={[BY_LABEL[d.by], 'Orders', 'Net sales', ...(d.by === 'product' ? [] : ['Tax'])]} rep={d.report} extra={d.by === 'product' ? [] : ['tax']} />
      {!d.report.rows.length ? <p className="text-slate-400">No order shipped in this period.</p> : null}
      <p><a href={`/DisReports.csv?${qs}`} className={link} download>Download CSV</a> · <a href={`/DisReports.pdf?${qs}`} className={link} download>Download PDF</a></p>
    </section>
  )
}

export function FinReportsPage() {
  const d = useLoaderData<typeof finReportsLoader>()
  const qs = `from=${d.period.from}&to=${d.period.to}`
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">Finance Reports</h1>
      <PeriodForm from={d.period.from} to={d.period.to} />
      <h2 className="text-lg font-semibold">Tax collected and due</h2>
      <p className="text-sm text-slate-300">Invoiced: the tax on invoices dated in the month. Collected: the tax part of payments received in the month. Due: invoiced less collected.</p>
      <ReportTable id="tax-report" head={['Month', 'Invoices', 'Tax invoiced', 'Tax collected', 'Tax due']} rep={d.tax} extra={['collected', 'due']} />
      <p><a href={`/FinReports.csv?${qs}&report=tax`} className={link} download>Download tax CSV</a> · <a href={`/FinReports.pdf?${qs}&report=tax`} className={link} download>Download tax PDF</a></p>
      <h2 className="text-lg font-semibold">Receivables ageing (today)</h2>
      <BarChart rows={d.ageing.rows} title="Open balances by days past due" />
      <ReportTable id="ageing-report" head={['Days past due', 'Invoices', 'Balance']} rep={d.ageing} />
      <p><a href="/FinReports.csv?report=ageing" className={link} download>Download ageing CSV</a> · <a href="/FinReports.pdf?report=ageing" className={link} download>Download ageing PDF</a> · <Link to="/TaxReceivables" className={link}>Open invoices</Link></p>
      <h2 className="text-lg font-semibold">Sales by month</h2>
      <ReportTable id="sales-month-report" head={['Month', 'Orders', 'Net sales', 'Tax']} rep={d.sales} extra={['tax']} />
      <p><a href={`/FinReports.csv?${qs}&report=sales`} className={link} download>Download sales CSV</a> · <a href={`/FinReports.pdf?${qs}&report=sales`} className={link} download>Download sales PDF</a></p>
    </section>
  )
}
