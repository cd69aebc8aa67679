/** /SupportTicket: open a ticket, read the answers; platform staff's queue (app/areas/support; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { SupportPage } from '../areas/support/support-page'
import { supportAction, supportLoader } from '../areas/support/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Support · ${APP_NAME}` }]
export const loader = supportLoader
export const action = supportAction
export default SupportPage
