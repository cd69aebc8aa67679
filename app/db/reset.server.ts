/**
 * Drops every table and function Canopy created (the audit trail included), for
 * `npm run seed -- --reset`. An operator's deliberate act with the server stopped; nothing in
 * the running product calls it.
 */
import type { Db } from './driver.server'

export async function dropEverything(db: Db): Promise<void> {
  const exists = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'canopy_collections' AND schemaname = ANY (current_schemas(false))`)
  const tables = exists.rows[0].n ? (await db.query<{ table_name: string }>('SELECT table_name FROM canopy_collections')).rows.map((r) => r.table_name) : []
  await db.transaction(async (tx) => {
    for (const t of [...tables, 'canopy_collections', 'audit_log', 'canopy_meta', 'auth_passwords', 'auth_sessions', 'auth_refresh_tokens', 'auth_one_time_tokens', 'auth_login_attempts', 'canopy_migrations']) {
      await tx.query(`DROP TABLE IF EXISTS ${t.replace(/[^a-z0-9_]/g, '')} CASCADE`)
    }
    for (const f of ['canopy_audit_is_append_only()', 'canopy_num(jsonb)', 'canopy_measure(jsonb)']) {
      await tx.query(`DROP FUNCTION IF EXISTS ${f} CASCADE`)
    }
  })
}
