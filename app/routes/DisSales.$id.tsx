/** /DisSales/{id}: one order, its papers and its actions (app/areas/distribution; a thin route, decision 022). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { OrderPage } from '../areas/distribution/orders-page'
import { orderAction, orderLoader } from '../areas/distribution/orders-route.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Order · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => orderLoader(args)
export const action = (args: ActionFunctionArgs) => orderAction(args)
export default OrderPage
