/** /FinReports.pdf?report=tax|ageing|sales: one table of /FinReports (same period), as a PDF (a page route cannot answer a file). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { finReportsPdf } from '../areas/finance/reports-route.server'

export const loader = (args: LoaderFunctionArgs) => finReportsPdf(args)
