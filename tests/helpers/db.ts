/**
 * A fresh database for one test file, on the engine TEST_DB names: 'pglite' (default, a new
 * folder) or 'pg' (a new schema on TEST_DATABASE_URL, dropped afterwards).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openDatabase, type Database, type OpenOptions } from '#app/db/index.server'

export const TEST_DB = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'pg'
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface TestDatabase extends Database {
  opts: OpenOptions
  /** environment a child process needs to open this same database */
  childEnv: Record<string, string>
  cleanup(): Promise<void>
}

export function tmpDir(prefix = 'canopy-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export function freshOptions(): { opts: OpenOptions; childEnv: Record<string, string>; drop: () => Promise<void> } {
  if (TEST_DB === 'pg') {
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`
    const u = new URL(TEST_DATABASE_URL)
    u.searchParams.set('options', `-c search_path=${schema},public`)
    return {
      opts: { databaseUrl: TEST_DATABASE_URL, pgSchema: schema },
      childEnv: { DATABASE_URL: u.toString(), TEST_PG_SCHEMA: schema },
      drop: async () => {
        const c = new pg.Client({ connectionString: TEST_DATABASE_URL })
        await c.connect()
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
        await c.end()
      },
    }
  }
  const dir = tmpDir()
  return {
    opts: { dataDir: path.join(dir, 'pglite') },
    childEnv: { DATA_DIR: dir },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  }
}

/** Creates the PostgreSQL schema a fresh option set names (nothing to do for PGlite). */
export async function createPgSchema(schema: string | undefined): Promise<void> {
  if (!schema) return
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await c.connect()
  await c.query(`CREATE SCHEMA ${schema}`)
  await c.end()
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const { opts, childEnv, drop } = freshOptions()
  await createPgSchema(opts.pgSchema)
  const database = await openDatabase(opts)
  return {
    ...database,
    opts,
    childEnv,
    cleanup: async () => {
      await database.close().catch(() => {})
      await drop()
    },
  }
}
