/** /DocFileUpload: the facility's files: list, previews, folders, tags, search, upload (app/areas/documents; a thin route, decision 022). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { FilesPage } from '../areas/documents/files-page'
import { filesAction, filesLoader } from '../areas/documents/files.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `File Upload · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => filesLoader('facility')(args)
export const action = (args: ActionFunctionArgs) => filesAction('facility')(args)
export default FilesPage
