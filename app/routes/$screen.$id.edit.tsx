/** /{screen}/{id}/edit: the edit form of a table screen (issue 6; a page, so it works without JavaScript). */
import type { MetaFunction } from '@remix-run/node'
import { editAction, editLoader } from '../screens/record-route.server'
import { APP_NAME } from '../version'

export { RecordPage as default } from '../components/form/record-form'
export const loader = editLoader
export const action = editAction
/** the breadcrumbs' record crumb (components/breadcrumbs.tsx): the record's name */
export const handle = { crumb: (data: unknown) => (data as { name?: string | null } | undefined)?.name ?? null }
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${APP_NAME}` : APP_NAME }]
