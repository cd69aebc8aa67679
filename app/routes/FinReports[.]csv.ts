/** /FinReports.csv: the same view as /FinReports, as CSV (a page route cannot answer a file). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { finReportsCsv } from '../areas/finance/reports-route.server'

export const loader = (args: LoaderFunctionArgs) => finReportsCsv(args)
