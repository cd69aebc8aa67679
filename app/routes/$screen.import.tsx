/** /{screen}/import: CSV import into a table screen (issue 31 item 3, decision 070; a page, so it works without JavaScript). */
import type { MetaFunction } from '@remix-run/node'
import { importAction, importLoader } from '../screens/csv-import-route.server'
import { APP_NAME } from '../version'

export { CsvImportView as default } from '../components/table/csv-import-page'
export const loader = importLoader
export const action = importAction
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Import CSV · ${data.table} · ${APP_NAME}` : APP_NAME }]
export const handle = { crumb: () => 'Import CSV' }
