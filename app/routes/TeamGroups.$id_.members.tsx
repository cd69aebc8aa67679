/** /TeamGroups/{id}/members: who is in a team (app/areas/onboarding; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { TeamMembersPage } from '../areas/onboarding/team-members'
import { teamMembersAction, teamMembersLoader } from '../areas/onboarding/team-members.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Team members · ${APP_NAME}` }]
export const loader = teamMembersLoader
export const action = teamMembersAction
export default TeamMembersPage
