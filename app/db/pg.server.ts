/** PostgreSQL server through a node-postgres pool (DATABASE_URL). */
import pg from 'pg'
import type { Db, Queryable, QueryResult } from './driver.server'
import { pgRunLocks } from './run-lock.server'

export class DatabaseUnreachableError extends Error {}

// int8 (counts, sequences) as JS numbers, like PGlite; numeric stays a string.
pg.types.setTypeParser(20, (v) => Number(v))

function wrap(c: { query: pg.Pool['query'] }): Queryable {
  return {
    async exec(sql: string) {
      await c.query(sql)
    },
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const r = await c.query(sql, params as unknown[])
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length }
    },
  }
}

export async function openPg(url: string, opts: { max?: number; statementTimeoutMs?: number } = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5000,
    statement_timeout: opts.statementTimeoutMs ?? 15000,
    application_name: 'canopy',
  })
  pool.on('error', () => {
    /* idle client errors surface on the next query; keep the process up */
  })
  try {
    await pool.query('select 1')
  } catch (e) {
    await pool.end().catch(() => {})
    const safe = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')
    throw new DatabaseUnreachableError(`DATABASE_URL=${safe}: the PostgreSQL server does not answer (${(e as Error).message})`)
  }
  const base = wrap(pool)
  const runLocks = pgRunLocks(url)
  return {
    kind: 'pg',
    query: base.query,
    exec: base.exec,
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const out = await fn(wrap(client))
        await client.query('COMMIT')
        return out
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {})
        throw e
      } finally {
        client.release()
      }
    },
    async withAdvisoryLock(key, fn) {
      const client = await pool.connect()
      // a connection left without its statement timeout (the wait failed) is not handed back to the pool
      let timed = false
      try {
        // the wait is as long as the holder's work (another process seeding the demo on a busy machine):
        // not cut by the statement timeout, which applies again to the work itself
        await client.query('SET statement_timeout = 0')
        await client.query('select pg_advisory_lock($1)', [key])
        await client.query('RESET statement_timeout')
        timed = true
        try {
          return await fn(wrap(client))
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key])
        }
      } finally {
        client.release(!timed)
      }
    },
    runLocks,
    parallel: (...qs) => Promise.all(qs.map((q) => q(base))) as never,
    close: async () => {
      await runLocks.close()
      await pool.end()
    },
  }
}
