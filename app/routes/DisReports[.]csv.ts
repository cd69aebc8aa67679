/** /DisReports.csv: the same view as /DisReports, as CSV (a page route cannot answer a file). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { disReportsCsv } from '../areas/finance/reports-route.server'

export const loader = (args: LoaderFunctionArgs) => disReportsCsv(args)
