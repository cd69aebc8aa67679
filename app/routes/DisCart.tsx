/** /DisCart (Create Order): the user's cart (app/areas/distribution; a thin route, decision 022). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { CartPage } from '../areas/distribution/cart-page'
import { cartAction, cartLoader } from '../areas/distribution/cart-route.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Create Order · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => cartLoader(args)
export const action = (args: ActionFunctionArgs) => cartAction(args)
export default CartPage
