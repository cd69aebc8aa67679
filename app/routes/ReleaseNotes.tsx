/** /ReleaseNotes: every published release note, and the "What's new" dismiss (app/areas/release-notes; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { ReleaseNotesPage } from '../areas/release-notes/release-notes-page'
import { releaseNotesAction, releaseNotesLoader } from '../areas/release-notes/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Release notes · ${APP_NAME}` }]
export const loader = releaseNotesLoader
export const action = releaseNotesAction
export default ReleaseNotesPage
