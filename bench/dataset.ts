/**
 * The benchmark data set: a plants collection registered through the schema registry (so its
 * indexes are exactly the ones the app creates from a schema), filled with one set-based
 * INSERT … SELECT FROM generate_series per batch, spread over 10 organisations; plus the strains
 * collection the plants reference (`strain_ref`, shown by the strain's name), 30 per organisation.
 *
 * Loaded data is reused across runs: a small `bench_meta` table records what was loaded
 * (generator version, document count, share of the measured organisation) and a hash of the
 * index DDL. Same data + same DDL = reuse as is; same data + changed DDL = indexes rebuilt;
 * anything else (or --reload) = reloaded.
 */
import { createHash } from 'node:crypto'
import type { Database } from '../app/db/index.server'
import { collectionDdl } from '../app/db/sql'
import type { TableSchema } from '../app/schemas/table-schema'

/** Bump when the generator below changes shape, so cached data is reloaded. */
export const GENERATOR_VERSION = 'plants-v2'

export const COLLECTION = 'bench_plants'
export const TABLE = `c_${COLLECTION}`
/** the collection plants reference (`strain_ref`): one record per strain name per organisation */
export const STRAINS_COLLECTION = 'bench_strains'
export const STRAINS_TABLE = `c_${STRAINS_COLLECTION}`
export const MEASURED_ORG = 'org0'
export const ORGS = 10

export const STRAINS = [
  // 6 of 30 contain "kush": a search for "kush" matches ~20 % of plants
  'OG Kush', 'Bubba Kush', 'Purple Kush', 'Master Kush', 'Hindu Kush', 'Kosher Kush',
  'Blue Dream', 'Sour Diesel', 'Girl Scout Cookies', 'Gelato', 'Wedding Cake', 'Gorilla Glue #4',
  'Northern Lights', 'Jack Herer', 'Green Crack', 'Granddaddy Purple', 'Pineapple Express', 'White Widow',
  'Durban Poison', 'AK-47', 'Trainwreck', 'Super Lemon Haze', 'Strawberry Cough', 'Cherry Pie',
  'Zkittlez', 'Runtz', 'Do-Si-Dos', 'Mimosa', 'Ice Cream Cake', 'Tangie',
]
export const ROOMS = ['Mother Room', 'Clone Room', 'Veg Room 1', 'Veg Room 2', 'Flower Room 1', 'Flower Room 2', 'Flower Room 3', 'Flower Room 4']
export const PHASES = ['Clone', 'Vegetative', 'Flowering', 'Harvested', 'Destroyed']

/**
 * A realistic plants table: tag (searchable + sortable), strain (searchable), strain_ref (the id of
 * a bench_strains record, shown and sorted by that record's name), planted (date field), weight, count.
 */
export const PLANTS_SCHEMA = {
  key: COLLECTION,
  label: 'Plants (benchmark)',
  items: [
    { key: 'tag', label: 'Plant tag', filter: true, sortable: true },
    { key: 'strain', label: 'Strain', filter: true },
    { key: 'strain_ref', label: 'Strain', type: 'list', format: `id:${STRAINS_COLLECTION}:name`, en: { table: STRAINS_COLLECTION, labelField: 'name' }, filter: true },
    // searchable (the table scenario searches rooms for "flower": 4 of 8 rooms)
    { key: 'room', label: 'Room', type: 'list', en: { list: ROOMS }, filter: true },
    { key: 'phase', label: 'Phase', type: 'list', en: { list: PHASES } },
    { key: 'planted', label: 'Planted', type: 'date' },
    { key: 'weight', label: 'Wet weight', type: 'measure', units: ['g', 'kg', 'oz', 'lb'] },
    { key: 'count', label: 'Plant count', type: 'number', sortable: true },
    { key: 'notes', label: 'Notes', type: 'textarea' },
  ],
  dateField: 'planted',
  defaultSort: { key: 'tag', dir: 'asc' },
}

export const STRAIN_TYPES = ['Indica', 'Sativa', 'Hybrid']

/** The referenced table: a strain per name per organisation, labelled by `name`. */
export const STRAINS_SCHEMA = {
  key: STRAINS_COLLECTION,
  label: 'Strains (benchmark)',
  items: [
    { key: 'name', label: 'Strain', filter: true, sortable: true },
    { key: 'type', label: 'Type', type: 'list', en: { list: STRAIN_TYPES } },
  ],
  defaultSort: { key: 'name', dir: 'asc' },
}

/** Every organisation of the data set: the measured one, then org1 … org9. */
export const ORG_NAMES = [MEASURED_ORG, ...Array.from({ length: ORGS - 1 }, (_, i) => `org${i + 1}`)]

/** 1 plant in this many has no strain record (its label is null and it sorts last). */
export const NO_STRAIN_REF_ONE_IN = 50

export interface DatasetSpec {
  /** documents in the collection, all organisations */
  docs: number
  /** fraction of them belonging to MEASURED_ORG (the rest spread over 9 others) */
  share: number
}

export interface LoadedDataset {
  schema: TableSchema
  orgDocs: number
  /** 'reused' | 'reindexed' | 'loaded' */
  action: string
}

/** A deterministic value in [0, m) for row g and stream k (hashint4extended is a PostgreSQL built-in). */
const h = (k: number, m: number) => `(((hashint4extended(g, ${k}) % ${m}) + ${m}) % ${m})`
const arr = (xs: string[]) => `ARRAY[${xs.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')}]`

/** The id of strain number `i` (0-based index into STRAINS) of organisation `org`, as SQL (deterministic). */
const strainIdSql = (org: string, i: string) => `('st' || substr(md5(${org} || ':strain:' || ${i}), 1, 14))`

/**
 * One batch of documents g in [$1, $2]. Rows of all organisations are interleaved (an
 * organisation's rows are spread over every heap page, the realistic unclustered case); tag
 * order is unrelated to insertion order; `planted` spans 2024-2025; 10 % are inactive (IsUsed = 'no');
 * `strain_ref` is the id of the organisation's record for the same strain (1 in 50 has none).
 */
function insertSql(share: number): string {
  const measured = Math.round(share * 10000)
  return `
INSERT INTO ${TABLE} (org, id, doc, cts, ts)
SELECT r.org, r.id, r.doc, r.cts, r.cts FROM (
  SELECT
    o.org,
    lpad(to_hex(extract(epoch FROM p.planted)::bigint), 8, '0') || substr(md5('id' || g), 1, 16) AS id,
    (p.planted AT TIME ZONE 'UTC') + interval '1 hour' AS cts,
    jsonb_build_object(
      'tag', '1A4' || upper(substr(md5('tag' || g), 1, 12)) || lpad(g::text, 9, '0'),
      'strain', (${arr(STRAINS)})[1 + s.i],
      'strain_ref', CASE WHEN ${h(14, NO_STRAIN_REF_ONE_IN)} = 0 THEN NULL ELSE ${strainIdSql('o.org', 's.i')} END,
      'room', (${arr(ROOMS)})[1 + ${h(5, ROOMS.length)}],
      'phase', (${arr(PHASES)})[1 + ${h(6, PHASES.length)}],
      'planted', to_char(p.planted, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'weight', jsonb_build_object('qty', round(${h(7, 500000)} / 100.0, 2), 'unit', (ARRAY['g', 'g', 'g', 'kg', 'oz', 'lb'])[1 + ${h(8, 6)}]),
      'count', 1 + ${h(9, 48)},
      'notes', 'Batch B-' || (1000 + ${h(10, 9000)}) || ', mother M-' || (100 + ${h(11, 900)}) || ', moved by operator ' || (1 + ${h(12, 40)}),
      'IsUsed', CASE WHEN ${h(13, 10)} = 0 THEN 'no' ELSE 'yes' END,
      'octs', to_char(p.planted + interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    ) AS doc
  FROM generate_series($1::int, $2::int) AS g
  CROSS JOIN LATERAL (SELECT timestamp '2024-01-01' + make_interval(mins => ${h(3, 2 * 365 * 24 * 60)}::int) AS planted) p
  CROSS JOIN LATERAL (SELECT CASE WHEN ${h(1, 10000)} < ${measured} THEN '${MEASURED_ORG}' ELSE 'org' || (1 + ${h(2, ORGS - 1)}) END AS org) o
  CROSS JOIN LATERAL (SELECT ${h(4, STRAINS.length)}::int AS i) s
) r`
}

/** The strains of every organisation, one set-based statement (ORGS x STRAINS rows). */
const STRAINS_INSERT = `
INSERT INTO ${STRAINS_TABLE} (org, id, doc, cts, ts)
SELECT o.org, ${strainIdSql('o.org', 'i')}, jsonb_build_object(
    'name', (${arr(STRAINS)})[1 + i],
    'type', (${arr(STRAIN_TYPES)})[1 + i % ${STRAIN_TYPES.length}],
    'IsUsed', 'yes',
    'octs', '2023-06-01T00:00:00.000Z'),
  timestamptz '2023-06-01 00:00:00+00', timestamptz '2023-06-01 00:00:00+00'
FROM unnest(${arr(ORG_NAMES)}::text[]) AS o(org)
CROSS JOIN generate_series(0, ${STRAINS.length - 1}) AS i`

/** The app's DDL for the collection, as SchemaRegistry.ensureCollection builds it (same pg_trgm schema lookup). */
async function appDdl(db: Database['db'], schema: TableSchema): Promise<string[]> {
  const trgm = (await db.query<{ s: string }>(`SELECT extnamespace::regnamespace::text AS s FROM pg_extension WHERE extname = 'pg_trgm'`)).rows[0]?.s ?? 'public'
  return collectionDdl(COLLECTION, schema, trgm)
}

const hashOf = (ddl: string[]) => createHash('sha1').update(ddl.join(';\n')).digest('hex').slice(0, 12)

type Meta = { gen: string; docs: number; share: number; orgDocs: number; ddl: string }

/** Registers the schema and makes sure the collection holds the requested data set. */
export async function prepareDataset(
  database: Database,
  spec: DatasetSpec,
  opts: { reload: boolean; log: (m: string) => void; label: string },
): Promise<LoadedDataset> {
  const { db } = database
  const log = (m: string) => opts.log(`${opts.label}: ${m}`)
  // creates the tables and the indexes that follow from the schemas (idempotent)
  await database.schemas.put({ uid: 'bench' }, STRAINS_SCHEMA)
  const schema = await database.schemas.put({ uid: 'bench' }, PLANTS_SCHEMA)
  await db.query('CREATE TABLE IF NOT EXISTS bench_meta (k text PRIMARY KEY, v jsonb NOT NULL)')
  const prev = (await db.query<{ v: Meta }>('SELECT v FROM bench_meta WHERE k = $1', [COLLECTION])).rows[0]?.v
  const ddl = await appDdl(db, schema)
  const hash = hashOf(ddl)
  const same = !!prev && prev.gen === GENERATOR_VERSION && prev.docs === spec.docs && prev.share === spec.share
  if (same && !opts.reload) {
    const n = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${TABLE}`)).rows[0].n
    const strains = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${STRAINS_TABLE}`)).rows[0].n
    if (n === spec.docs && strains === ORGS * STRAINS.length) {
      if (prev.ddl === hash) {
        log(`reusing ${n.toLocaleString('en-US')} loaded documents (--reload to load again)`)
        return { schema, orgDocs: prev.orgDocs, action: 'reused' }
      }
      log('index DDL changed since the data was loaded: rebuilding indexes')
      await db.transaction(async (tx) => {
        await sessionForBulk(tx, db.kind)
        await rebuildIndexes(tx, ddl, log)
      })
      await db.query(`VACUUM ANALYZE ${TABLE}`)
      await db.query('UPDATE bench_meta SET v = $2 WHERE k = $1', [COLLECTION, { ...prev, ddl: hash }])
      return { schema, orgDocs: prev.orgDocs, action: 'reindexed' }
    }
  }

  const t0 = Date.now()
  log(`loading ${spec.docs.toLocaleString('en-US')} documents (${Math.round(spec.share * 100)} % in ${MEASURED_ORG})`)
  await db.transaction(async (tx) => {
    await sessionForBulk(tx, db.kind)
    await tx.query(`TRUNCATE ${TABLE}`)
    await tx.query(`TRUNCATE ${STRAINS_TABLE}`)
    await tx.query(STRAINS_INSERT)
    // secondary indexes are dropped during the load and rebuilt from the schema afterwards
    for (const name of await secondaryIndexes(tx)) await tx.query(`DROP INDEX ${name}`)
    const sql = insertSql(spec.share)
    const batch = 100_000
    for (let from = 1; from <= spec.docs; from += batch) {
      const to = Math.min(spec.docs, from + batch - 1)
      await tx.query(sql, [from, to])
      log(`  inserted ${to.toLocaleString('en-US')} / ${spec.docs.toLocaleString('en-US')} (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
    }
    await rebuildIndexes(tx, ddl, log)
  })
  log('  VACUUM ANALYZE')
  await db.query(`VACUUM ANALYZE ${TABLE}`)
  await db.query(`VACUUM ANALYZE ${STRAINS_TABLE}`)
  const orgDocs = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${TABLE} WHERE org = $1`, [MEASURED_ORG])).rows[0].n
  const meta: Meta = { gen: GENERATOR_VERSION, docs: spec.docs, share: spec.share, orgDocs, ddl: hash }
  await db.query('INSERT INTO bench_meta (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v', [COLLECTION, meta])
  log(`  loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s (${orgDocs.toLocaleString('en-US')} in ${MEASURED_ORG})`)
  return { schema, orgDocs, action: 'loaded' }
}

type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0]

async function sessionForBulk(tx: Tx, kind: 'pg' | 'pglite') {
  await tx.query('SET LOCAL statement_timeout = 0')
  await tx.query(`SET LOCAL maintenance_work_mem = '${kind === 'pg' ? '512MB' : '128MB'}'`)
}

/** All indexes of the table except the primary key. */
async function secondaryIndexes(tx: Tx): Promise<string[]> {
  const r = await tx.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = $1::regclass AND NOT i.indisprimary ORDER BY 1`,
    [TABLE],
  )
  return r.rows.map((x) => x.name)
}

/** Drops the secondary indexes and runs the schema's DDL (the app's own CREATE INDEX statements). */
async function rebuildIndexes(tx: Tx, ddl: string[], log: (m: string) => void) {
  for (const name of await secondaryIndexes(tx)) await tx.query(`DROP INDEX ${name}`)
  for (const stmt of ddl) {
    const t = Date.now()
    await tx.query(stmt)
    const m = /INDEX IF NOT EXISTS (\S+)/.exec(stmt)
    if (m) log(`  index ${m[1]} (${((Date.now() - t) / 1000).toFixed(1)} s)`)
  }
}
