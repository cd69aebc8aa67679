/**
 * Seeding. `ensurePlatform` runs on every start: core schemas, the phrase map, modules, the lobby
 * and the first super user (ADMIN_EMAIL / ADMIN_PASSWORD). `seedDemo` adds the demo facilities, users and
 * records once (a marker in canopy_meta); `npm run seed -- --reset` rebuilds everything.
 */
import type { Logger } from 'pino'
import { hashPassword } from '../auth/password.server'
import type { Env } from '../config/env.server'
import type { Database } from '../db/index.server'
import type { Actor } from '../db/types'
import { PLATFORM_ORG } from '../route-map'
import { normalizeSchema, type TableSchema } from '../schemas/table-schema'
import { coreRecords, coreSchemas, DEMO_PASSWORD, demoUsers, FACILITIES, moduleRecords, userRecords } from './core'
import { makeCtx, type SeedCtx, type SeedDoc, type SeedRecords } from './kit'
import { syncPhrases } from './phrases.server'
import * as business from './records/business'
import * as metrc from './records/metrc'
import * as operations from './records/operations'
import * as platform from './records/platform'
import { schemas as businessSchemas } from './schemas/business'
import { schemas as metrcSchemas } from './schemas/metrc'
import { schemas as operationsSchemas } from './schemas/operations'
import { schemas as platformSchemas } from './schemas/platform'

export const SEED_ACTOR: Actor = { uid: 'system:seed', role: 'super' }
const SEED_VERSION = 1
const DEFAULT_ADMIN_PASSWORD = 'Canopy#Demo1'

/**
 * A business area's part of the seed (app/areas, decision 022): the schemas of its tables, its demo
 * records per facility and on the platform. Each group draws from its own random stream.
 */
export interface SeedGroup {
  name: string
  schemas?: unknown[]
  facilityRecords?: (ctx: SeedCtx) => SeedRecords
  platformRecords?: (ctx: SeedCtx) => SeedRecords
}
const AREA_GROUPS = new Map<string, SeedGroup>()

/** installServerAreas() registers each area's group; registering a name again replaces it. */
export function registerSeedGroup(g: SeedGroup): void {
  AREA_GROUPS.set(g.name, g)
}

/**
 * A step after the demo records are in (app/areas, decision 022): the documents area writes a small
 * real file for every file a seeded record links to. Runs once, when the demo is seeded; a failure
 * is the seed's failure. Registering a name again replaces it.
 */
export type AfterSeed = (database: Database, env: Env, logger?: Logger) => Promise<unknown>
const AFTER_SEED = new Map<string, AfterSeed>()
export function registerAfterSeed(name: string, step: AfterSeed): void {
  AFTER_SEED.set(name, step)
}

/** Every schema the product ships with (core + each seed group + each area's). */
export function allSchemaInputs(): unknown[] {
  return [...coreSchemas, ...operationsSchemas, ...metrcSchemas, ...businessSchemas, ...platformSchemas, ...[...AREA_GROUPS.values()].flatMap((g) => g.schemas ?? [])]
}

/** Each group draws from its own random stream, so changing one group never shifts another's data. */
const FACILITY_SEEDERS: Array<[string, (ctx: SeedCtx) => SeedRecords]> = [
  ['business', business.seedRecords],
  ['operations', operations.seedRecords],
  ['metrc', metrc.seedRecords],
]
const facilitySeeders = (): Array<[string, (ctx: SeedCtx) => SeedRecords]> => [
  ...FACILITY_SEEDERS,
  ...[...AREA_GROUPS.values()].flatMap((g): Array<[string, (ctx: SeedCtx) => SeedRecords]> => (g.facilityRecords ? [[g.name, g.facilityRecords]] : [])),
]

/** JSON with object keys sorted (a schema read back from jsonb has its keys in another order) */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`).join(',')}}`
  return JSON.stringify(v)
}

/** The schemas someone other than the seed has ever written (their audit rows say who). */
async function editedSchemas(database: Database): Promise<Set<string>> {
  const r = await database.db.query<{ id: string }>(`SELECT DISTINCT doc_id AS id FROM audit_log WHERE org = $1 AND collection = 'schemas' AND uid IS DISTINCT FROM $2`, [PLATFORM_ORG, SEED_ACTOR.uid])
  return new Set(r.rows.map((x) => x.id))
}

/**
 * Creates the shipped schemas an install lacks, and upgrades the ones it has to the shipped version when no
 * operator ever edited them (issue 28: a changed seed schema reaches existing installs); an edited schema is
 * kept as the operator left it, and the log says the shipped one differs.
 */
async function registerSchemas(database: Database, logger?: Logger): Promise<Map<string, TableSchema>> {
  const out = new Map<string, TableSchema>()
  let edited: Set<string> | undefined
  for (const input of allSchemaInputs()) {
    const key = (input as { key: string }).key
    if (out.has(key)) throw new Error(`two seed schemas define the table "${key}"`)
    const existing = await database.schemas.get(key)
    const wanted = normalizeSchema(input)
    if (!existing) {
      out.set(key, await database.schemas.put(SEED_ACTOR, wanted))
      continue
    }
    if (stableJson(existing) === stableJson(wanted)) {
      out.set(key, existing)
      continue
    }
    edited ??= await editedSchemas(database)
    if (edited.has(key)) {
      logger?.info({ schema: key }, 'kept the schema an operator edited; the shipped version differs')
      out.set(key, existing)
    } else {
      out.set(key, await database.schemas.put(SEED_ACTOR, wanted))
      logger?.info({ schema: key }, 'schema upgraded to the shipped version (never edited here)')
    }
  }
  return out
}

async function setPassword(database: Database, uid: string, password: string, overwrite: boolean) {
  const hash = await hashPassword(password)
  await database.db.query(
    `INSERT INTO auth_passwords (uid, hash) VALUES ($1, $2) ON CONFLICT (uid) DO ${overwrite ? 'UPDATE SET hash = EXCLUDED.hash, updated_at = now()' : 'NOTHING'}`,
    [uid, hash],
  )
}

/** Gives each seeded record a creation time: its own date field when it has one, else a plausible past time. */
function withCts(schema: TableSchema | undefined, docs: SeedDoc[], ctx: SeedCtx): SeedDoc[] {
  return docs.map((d) => {
    if (d.cts) return d
    const v = schema?.dateField ? d[schema.dateField] : undefined
    const t = typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? Math.min(Date.parse(v), ctx.now.getTime()) : Date.parse(ctx.rng.pastDate(180))
    return { ...d, cts: new Date(t).toISOString() }
  })
}

async function insertAll(database: Database, org: string, records: SeedRecords, schemas: Map<string, TableSchema>, ctx: SeedCtx): Promise<number> {
  let n = 0
  for (const [collection, docs] of Object.entries(records)) {
    if (!docs?.length) continue
    if (!schemas.has(collection)) throw new Error(`seed records for "${collection}" have no schema`)
    n += await database.store.insertMany(SEED_ACTOR, org, collection, withCts(schemas.get(collection), docs, ctx))
  }
  return n
}

/** Core schemas, the phrase map, modules, the lobby organisation and the first super user. Safe to run on every start. */
export async function ensurePlatform(database: Database, env: Env, logger?: Logger) {
  if (env.NODE_ENV === 'production' && env.DEMO_DATA === '0' && env.ADMIN_PASSWORD === DEFAULT_ADMIN_PASSWORD) {
    throw new Error('ADMIN_PASSWORD is the documented demo default; a real install (DEMO_DATA=0) must set its own')
  }
  const schemas = await registerSchemas(database, logger)
  // the phrase map on every start: new shipped keys reach an existing install, edited texts stay
  await syncPhrases(database, SEED_ACTOR, logger)
  const lobby = coreRecords(env.ADMIN_EMAIL, []).org.filter((o) => o._id === 'lobby')
  await database.store.insertMany(SEED_ACTOR, PLATFORM_ORG, 'org', lobby)
  await database.store.insertMany(SEED_ACTOR, PLATFORM_ORG, 'sup_modules', moduleRecords())
  const superUser = env.DEMO_DATA === '1' ? userRecords(env.ADMIN_EMAIL).filter((u) => u.role === 'super') : [realSuperUser(env)]
  if ((await database.store.insertMany(SEED_ACTOR, PLATFORM_ORG, 'users', superUser)) > 0) {
    await setPassword(database, superUser[0].uid, env.ADMIN_PASSWORD, false)
    logger?.info({ email: env.ADMIN_EMAIL }, 'first super user created')
  }
  return schemas
}

/** A real install's first super user (DEMO_DATA=0): named from ADMIN_NAME, in the platform organisation, no demo identity. */
export function realSuperUser(env: Pick<Env, 'ADMIN_EMAIL' | 'ADMIN_NAME'>) {
  const [firstname, ...rest] = env.ADMIN_NAME.split(/\s+/)
  return {
    _id: 'u-super', uid: 'u-super', email: env.ADMIN_EMAIL.toLowerCase(), role: 'super', org: PLATFORM_ORG, firstname, lastname: rest.join(' '),
    props: { facilities: [], modules: {} }, web: 'yes', emailVerified: 'yes', eulaip: '', IsUsed: 'yes',
  }
}

export interface SeedResult {
  seeded: boolean
  ms: number
  documents: number
}

export async function seedDemo(database: Database, env: Env, opts: { logger?: Logger; force?: boolean; now?: Date } = {}): Promise<SeedResult> {
  const started = Date.now()
  const schemas = await ensurePlatform(database, env, opts.logger)
  if (env.DEMO_DATA !== '1' && !opts.force) return { seeded: false, ms: Date.now() - started, documents: 0 }
  const mark = await database.db.query<{ value: { version: number; now: string } }>(`SELECT value FROM canopy_meta WHERE key = 'demo_seed'`)
  if (mark.rows[0] && !opts.force) return { seeded: false, ms: Date.now() - started, documents: 0 }

  // The demo's clock: the hour of the first seed, kept so a re-seed produces the same records.
  const now = opts.now ?? (mark.rows[0] ? new Date(mark.rows[0].value.now) : new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000))
  const facilityOrgs = FACILITIES.filter((f) => f.kind !== 'lobby').map((f) => f.org)
  let documents = 0

  const platformCtx = makeCtx({ org: PLATFORM_ORG, fullName: 'Canopy Platform', kind: 'lobby', state: 'CA', license: 'platform', timezone: 'UTC' }, now)
  documents += await insertAll(database, PLATFORM_ORG, coreRecords(env.ADMIN_EMAIL, facilityOrgs), schemas, platformCtx)
  documents += await insertAll(database, PLATFORM_ORG, platform.seedPlatformRecords(platformCtx), schemas, platformCtx)
  for (const g of AREA_GROUPS.values()) {
    if (g.platformRecords) documents += await insertAll(database, PLATFORM_ORG, g.platformRecords(makeCtx({ org: PLATFORM_ORG, fullName: 'Canopy Platform', kind: 'lobby', state: 'CA', license: 'platform', timezone: 'UTC' }, now, `:${g.name}`)), schemas, platformCtx)
  }
  for (const u of demoUsers(env.ADMIN_EMAIL)) {
    await setPassword(database, u.uid, u.role === 'super' ? env.ADMIN_PASSWORD : DEMO_PASSWORD, false)
  }
  for (const facility of FACILITIES) {
    const ctx = makeCtx(facility, now)
    const records: SeedRecords = {}
    for (const [group, seeder] of facilitySeeders()) {
      for (const [collection, docs] of Object.entries(seeder(makeCtx(facility, now, `:${group}`)))) records[collection] = [...(records[collection] ?? []), ...docs]
    }
    documents += await insertAll(database, facility.org, records, schemas, ctx)
  }
  // before the mark: a failed step leaves the demo unmarked, so the next start tries again
  for (const step of AFTER_SEED.values()) await step(database, env, opts.logger)
  await database.db.query(
    `INSERT INTO canopy_meta (key, value) VALUES ('demo_seed', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [{ version: SEED_VERSION, now: now.toISOString() }],
  )
  return { seeded: true, ms: Date.now() - started, documents }
}
