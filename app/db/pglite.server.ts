/**
 * Embedded PostgreSQL (PGlite, WASM) with its files under DATA_DIR/pglite.
 * PGlite is one connection: queries are serialised by PGlite itself. A lock file keeps a
 * second process from opening the same folder (that would corrupt it).
 */
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { Db, Queryable, QueryResult } from './driver.server'
import { memoryRunLocks } from './run-lock.server'

export class DataDirError extends Error {}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function takeLock(dir: string): () => void {
  const file = path.join(dir, 'canopy.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file)
        } catch {
          /* already gone */
        }
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const pid = Number(fs.readFileSync(file, 'utf8'))
      if (pid && pid !== process.pid && pidAlive(pid)) {
        throw new DataDirError(`${dir} is in use by process ${pid}; an embedded database can be opened by one process at a time (set DATABASE_URL to share a PostgreSQL server)`)
      }
      fs.unlinkSync(file) // stale lock from a process that died
    }
  }
  throw new DataDirError(`could not lock ${dir}`)
}

function wrap(q: { query: PGlite['query']; exec: PGlite['exec'] }): Queryable {
  return {
    async exec(sql: string) {
      await q.exec(sql)
    },
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const r = await q.query<T>(sql, params)
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length }
    },
  }
}

/** Opens (creating if needed) the embedded database in `dir`; `dir` undefined = in memory. */
export async function openPglite(dir: string | undefined): Promise<Db> {
  let release = () => {}
  if (dir) {
    fs.mkdirSync(dir, { recursive: true })
    release = takeLock(dir)
  }
  let pg: PGlite
  try {
    pg = await PGlite.create(dir ?? 'memory://', { extensions: { pg_trgm } })
    await pg.query('select 1')
  } catch (e) {
    release()
    const msg = e instanceof Error ? e.message : String(e)
    throw new DataDirError(`the embedded database in ${dir ?? 'memory'} could not be opened (${msg.slice(0, 300)}); the folder may be corrupt or from another version. Restore it from a backup or move it away to start fresh.`)
  }
  const base = wrap(pg)
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    // One connection, one process (the lock file): the lock is taken for correctness of the SQL path.
    withAdvisoryLock: async (key, fn) => {
      await pg.query('select pg_advisory_lock($1)', [key])
      try {
        return await fn(base)
      } finally {
        await pg.query('select pg_advisory_unlock($1)', [key])
      }
    },
    // one process (the folder lock): run locks need no database
    runLocks: memoryRunLocks(),
    parallel: async (...qs) => {
      const out: unknown[] = []
      for (const q of qs) out.push(await q(base))
      return out as never
    },
    dumpDataDir: async () => {
      await pg.query('CHECKPOINT')
      return pg.dumpDataDir('gzip')
    },
    close: async () => {
      try {
        if (!pg.closed) await pg.close()
      } finally {
        release()
      }
    },
  }
}
