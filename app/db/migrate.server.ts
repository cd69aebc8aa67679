/**
 * Applies pending migrations, each in its own transaction, under an advisory lock so two
 * processes starting together cannot race: the second waits, then finds nothing to do.
 */
import type { Db } from './driver.server'
import { MIGRATIONS, type Migration } from './migrations/index'

/** Advisory lock keys (one namespace for Canopy's DDL). */
export const LOCK_MIGRATE = 4_100_001
/** held while a process seeds the platform (and demo) data, so processes starting together on an empty database seed once */
export const LOCK_SEED = 4_100_002

export class MigrationError extends Error {}

export async function migrate(db: Db, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  return db.withAdvisoryLock(LOCK_MIGRATE, async (conn) => {
    await conn.query(`CREATE TABLE IF NOT EXISTS canopy_migrations (
      version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
    const done = new Set((await conn.query<{ version: number }>('SELECT version FROM canopy_migrations')).rows.map((r) => r.version))
    const applied: number[] = []
    for (const m of migrations) {
      if (done.has(m.version)) continue
      try {
        await conn.query('BEGIN')
        await conn.exec(m.sql)
        await conn.query('INSERT INTO canopy_migrations (version, name) VALUES ($1, $2)', [m.version, m.name])
        await conn.query('COMMIT')
        applied.push(m.version)
      } catch (e) {
        await conn.query('ROLLBACK').catch(() => {})
        throw new MigrationError(`migration ${m.version} (${m.name}) failed and was rolled back: ${(e as Error).message}`)
      }
    }
    return applied
  })
}
