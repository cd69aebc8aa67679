/** /TaxReceivables: open invoices with balance and ageing (app/areas/finance; a thin route, decision 022). */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { ReceivablesPage } from '../areas/finance/payments-page'
import { receivablesLoader } from '../areas/finance/payments-route.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Receivables · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => receivablesLoader(args)
export default ReceivablesPage
