/** /DisReports.pdf: the same view as /DisReports, as a PDF (a page route cannot answer a file). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { disReportsPdf } from '../areas/finance/reports-route.server'

export const loader = (args: LoaderFunctionArgs) => disReportsPdf(args)
