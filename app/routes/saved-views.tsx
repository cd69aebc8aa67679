/** /saved-views?screen=…: a table screen's saved views (decision 073; plain forms, so it works without JavaScript). */
import type { MetaFunction } from '@remix-run/node'
import { savedViewsAction, savedViewsLoader } from '../screens/saved-views-route.server'
import { APP_NAME } from '../version'

export { SavedViewsView as default } from '../components/table/saved-views-page'
export const loader = savedViewsLoader
export const action = savedViewsAction
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Saved views · ${data.title} · ${APP_NAME}` : APP_NAME }]
export const handle = { crumb: () => 'Saved views' }
