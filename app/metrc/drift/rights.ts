/**
 * Who may decide drift (issue 9 item 7): admins (and super) and the facility's compliance staff —
 * users whose account lists the job role `compliance` (users.props.roles). Everyone else entitled
 * to the Metrc screens reads the drift. Shared by the screen (buttons) and its action (the check).
 */
import { roleOf, type SessionUser } from '../../auth/entitlements'

export const RESOLVER_ROLES = ['compliance'] as const

export function mayResolveDrift(user: SessionUser): boolean {
  if (roleOf(user) === 'admin' || roleOf(user) === 'super') return true
  const roles = Array.isArray(user.props?.roles) ? user.props.roles : []
  return roles.some((r) => (RESOLVER_ROLES as readonly string[]).includes(String(r).toLowerCase()))
}
