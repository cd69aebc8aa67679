/**
 * The phrase map (SPEC §3: key plus one text per language), read from auth_phrasemap and kept
 * in memory for a minute. Missing texts fall back to the key (English by default).
 */
import type { Database } from '../db/index.server'
import { PLATFORM_ORG } from '../route-map'

export const LANGUAGES = ['en', 'es'] as const
export type Lang = (typeof LANGUAGES)[number]

let cache: { at: number; map: Map<string, Record<string, string>> } | null = null

export async function phrasesFor(database: Database, lang: Lang): Promise<Record<string, string>> {
  if (!cache || Date.now() - cache.at > 60_000) {
    const rows = await database.store.find(PLATFORM_ORG, 'auth_phrasemap', {}, 10_000)
    cache = { at: Date.now(), map: new Map(rows.map((r) => [String(r.key), r as unknown as Record<string, string>])) }
  }
  if (lang === 'en') return {}
  const out: Record<string, string> = {}
  for (const [k, v] of cache.map) if (typeof v[lang] === 'string' && v[lang]) out[k] = v[lang]
  return out
}
