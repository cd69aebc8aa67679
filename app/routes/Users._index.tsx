/** /Users: the users list (app/areas/onboarding; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { UsersListPage } from '../areas/onboarding/users-pages'
import { usersListLoader } from '../areas/onboarding/users-page.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Users · ${APP_NAME}` }]
export const loader = usersListLoader('/Users')
export default UsersListPage
