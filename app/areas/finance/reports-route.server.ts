/**
 * /DisReports (sales by client, product, day or month) and /FinReports (tax invoiced, collected
 * and due per month; receivables ageing; sales per month), each with its CSV
 * (`/DisReports.csv?…`, `/FinReports.csv?…`, the same view). The period is in the URL.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { timeZoneOf } from '../../facilities/facts.server'
import { areaAccess } from '../distribution/access.server'
import { ageingReport, openInvoices, periodOf, reportCsv, salesReport, taxReport, type SalesBy } from './reports.server'

const BY: SalesBy[] = ['client', 'product', 'day', 'month']
const byOf = (url: URL): SalesBy => (BY as string[]).includes(url.searchParams.get('by') ?? '') ? (url.searchParams.get('by') as SalesBy) : 'client'

async function disView({ request, context }: LoaderFunctionArgs) {
  const { org } = await areaAccess(request, context, '/DisReports')
  const url = new URL(request.url)
  const period = periodOf(url, await timeZoneOf(context, org))
  const by = byOf(url)
  return { period, by, report: await salesReport(context.database, org, by, period) }
}

export async function disReportsLoader(args: LoaderFunctionArgs) {
  return json(await disView(args))
}

const csvResponse = (name: string, body: string) => new Response(body, { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'no-store' } })

export async function disReportsCsv(args: LoaderFunctionArgs) {
  const v = await disView(args)
  return csvResponse(`sales-by-${v.by}-${v.period.from}-${v.period.to}.csv`, reportCsv([v.by[0].toUpperCase() + v.by.slice(1), 'Orders', 'Net sales', 'Tax'], v.report, v.by === 'product' ? [] : ['tax']))
}

async function finView({ request, context }: LoaderFunctionArgs) {
  const { org } = await areaAccess(request, context, '/FinReports')
  const url = new URL(request.url)
  const period = periodOf(url, await timeZoneOf(context, org))
  const [tax, sales, open] = await Promise.all([taxReport(context.database, org, period), salesReport(context.database, org, 'month', period), openInvoices(context.database, org)])
  return { period, tax, sales, ageing: ageingReport(open) }
}

export async function finReportsLoader(args: LoaderFunctionArgs) {
  return json(await finView(args))
}

export async function finReportsCsv(args: LoaderFunctionArgs) {
  const v = await finView(args)
  const which = new URL(args.request.url).searchParams.get('report')
  if (which === 'ageing') return csvResponse('receivables-ageing.csv', reportCsv(['Days past due', 'Invoices', 'Balance'], v.ageing))
  if (which === 'sales') return csvResponse(`sales-by-month-${v.period.from}-${v.period.to}.csv`, reportCsv(['Month', 'Orders', 'Net sales', 'Tax'], v.sales, ['tax']))
  return csvResponse(`tax-${v.period.from}-${v.period.to}.csv`, reportCsv(['Month', 'Invoices', 'Tax invoiced', 'Tax collected', 'Tax due'], v.tax, ['collected', 'due']))
}
