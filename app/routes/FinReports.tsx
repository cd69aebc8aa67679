/** /FinReports: Finance Reports (app/areas/finance; a thin route, decision 022). */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { FinReportsPage } from '../areas/finance/reports-page'
import { finReportsLoader } from '../areas/finance/reports-route.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Finance Reports · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => finReportsLoader(args)
export default FinReportsPage
