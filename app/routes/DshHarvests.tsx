/** /DshHarvests: the Harvests dashboard (app/areas/dashboards; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { DashboardPage } from '../areas/dashboards/dashboard-page'
import { harvestsLoader } from '../areas/dashboards/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Harvests Dashboard · ${APP_NAME}` }]
export const loader = harvestsLoader
export default DashboardPage
