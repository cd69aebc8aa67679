/**
 * /DisReports (sales by client, product, day or month) and /FinReports (tax invoiced, collected
 * and due per month; receivables ageing; sales per month), each with its CSV and PDF
 * (`/DisReports.csv?…`, `/DisReports.pdf?…`, `/FinReports.csv?…&report=`, `/FinReports.pdf?…&report=`:
 * the same view, the same report functions, the same access). The period is in the URL; a filter
 * that is not one (a day that does not exist, an unknown grouping or report) is a 400 saying so.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { isIsoDate } from '../../format/date-ranges'
import { timeZoneOf } from '../../facilities/facts.server'
import { areaAccess } from '../distribution/access.server'
import { facilityOf } from '../distribution/orders.server'
import { pdfResponse, reportPdf, reportTable } from './reports-pdf.server'
import { ageingReport, dayIn, openInvoices, periodOf, reportCsv, salesReport, taxReport, type Period, type Report, type SalesBy } from './reports.server'

const BY: SalesBy[] = ['client', 'product', 'day', 'month']
const BY_LABEL: Record<SalesBy, string> = { client: 'Client', product: 'Product', day: 'Day', month: 'Month' }

/** A filter the page cannot show: a 400 whose text the error page shows (never a database error). */
export function badFilter(message: string): never {
  throw new Response(message, { status: 400, statusText: 'Bad request' })
}

const byOf = (url: URL): SalesBy => {
  const by = url.searchParams.get('by')
  if (!by) return 'client'
  if (!(BY as string[]).includes(by)) badFilter('Sales by must be client, product, day or month.')
  return by as SalesBy
}

/** The period of the URL (periodOf); a from or to that is not a real day (YYYY-MM-DD) is refused. */
function periodFilter(url: URL, tz: string): Period {
  for (const [k, name] of [['from', 'From'], ['to', 'To']] as const) {
    const v = url.searchParams.get(k)
    if (v && !isIsoDate(v)) badFilter(`${name} must be a day written YYYY-MM-DD (for example 2026-12-31).`)
  }
  return periodOf(url, tz)
}

async function disView({ request, context }: LoaderFunctionArgs) {
  const { org } = await areaAccess(request, context, '/DisReports')
  const url = new URL(request.url)
  const period = periodFilter(url, await timeZoneOf(context, org))
  const by = byOf(url)
  return { org, period, by, report: await salesReport(context.database, org, by, period) }
}

export async function disReportsLoader(args: LoaderFunctionArgs) {
  return json(await disView(args))
}

const csvResponse = (name: string, body: string) => new Response(body, { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'no-store' } })

/** The sales table's columns (the page's, the CSV's and the PDF's): by product there is no tax column. */
const disColumns = (by: SalesBy) => ({ head: [BY_LABEL[by], 'Orders', 'Net sales', ...(by === 'product' ? [] : ['Tax'])], extra: by === 'product' ? [] : ['tax'] })

export async function disReportsCsv(args: LoaderFunctionArgs) {
  const v = await disView(args)
  const c = disColumns(v.by)
  return csvResponse(`sales-by-${v.by}-${v.period.from}-${v.period.to}.csv`, reportCsv(c.head, v.report, c.extra))
}

const periodLine = (p: Period) => `Period: ${p.from} to ${p.to} (${p.tz})`

export async function disReportsPdf(args: LoaderFunctionArgs) {
  const v = await disView(args)
  const c = disColumns(v.by)
  const fac = await facilityOf(args.context.database, v.org)
  const pdf = await reportPdf({
    title: `Sales by ${v.by}`,
    facility: fac.name,
    filters: [periodLine(v.period), `Sales by: ${BY_LABEL[v.by]} · orders shipped in the period, net of discounts, before tax`],
    tz: v.period.tz,
    tables: [reportTable(c.head, v.report, c.extra, 'No order shipped in this period.')],
  })
  return pdfResponse(`sales-by-${v.by}-${v.period.from}-to-${v.period.to}.pdf`, pdf)
}

async function finView({ request, context }: LoaderFunctionArgs) {
  const { org } = await areaAccess(request, context, '/FinReports')
  const url = new URL(request.url)
  const period = periodFilter(url, await timeZoneOf(context, org))
  const [tax, sales, open] = await Promise.all([taxReport(context.database, org, period), salesReport(context.database, org, 'month', period), openInvoices(context.database, org)])
  return { org, period, tax, sales, ageing: ageingReport(open) }
}

export async function finReportsLoader(args: LoaderFunctionArgs) {
  return json(await finView(args))
}

type FinReport = 'tax' | 'ageing' | 'sales'
/** Each /FinReports table: its title and columns, and which of the view's reports it is. */
const FIN: Record<FinReport, { title: string; head: string[]; extra: string[]; of: (v: Awaited<ReturnType<typeof finView>>) => Report }> = {
  tax: { title: 'Tax collected and due', head: ['Month', 'Invoices', 'Tax invoiced', 'Tax collected', 'Tax due'], extra: ['collected', 'due'], of: (v) => v.tax },
  ageing: { title: 'Receivables ageing', head: ['Days past due', 'Invoices', 'Balance'], extra: [], of: (v) => v.ageing },
  sales: { title: 'Sales by month', head: ['Month', 'Orders', 'Net sales', 'Tax'], extra: ['tax'], of: (v) => v.sales },
}
/** `report=` (tax when not given, as the tax CSV always was). */
const finReportOf = (url: URL): FinReport => {
  const r = url.searchParams.get('report')
  if (!r) return 'tax'
  if (!(r in FIN)) badFilter('The report must be tax, ageing or sales.')
  return r as FinReport
}

export async function finReportsCsv(args: LoaderFunctionArgs) {
  const v = await finView(args) // access first: a user without the module is refused whatever the filters
  const which = finReportOf(new URL(args.request.url))
  const f = FIN[which]
  if (which === 'ageing') return csvResponse('receivables-ageing.csv', reportCsv(f.head, f.of(v), f.extra))
  if (which === 'sales') return csvResponse(`sales-by-month-${v.period.from}-${v.period.to}.csv`, reportCsv(f.head, f.of(v), f.extra))
  return csvResponse(`tax-${v.period.from}-${v.period.to}.csv`, reportCsv(f.head, f.of(v), f.extra))
}

export async function finReportsPdf(args: LoaderFunctionArgs) {
  const v = await finView(args) // access first: a user without the module is refused whatever the filters
  const which = finReportOf(new URL(args.request.url))
  const f = FIN[which]
  const fac = await facilityOf(args.context.database, v.org)
  const today = dayIn(v.period.tz)
  const filters =
    which === 'ageing'
      ? [`Open invoice balances by days past due, as of ${today} (${v.period.tz})`]
      : which === 'tax'
        ? [periodLine(v.period), 'Invoiced: the tax on invoices dated in the month. Collected: the tax part of payments received in the month. Due: invoiced less collected.']
        : [periodLine(v.period), 'Orders shipped in the month, net of discounts, before tax']
  const pdf = await reportPdf({ title: f.title, facility: fac.name, filters, tz: v.period.tz, tables: [reportTable(f.head, f.of(v), f.extra, which === 'ageing' ? 'Nothing is owed.' : 'Nothing in this period.')] })
  return pdfResponse(which === 'ageing' ? `receivables-ageing-${today}.pdf` : `${which === 'tax' ? 'tax' : 'sales-by-month'}-${v.period.from}-to-${v.period.to}.pdf`, pdf)
}
