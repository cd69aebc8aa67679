/** /DisSales (Orders): the facility's orders by status (app/areas/distribution; a thin route, decision 022). */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { OrdersPage } from '../areas/distribution/orders-page'
import { ordersLoader } from '../areas/distribution/orders-route.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Orders · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => ordersLoader(args)
export default OrdersPage
