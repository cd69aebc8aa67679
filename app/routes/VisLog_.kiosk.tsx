/** /VisLog/kiosk: the lobby tablet's visitor sign-in (app/areas/visitors; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { KioskPage } from '../areas/visitors/pages'
import { kioskAction, kioskLoader } from '../areas/visitors/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Visitor sign-in · ${APP_NAME}` }]
export const loader = kioskLoader
export const action = kioskAction
export default KioskPage
