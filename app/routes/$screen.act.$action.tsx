/** /{screen}/act/{action}: the confirm page of a row action (decision 038; a page, so it works without JavaScript). */
import type { MetaFunction } from '@remix-run/node'
import { rowActionAction, rowActionLoader } from '../screens/row-action.server'
import { APP_NAME } from '../version'

export { RowActionView as default } from '../components/table/row-action-page'
export const loader = rowActionLoader
export const action = rowActionAction
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${APP_NAME}` : APP_NAME }]
