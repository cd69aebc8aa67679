/**
 * Opens Canopy's database: the driver DATABASE_URL asks for (PGlite in DATA_DIR otherwise),
 * applies migrations, and wires the schema registry and the store.
 */
import path from 'node:path'
import type { Db } from './driver.server'
import { migrate } from './migrate.server'
import { openPg } from './pg.server'
import { openPglite } from './pglite.server'
import { SchemaRegistry } from './schema-registry.server'
import { Store } from './store.server'

export interface Database {
  db: Db
  store: Store
  schemas: SchemaRegistry
  close(): Promise<void>
}

export interface OpenOptions {
  databaseUrl?: string
  /** PGlite folder; undefined with no databaseUrl = in memory */
  dataDir?: string
  /** PostgreSQL schema to use (tests isolate runs this way) */
  pgSchema?: string
  statementTimeoutMs?: number
  /** connections in the PostgreSQL pool (DB_POOL_MAX) */
  poolMax?: number
}

export async function connect(opts: OpenOptions): Promise<Db> {
  if (opts.databaseUrl) {
    let url = opts.databaseUrl
    if (opts.pgSchema) {
      const u = new URL(url)
      u.searchParams.set('options', `-c search_path=${opts.pgSchema},public`)
      url = u.toString()
    }
    const db = await openPg(url, { statementTimeoutMs: opts.statementTimeoutMs, max: opts.poolMax })
    if (opts.pgSchema) await db.query(`CREATE SCHEMA IF NOT EXISTS "${opts.pgSchema.replace(/"/g, '')}"`)
    return db
  }
  return openPglite(opts.dataDir)
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const db = await connect(opts)
  try {
    await migrate(db)
    await bootstrapCollections(db)
  } catch (e) {
    await db.close().catch(() => {})
    throw e
  }
  const schemas = new SchemaRegistry(db)
  const store = new Store(db, schemas)
  schemas.store = store
  return { db, store, schemas, close: () => db.close() }
}

/** The `schemas` collection itself must exist before any schema can be stored. */
async function bootstrapCollections(db: Db) {
  const reg = new SchemaRegistry(db)
  if (!(await reg.hasCollection('schemas'))) await reg.ensureCollection('schemas')
}

/** PGlite lives in DATA_DIR/pglite. */
export function pgliteDir(dataDir: string) {
  return path.join(dataDir, 'pglite')
}
