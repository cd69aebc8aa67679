/** /FinPayments: record a payment against an invoice (app/areas/finance; a thin route, decision 022). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { PaymentsPage } from '../areas/finance/payments-page'
import { paymentsAction, paymentsLoader } from '../areas/finance/payments-route.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Payments · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => paymentsLoader(args)
export const action = (args: ActionFunctionArgs) => paymentsAction(args)
export default PaymentsPage
