/** Preferences of SPEC §3 (set_preferences: uid, facility, light) plus the language. */
import type { Database } from '../db/index.server'
import type { Actor } from '../db/types'
import { PLATFORM_ORG } from '../route-map'

export interface Prefs {
  light: boolean
  lang: 'en' | 'es'
}

export async function getPrefs(database: Database, uid: string, facility: string | null): Promise<Prefs> {
  const [p] = await database.store.find(PLATFORM_ORG, 'set_preferences', { uid, facility: facility ?? '' }, 1)
  return { light: p?.light === 'yes', lang: p?.lang === 'es' ? 'es' : 'en' }
}

export async function savePrefs(database: Database, actor: Actor, uid: string, facility: string | null, patch: Partial<Prefs>) {
  const [p] = await database.store.find(PLATFORM_ORG, 'set_preferences', { uid, facility: facility ?? '' }, 1)
  const doc: Record<string, unknown> = {}
  if (patch.light !== undefined) doc.light = patch.light ? 'yes' : 'no'
  if (patch.lang !== undefined) doc.lang = patch.lang
  if (p) await database.store.update(actor, PLATFORM_ORG, 'set_preferences', p._id, doc)
  else await database.store.insert(actor, PLATFORM_ORG, 'set_preferences', { uid, facility: facility ?? '', light: 'no', lang: 'en', ...doc })
}
