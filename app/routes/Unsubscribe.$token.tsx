/** /Unsubscribe/{token}: a campaign mail's unsubscribe link, public (app/areas/campaigns; a thin route). */
import type { MetaFunction } from '@remix-run/node'
import { UnsubscribePage } from '../areas/campaigns/unsubscribe-page'
import { unsubscribeAction, unsubscribeLoader } from '../areas/campaigns/unsubscribe.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Unsubscribe · ${APP_NAME}` }]
export const loader = unsubscribeLoader
export const action = unsubscribeAction
export default UnsubscribePage
