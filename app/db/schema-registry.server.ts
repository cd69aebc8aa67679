/**
 * The schema registry: one schema record per table (SPEC §3), stored in the platform
 * collection `schemas`, cached in memory and invalidated when a schema changes. Registering a
 * schema creates its collection's table and the indexes its sortable and searchable fields need.
 */
import { PLATFORM_ORG } from '../route-map'
import { normalizeSchema, type TableSchema } from '../schemas/table-schema'
import type { Db, Queryable } from './driver.server'
import { LOCK_MIGRATE } from './migrate.server'
import { collectionDdl, tableOf } from './sql'
import type { Store } from './store.server'
import type { Actor } from './types'

/** How long another process's schema change may take to be seen here. */
const CACHE_TTL_MS = 10_000

export class SchemaRegistry {
  private collections: Set<string> | null = null
  private trgmSchema: string | undefined
  private cache = new Map<string, { at: number; schema: TableSchema | undefined }>()
  store!: Store

  constructor(private readonly db: Db) {}

  async hasCollection(name: string, q: Queryable = this.db): Promise<boolean> {
    if (this.collections?.has(name)) return true
    const r = await q.query<{ name: string }>('SELECT name FROM canopy_collections')
    this.collections = new Set(r.rows.map((x) => x.name))
    return this.collections.has(name)
  }

  async listCollections(): Promise<string[]> {
    await this.hasCollection('')
    return [...this.collections!].sort()
  }

  /** Creates the collection's table and indexes if missing (idempotent, serialised with migrations). */
  async ensureCollection(name: string, schema?: TableSchema): Promise<void> {
    const table = tableOf(name)
    await this.db.withAdvisoryLock(LOCK_MIGRATE, async (conn) => {
      this.trgmSchema ??= (await conn.query<{ s: string }>(`SELECT extnamespace::regnamespace::text AS s FROM pg_extension WHERE extname = 'pg_trgm'`)).rows[0]?.s ?? 'public'
      await conn.exec(collectionDdl(name, schema, this.trgmSchema).join(';\n'))
      await conn.query('INSERT INTO canopy_collections (name, table_name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, table])
    })
    this.collections?.add(name)
  }

  /** `q`: a transaction the caller holds (PGlite runs one at a time: a read outside it would wait for it) */
  async get(key: string, q: Queryable = this.db): Promise<TableSchema | undefined> {
    const hit = this.cache.get(key)
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.schema
    if (!(await this.hasCollection('schemas', q))) return undefined
    const r = await q.query<{ doc: TableSchema }>('SELECT doc FROM c_schemas WHERE org = $1 AND id = $2', [PLATFORM_ORG, key])
    const schema = r.rows[0] ? normalizeSchema(r.rows[0].doc) : undefined
    this.cache.set(key, { at: Date.now(), schema })
    return schema
  }

  /** Validates (either SPEC shape), stores the canonical shape, creates table and indexes. */
  async put(actor: Actor, input: unknown): Promise<TableSchema> {
    const schema = normalizeSchema(input)
    await this.ensureCollection(schema.key, schema)
    await this.store.upsert(actor, PLATFORM_ORG, 'schemas', schema.key, schema as unknown as Record<string, unknown>)
    this.invalidate(schema.key)
    return schema
  }

  invalidate(key?: string) {
    if (key) this.cache.delete(key)
    else this.cache.clear()
  }
}
