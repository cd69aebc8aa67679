/**
 * Who may see what (SPEC §6), shared by the server (which enforces it) and the UI (which only
 * hides what the server would refuse anyway).
 */
import { MODULES, ROUTES, type ModuleCode, type RouteEntry } from '../route-map'

export interface SessionUser {
  uid: string
  email: string
  role: 'super' | 'admin' | 'user' | string
  org: string
  firstname?: string
  lastname?: string
  /** roles: job roles beyond super/admin/user (e.g. `compliance`: decides METRC drift) */
  props?: { facilities?: string[]; modules?: Record<string, string[] | null>; roles?: string[] }
  web?: string
  eulaip?: string
  /** while a super acts as this user: the original user's role (SPEC §6: role checks use it) */
  origRole?: string
}

/** The role role checks use: the original user's while a super acts as someone (SPEC §6); entitlements stay the user's own. */
export const roleOf = (u: Pick<SessionUser, 'role' | 'origRole'>): string => u.origRole ?? u.role

const ALL = MODULES.map((m) => m.code)

/** Facilities the user may enter; super may enter any of `allOrgs`. */
export function facilitiesOf(user: SessionUser, allOrgs: string[]): string[] {
  if (user.role === 'super') return allOrgs
  return listedFacilities(user).filter((f) => allOrgs.includes(f))
}

function listedFacilities(user: SessionUser): string[] {
  return user.props?.facilities ?? Object.keys(user.props?.modules ?? {})
}

/** Does this account (a user or a stored user record) work in `facility`: its home organisation, or a facility its rights list? */
export function worksIn(user: { org?: unknown; props?: unknown } | Record<string, unknown>, facility: string): boolean {
  if (user.org === facility) return true
  const props = (user.props && typeof user.props === 'object' ? user.props : {}) as NonNullable<SessionUser['props']>
  const listed: unknown = props.facilities ?? Object.keys(props.modules ?? {})
  return Array.isArray(listed) && listed.includes(facility)
}

/** Module codes entitled in a facility: super all; a null list all; a facility not listed none. */
export function modulesOf(user: SessionUser, facility: string): ModuleCode[] {
  if (user.role === 'super') return [...ALL]
  const mods = user.props?.modules ?? {}
  if (!(facility in mods)) return []
  const list = mods[facility]
  if (list === null || list === undefined) return [...ALL]
  return ALL.filter((c) => list.includes(c))
}

export function canSeeRoute(user: SessionUser, facility: string, route: RouteEntry): boolean {
  if (route.module === 'super') return roleOf(user) === 'super'
  // administration of a facility: its admins (and super)
  if (route.module === 'admin') return roleOf(user) === 'super' || (roleOf(user) === 'admin' && listedFacilities(user).includes(facility))
  // general screens (support, tables, documents): anyone who may work in this facility
  if (route.module === 'all') return user.role === 'super' || listedFacilities(user).includes(facility)
  const mods = modulesOf(user, facility)
  return (route.anyOf ?? [route.module]).some((m) => mods.includes(m))
}

export function visibleRoutes(user: SessionUser, facility: string): RouteEntry[] {
  return ROUTES.filter((r) => canSeeRoute(user, facility, r))
}
