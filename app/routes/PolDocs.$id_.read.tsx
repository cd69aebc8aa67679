/** /PolDocs/{id}/read: a published policy, read and acknowledged by whom it is addressed to (app/areas/documents; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { PolicyReadPage } from '../areas/documents/policy-pages'
import { readAction, readLoader } from '../areas/documents/policy-routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction<typeof readLoader> = ({ data }) => [{ title: `${data?.title ?? 'Policy'} · ${APP_NAME}` }]
export const loader = readLoader
export const action = readAction
export default PolicyReadPage
