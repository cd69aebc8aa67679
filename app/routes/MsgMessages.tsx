/** /MsgMessages: conversations with people and teams of the facility (app/areas/messaging; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { InboxPage } from '../areas/messaging/inbox'
import { inboxAction, inboxLoader } from '../areas/messaging/inbox.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Messages · ${APP_NAME}` }]
export const loader = inboxLoader
export const action = inboxAction
export default InboxPage
