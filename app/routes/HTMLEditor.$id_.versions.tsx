/** /HTMLEditor/{id}/versions: every version, view, compare, restore (app/areas/documents; a thin route, decision 022). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { DocVersionsPage } from '../areas/documents/doc-versions'
import { DOC_KINDS } from '../areas/documents/kinds'
import { versionsAction, versionsLoader } from '../areas/documents/versions-route.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Versions · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => versionsLoader(DOC_KINDS.page)(args)
export const action = (args: ActionFunctionArgs) => versionsAction(DOC_KINDS.page)(args)
export default DocVersionsPage
