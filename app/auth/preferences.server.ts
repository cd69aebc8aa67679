/** Preferences of SPEC §3 (set_preferences: uid, facility, light) plus the language, the drawer's collapse (decision 061) and the tables' density (decision 064). */
import type { Database } from '../db/index.server'
import type { Actor } from '../db/types'
import { PLATFORM_ORG } from '../route-map'
import { findUser } from './accounts.server'
import { roleOf, worksIn, type SessionUser } from './entitlements'

export interface Prefs {
  light: boolean
  lang: 'en' | 'es'
  /** the side drawer shrunk to icons (wide screens), so the first paint is right without JavaScript */
  collapsed: boolean
  /** the table screen's rows: comfortable (44 px touch targets) or compact (decision 064) */
  density: Density
}

export type Density = 'comfortable' | 'compact'

export async function getPrefs(database: Database, uid: string, facility: string | null): Promise<Prefs> {
  const [p] = await database.store.find(PLATFORM_ORG, 'set_preferences', { uid, facility: facility ?? '' }, 1)
  return { light: p?.light === 'yes', lang: p?.lang === 'es' ? 'es' : 'en', collapsed: p?.drawer === 'collapsed', density: p?.density === 'compact' ? 'compact' : 'comfortable' }
}

export async function savePrefs(database: Database, actor: Actor, uid: string, facility: string | null, patch: Partial<Prefs>) {
  const [p] = await database.store.find(PLATFORM_ORG, 'set_preferences', { uid, facility: facility ?? '' }, 1)
  const doc: Record<string, unknown> = {}
  if (patch.light !== undefined) doc.light = patch.light ? 'yes' : 'no'
  if (patch.lang !== undefined) doc.lang = patch.lang
  if (patch.collapsed !== undefined) doc.drawer = patch.collapsed ? 'collapsed' : 'open'
  if (patch.density !== undefined) doc.density = patch.density
  if (p) await database.store.update(actor, PLATFORM_ORG, 'set_preferences', p._id, doc)
  else await database.store.insert(actor, PLATFORM_ORG, 'set_preferences', { uid, facility: facility ?? '', light: 'no', lang: 'en', ...doc })
}

/**
 * May `user`, working in `facility` (the facility of a token or a session), read and write the
 * preferences of the account `uid`? Its own always; another account's only as super, or as an
 * admin of that facility when that account works there too (decision 055). /Preferences only ever
 * saves the signed-in user's own; the set_preferences calls of /dt/v1 ask this for every record.
 */
export async function mayManagePrefs(database: Database, user: SessionUser, facility: string, uid: unknown): Promise<boolean> {
  if (typeof uid !== 'string' || !uid) return false
  if (uid === user.uid) return true
  const role = roleOf(user)
  if (role === 'super') return true
  if (role !== 'admin' || !worksIn(user, facility)) return false
  const other = await findUser(database, uid)
  return !!other && worksIn(other, facility)
}
