/** /DocList: the facility's document register (licences, permits, certificates) as a file list: links, PDF previews, types, status, search, add (app/areas/documents; a thin route, decision 022). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { FilesPage } from '../areas/documents/files-page'
import { filesAction, filesLoader } from '../areas/documents/files.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Documents · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => filesLoader('register')(args)
export const action = (args: ActionFunctionArgs) => filesAction('register')(args)
export default FilesPage
