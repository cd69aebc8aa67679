/** /DisReports: Reports (app/areas/finance; a thin route, decision 022). */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { DisReportsPage } from '../areas/finance/reports-page'
import { disReportsLoader } from '../areas/finance/reports-route.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Reports · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => disReportsLoader(args)
export default DisReportsPage
