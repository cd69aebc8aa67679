/** /Invitation/{token}: an invited user's first password (app/areas/onboarding; a thin route, decision 022). */
import type { MetaFunction } from '@remix-run/node'
import { InvitationPage } from '../areas/onboarding/invitation'
import { invitationAction, invitationLoader } from '../areas/onboarding/invitation.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Choose your password · ${APP_NAME}` }]
export const loader = invitationLoader
export const action = invitationAction
export default InvitationPage
