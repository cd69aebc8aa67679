/** /MyPolicies: the policies waiting for the signed-in user, and those they acknowledged (app/areas/documents; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { MyPoliciesPage } from '../areas/documents/policy-pages'
import { myPoliciesLoader } from '../areas/documents/policy-routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `My Policies · ${APP_NAME}` }]
export const loader = myPoliciesLoader
export default MyPoliciesPage
