/**
 * SQL pieces the dashboard loaders share. Each mirrors what the table screen's query does for
 * the link it goes with (db/page-sql.ts): active = IsUsed is not 'no'; a date between instants
 * compares the stored ISO text (`COLLATE "C"`); an exact match compares `doc ->> key`. Every
 * statement filters by org ($1).
 */
import type { Db } from '../../db/driver.server'
import { keyLit, tableOf } from '../../db/sql'

export const ACTIVE = `(doc ->> 'IsUsed') IS DISTINCT FROM 'no'`

/** `key` between two instants (half-open), with the parameters appended to `params`. */
export function between(key: string, from: string | undefined, to: string | undefined, params: unknown[]): string {
  const e = `((doc ->> ${keyLit(key)}) COLLATE "C")`
  const w: string[] = []
  if (from) w.push(`${e} >= $${params.push(from)}`)
  if (to) w.push(`${e} < $${params.push(to)}`)
  return w.length ? w.join(' AND ') : 'true'
}

export const field = (key: string) => `(doc ->> ${keyLit(key)})`
/** a measure in grams (or its base unit) */
export const measure = (key: string) => `canopy_measure(doc -> ${keyLit(key)})`

export async function rows<T>(db: Db, sql: string, params: unknown[]): Promise<T[]> {
  return (await db.query<T>(sql, params)).rows
}

export { tableOf }

/** Counts of one collection's records in each of several ranges of a date field, one scan. */
export async function countsInSpans(db: Db, org: string, collection: string, key: string, spans: Array<{ from: string; to: string }>, opts: { active?: boolean } = {}): Promise<number[]> {
  if (!spans.length) return []
  const params: unknown[] = [org]
  const cols = spans.map((s, i) => `count(*) FILTER (WHERE ${between(key, s.from, s.to, params)})::int AS c${i}`)
  const lo = spans.reduce((m, s) => (s.from < m ? s.from : m), spans[0].from)
  const hi = spans.reduce((m, s) => (s.to > m ? s.to : m), spans[0].to)
  const r = await rows<Record<string, number>>(db, `SELECT ${cols.join(', ')} FROM ${tableOf(collection)} WHERE org = $1 AND ${between(key, lo, hi, params)}${opts.active ? ` AND ${ACTIVE}` : ''}`, params)
  return spans.map((_, i) => Number(r[0]?.[`c${i}`] ?? 0))
}
