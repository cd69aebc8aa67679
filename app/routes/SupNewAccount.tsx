/** /SupNewAccount: a new customer account (organisation, modules, first admin) and lobby approvals (app/areas/onboarding; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { NewAccountPage } from '../areas/onboarding/new-account'
import { newAccountAction, newAccountLoader } from '../areas/onboarding/new-account-page.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `New Account · ${APP_NAME}` }]
export const loader = newAccountLoader
export const action = newAccountAction
export default NewAccountPage
