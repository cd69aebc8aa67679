/** /PolDocs/{id}/signatures: who has and has not acknowledged a policy, with dates; /PolDocs/{id}/signatures.csv exports it (app/areas/documents; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { PolicySignaturesPage } from '../areas/documents/policy-pages'
import { signaturesLoader } from '../areas/documents/policy-routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Who signed · ${APP_NAME}` }]
export const loader = signaturesLoader
export default PolicySignaturesPage
