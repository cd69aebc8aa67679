/**
 * The shipped phrase map (SPEC §3: key = English text, one text per language) reaches every
 * install on start, like the shipped schemas (issue 32 item 12): a key the install lacks is added;
 * a shipped text that changed replaces the stored one only when nobody but the seed ever wrote that
 * phrase (its audit rows say who), so an administrator's wording on /SupPhrasemap is kept.
 */
import { createHash } from 'node:crypto'
import type { Logger } from 'pino'
import type { Database } from '../db/index.server'
import type { Actor } from '../db/types'
import { PLATFORM_ORG } from '../route-map'
import { ES_SCHEMA_TEXTS } from './records/es-glossary'
import { ES } from './records/platform-3'

/** Every shipped phrase: the UI's texts and the schemas' words, English key → Spanish. */
export function shippedPhrases(): Record<string, string> {
  return { ...ES_SCHEMA_TEXTS, ...ES }
}

/** A phrase row's id from its key: adding the same key twice (two starts at once) conflicts instead of duplicating. */
export const phraseId = (key: string) => `phrase-${createHash('sha256').update(key).digest('hex').slice(0, 24)}`

/** The phrases someone other than the seed has ever written. */
async function editedPhrases(database: Database, seedUid: string): Promise<Set<string>> {
  const r = await database.db.query<{ id: string }>(`SELECT DISTINCT doc_id AS id FROM audit_log WHERE org = $1 AND collection = 'auth_phrasemap' AND uid IS DISTINCT FROM $2`, [PLATFORM_ORG, seedUid])
  return new Set(r.rows.map((x) => x.id))
}

export async function syncPhrases(database: Database, actor: Actor, logger?: Logger): Promise<{ added: number; updated: number }> {
  const shipped = shippedPhrases()
  const stored = await database.store.find(PLATFORM_ORG, 'auth_phrasemap', {}, 100_000)
  const byKey = new Map(stored.map((r) => [String(r.key), r]))
  const missing = Object.entries(shipped).filter(([key]) => !byKey.has(key))
  const added = await database.store.insertMany(actor, PLATFORM_ORG, 'auth_phrasemap', missing.map(([key, es]) => ({ _id: phraseId(key), key, en: key, es })))
  const changed = Object.entries(shipped).filter(([key, es]) => byKey.has(key) && byKey.get(key)!.es !== es)
  let updated = 0
  if (changed.length) {
    const edited = await editedPhrases(database, actor.uid)
    for (const [key, es] of changed) {
      const row = byKey.get(key)!
      if (edited.has(row._id)) continue
      await database.store.update(actor, PLATFORM_ORG, 'auth_phrasemap', row._id, { es })
      updated++
    }
  }
  if (added || updated) logger?.info({ added, updated }, 'phrase map: shipped phrases added or upgraded')
  return { added, updated }
}
