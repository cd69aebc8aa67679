/** /PolDocs: the list of documents, search by title (app/areas/documents; a thin route, decision 022). */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { DocListPage } from '../areas/documents/doc-list'
import { DOC_KINDS } from '../areas/documents/kinds'
import { listLoader } from '../areas/documents/list.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Policies · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => listLoader(DOC_KINDS.policy)(args)
export default DocListPage
