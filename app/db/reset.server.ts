/**
 * Drops every table and function Canopy created (the audit trail included), for
 * `npm run seed -- --reset`. An operator's deliberate act with the server stopped; nothing in
 * the running product calls it.
 */
import type { Db } from './driver.server'
import { MIGRATIONS } from './migrations'

/** What the migrations create, read from their SQL, so that a new migration is dropped too. */
export function migrationObjects(): { tables: string[]; functions: string[] } {
  const tables: string[] = []
  const functions: string[] = []
  for (const m of MIGRATIONS) {
    for (const x of m.sql.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/gi)) tables.push(x[1])
    for (const x of m.sql.matchAll(/CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+([a-z_][a-z0-9_]*)/gi)) functions.push(x[1])
  }
  return { tables, functions }
}

export async function dropEverything(db: Db): Promise<void> {
  const exists = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'canopy_collections' AND schemaname = ANY (current_schemas(false))`)
  const tables = exists.rows[0].n ? (await db.query<{ table_name: string }>('SELECT table_name FROM canopy_collections')).rows.map((r) => r.table_name) : []
  await db.transaction(async (tx) => {
    const own = migrationObjects()
    for (const t of [...tables, ...own.tables, 'canopy_migrations']) {
      await tx.query(`DROP TABLE IF EXISTS ${t.replace(/[^a-z0-9_]/g, '')} CASCADE`)
    }
    for (const f of own.functions) await tx.query(`DROP FUNCTION IF EXISTS ${f} CASCADE`)
  })
}
