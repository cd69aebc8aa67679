/**
 * One session secret for every process on one PostgreSQL database (issue 30). A secret given as
 * SESSION_SECRET is used as it is. Otherwise each process has one generated in its DATA_DIR, and
 * processes with different DATA_DIRs would reject each other's sessions, API tokens and METRC keys:
 * the first process stores its own in canopy_meta and every process uses the stored one. A single
 * process keeps the secret it had, so existing sessions and stored METRC keys stay valid. PGlite
 * serves one process and keeps the DATA_DIR file. Backups of the database hold the stored secret:
 * set SESSION_SECRET on every process to keep it out of them (ops/README).
 */
import type { Env } from '../config/env.server'
import type { Db } from './driver.server'

export async function shareSessionSecret(db: Db, env: Env): Promise<Env> {
  if (env.SESSION_SECRET_FROM === 'env' || db.kind !== 'pg') return env
  await db.query(`INSERT INTO canopy_meta (key, value) VALUES ('session_secret', to_jsonb($1::text)) ON CONFLICT (key) DO NOTHING`, [env.SESSION_SECRET])
  const r = await db.query<{ v: string | null }>(`SELECT value #>> '{}' AS v FROM canopy_meta WHERE key = 'session_secret'`)
  const shared = r.rows[0]?.v
  return shared && shared.length >= 32 ? { ...env, SESSION_SECRET: shared } : env
}
