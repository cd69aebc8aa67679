/** /SupUsers/{uid} (and /SupUsers/new): a user's details, rights grid, disable and invitations (app/areas/onboarding; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { UserEditPage } from '../areas/onboarding/users-pages'
import { userEditAction, userEditLoader } from '../areas/onboarding/users-page.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `User · ${APP_NAME}` }]
export const loader = userEditLoader('/SupUsers')
export const action = userEditAction('/SupUsers')
export default UserEditPage
