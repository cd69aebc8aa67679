/** /VisLog: on site now, visits of a range, exports (app/areas/visitors; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { VisLogPage } from '../areas/visitors/pages'
import { visLogAction, visLogLoader } from '../areas/visitors/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Visitor log · ${APP_NAME}` }]
export const loader = visLogLoader
export const action = visLogAction
export default VisLogPage
