/** /DisplayHTML (SPEC §2.2, receives props): a document as a printable page, or the list (app/areas/documents; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { DisplayPage } from '../areas/documents/display'
import { displayLoader } from '../areas/documents/display.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction<typeof displayLoader> = ({ data }) => [{ title: `${data?.doc?.title ?? 'Documents'} · ${APP_NAME}` }]
export const loader = displayLoader
export default DisplayPage
