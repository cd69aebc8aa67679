/** /DshCultivation: the Cultivation dashboard (app/areas/dashboards; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { DashboardPage } from '../areas/dashboards/dashboard-page'
import { cultivationLoader } from '../areas/dashboards/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Cultivation Dashboard · ${APP_NAME}` }]
export const loader = cultivationLoader
export default DashboardPage
