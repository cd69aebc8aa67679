/** /TaxReceivables.csv: the open invoices of /TaxReceivables (same client filter), as CSV. */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { receivablesCsv } from '../areas/finance/payments-route.server'

export const loader = (args: LoaderFunctionArgs) => receivablesCsv(args)
