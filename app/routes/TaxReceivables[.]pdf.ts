/** /TaxReceivables.pdf: the open invoices of /TaxReceivables (same client filter) and their ageing, as a PDF. */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { receivablesPdf } from '../areas/finance/payments-route.server'

export const loader = (args: LoaderFunctionArgs) => receivablesPdf(args)
