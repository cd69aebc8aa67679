/** /VisLog/onsite: who is on site now, printable (the evacuation list; app/areas/visitors). */
import type { MetaFunction } from '@remix-run/node'
import { OnSitePage } from '../areas/visitors/pages'
import { onsiteLoader } from '../areas/visitors/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `On site now · ${APP_NAME}` }]
export const loader = onsiteLoader
export default OnSitePage
