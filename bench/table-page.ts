/**
 * Scenario "table" (issue 5): the generic table screen on the benchmark collection.
 *
 * - loader rows: `tablePage` (the table screen loader's work: view from the URL, PageQuery with the
 *   reference column, Store.page, row formatting) called in-process, for page 1 and page 500
 *   (size 20, offset 9,980), sorted on the referenced column `strain_ref` (by the referenced
 *   strain's name) and on the date `planted`, with a search;
 * - response rows: the whole document response of the real Remix server build (build/index.js)
 *   for the same view, rendered in-process through `createRequestHandler` with a signed-in
 *   session (root loader, route guard, screen loader, React render, last byte read);
 * - hand: the same rows, total and labels from hand-written SQL (literal strings below): the rows and
 *   a count capped at COUNT_CAP + 1 run concurrently through the same driver, as `db.parallel` does;
 *   past the cap the total is the planner's estimate (EXPLAIN), as the screen shows it.
 *
 * The Remix route map only knows real routes, so `/culPlants` (collection `fac_plants`) is pointed
 * at the benchmark data: in the benchmark database `c_fac_plants` is a view of `c_bench_plants`
 * (PostgreSQL inlines it, so the plans are the same; the notes check that), registered under the
 * bench plants schema. Nothing of this touches a real install: it lives in the benchmark database.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AppLoadContext, ServerBuild } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '../app/auth/entitlements'
import { COOKIE, createSession, endSession } from '../app/auth/session.server'
import { loadEnv, type Env } from '../app/config/env.server'
import type { PageQuery } from '../app/db/types'
import { PLATFORM_ORG, type RouteEntry } from '../app/route-map'
import { normalizeSchema } from '../app/schemas/table-schema'
import { COUNT_CAP, cursorToken, readView, tablePage } from '../app/screens/table-page.server'
import { ensurePlatform } from '../app/seed/index.server'
import { EventHub } from '../app/events/event-hub.server'
import { readsFor } from '../app/utils/request-memo'
import { COLLECTION, PLANTS_SCHEMA, TABLE } from './dataset'
import {
  comparePair,
  explainAnalyze,
  explainJson,
  explainSummary,
  planSummary,
  seqScansOf,
  type BenchContext,
  type BenchRow,
  type Engine,
  type Scenario,
  type Stats,
} from './lib'

const SIZE = 20
const RATIO_TARGET = 1.3
const PG_RESPONSE_P95_MS = 80
const BUILD = path.resolve('build/index.js')
/** seconds after which a row of this scenario stops timing (or --row-budget, if lower): its rows are slow on purpose */
const ROW_BUDGET_SEC = 30

/** the real route the whole-response rows request, and the collection it shows */
const SCREEN_PATH = '/culPlants'
const SCREEN_COLLECTION = 'fac_plants'
/** the loader rows call tablePage with a route of the benchmark collection itself */
const BENCH_ROUTE: RouteEntry = { path: '/BenchPlants', title: 'Plants', module: 'cul', kind: 'table', collection: COLLECTION }

const BENCH_UID = 'bench-table-admin'
const ACTOR = { uid: 'bench', requestId: 'bench-table' }

// ---- hand-written SQL (deliberately literal: this is the baseline, not generated) ----
// $1 organisation, $2 search pattern, $3 limit, $4 offset

/**
 * rows: sorted by the referenced strain's name, ties by id: the strains in name order, each one's
 * plants through the reference index (the best plan we know; a join of every match and a sort took
 * 216 ms p50 at page 1 here, decision 008). Every plant of these views has a strain with a name, so
 * the plants without one (they come last) are never reached.
 */
const HAND_REF_SORT = `SELECT t.id, t.doc, t.cts, t.ts, s.label AS strain_label
  FROM (SELECT id AS rid, doc->>'name' AS label FROM c_bench_strains
         WHERE org = $1 AND doc->>'name' IS NOT NULL) s
  CROSS JOIN LATERAL (SELECT id, doc, cts, ts FROM c_bench_plants
         WHERE org = $1 AND doc->>'strain_ref' = s.rid
           AND doc->>'IsUsed' IS DISTINCT FROM 'no'
           AND doc->>'room' ILIKE $2) t
 ORDER BY lower(s.label) COLLATE "C", t.id
 LIMIT $3 OFFSET $4`

/** the same, after a row ($5 its lower-cased strain name, $6 its id): the Next link of the page before */
const HAND_REF_SORT_AFTER = `SELECT t.id, t.doc, t.cts, t.ts, s.label AS strain_label
  FROM (SELECT id AS rid, doc->>'name' AS label FROM c_bench_strains
         WHERE org = $1 AND doc->>'name' IS NOT NULL AND lower(doc->>'name') COLLATE "C" >= $5) s
  CROSS JOIN LATERAL (SELECT id, doc, cts, ts FROM c_bench_plants
         WHERE org = $1 AND doc->>'strain_ref' = s.rid
           AND doc->>'IsUsed' IS DISTINCT FROM 'no'
           AND doc->>'room' ILIKE $2) t
 WHERE (lower(s.label) COLLATE "C", t.id) > ($5, $6)
 ORDER BY lower(s.label) COLLATE "C", t.id
 LIMIT $3 OFFSET $4`

/** rows: newest planted first (the date index), labels looked up for the page's 20 rows only */
const HAND_DATE_SORT = `SELECT p.id, p.doc, p.cts, p.ts,
       (SELECT s.doc->>'name' FROM c_bench_strains s WHERE s.org = $1 AND s.id = p.doc->>'strain_ref') AS strain_label
  FROM (SELECT id, doc, cts, ts FROM c_bench_plants
         WHERE org = $1
           AND doc->>'IsUsed' IS DISTINCT FROM 'no'
           AND doc->>'room' ILIKE $2
         ORDER BY (doc->>'planted') COLLATE "C" DESC, id DESC
         LIMIT $3 OFFSET $4) p
 ORDER BY (p.doc->>'planted') COLLATE "C" DESC, p.id DESC`

/** the same, after a row ($5 its planted date, $6 its id): the Next link of the page before */
const HAND_DATE_SORT_AFTER = `SELECT p.id, p.doc, p.cts, p.ts,
       (SELECT s.doc->>'name' FROM c_bench_strains s WHERE s.org = $1 AND s.id = p.doc->>'strain_ref') AS strain_label
  FROM (SELECT id, doc, cts, ts FROM c_bench_plants
         WHERE org = $1
           AND doc->>'IsUsed' IS DISTINCT FROM 'no'
           AND doc->>'room' ILIKE $2
           AND ((doc->>'planted') COLLATE "C", id) < ($5, $6)
         ORDER BY (doc->>'planted') COLLATE "C" DESC, id DESC
         LIMIT $3 OFFSET $4) p
 ORDER BY (p.doc->>'planted') COLLATE "C" DESC, p.id DESC`

/** the matching rows, for the counts ($1 organisation, $2 search pattern) */
const HAND_MATCH = `FROM c_bench_plants
 WHERE org = $1
   AND doc->>'IsUsed' IS DISTINCT FROM 'no'
   AND doc->>'room' ILIKE $2`

/** the search on the referenced column: the strains whose name matches, in name order, each one's plants */
const HAND_REF_SORT_REF_SEARCH = `SELECT t.id, t.doc, t.cts, t.ts, s.label AS strain_label
  FROM (SELECT id AS rid, doc->>'name' AS label FROM c_bench_strains
         WHERE org = $1 AND doc->>'name' IS NOT NULL AND doc->>'name' ILIKE $2) s
  CROSS JOIN LATERAL (SELECT id, doc, cts, ts FROM c_bench_plants
         WHERE org = $1 AND doc->>'strain_ref' = s.rid
           AND doc->>'IsUsed' IS DISTINCT FROM 'no') t
 ORDER BY lower(s.label) COLLATE "C", t.id
 LIMIT $3 OFFSET $4`

const HAND_DATE_SORT_REF_SEARCH = `SELECT t.id, t.doc, t.cts, t.ts, s.doc->>'name' AS strain_label
  FROM c_bench_plants t
  JOIN c_bench_strains s ON s.org = t.org AND s.id = t.doc->>'strain_ref'
 WHERE t.org = $1
   AND t.doc->>'IsUsed' IS DISTINCT FROM 'no'
   AND s.doc->>'name' ILIKE $2
 ORDER BY (t.doc->>'planted') COLLATE "C" DESC, t.id DESC
 LIMIT $3 OFFSET $4`

const HAND_MATCH_REF_SEARCH = `FROM c_bench_plants t
  JOIN c_bench_strains s ON s.org = t.org AND s.id = t.doc->>'strain_ref'
 WHERE t.org = $1
   AND t.doc->>'IsUsed' IS DISTINCT FROM 'no'
   AND s.doc->>'name' ILIKE $2`

/**
 * The total the screen shows (decision 004/007, `COUNT_CAP` in app/screens/table-page.server.ts):
 * matches counted exactly up to the cap; past it the planner's estimate. By hand: the capped count
 * beside the rows, then, when it overflows, EXPLAIN of the same match.
 */
const handCapped = (match: string) => `SELECT count(*)::int AS n FROM (SELECT 1 ${match} LIMIT ${COUNT_CAP + 1}) capped`
const handEstimate = (match: string) => `EXPLAIN (FORMAT JSON) SELECT 1 ${match}`
/** the exact number of matches (notes and the page-500 check only, never timed) */
const handExact = (match: string) => `SELECT count(*)::int AS n ${match}`

/**
 * The text search: room contains "flower" (4 of 8 rooms, ~50 % of plants; room is a searchable
 * column, so it has the app's trigram index). A search on the strain text matches at most 6 of 30
 * strains (20 %), which leaves fewer than the 9,981 rows page 500 needs in PGlite's 40 K-document
 * organisation; the room search reaches page 500 on both engines.
 */
const TEXT_SEARCH = { col: 'room', q: 'flower' }
/** the search on the referenced column (its label): strain name contains "kush" (6 of 30, ~20 %) */
const REF_SEARCH = { col: 'strain_ref', q: 'kush' }

interface Case {
  /** short name in the table */
  name: string
  sort: { key: string; dir: 'asc' | 'desc' }
  search: { col: string; q: string }
  page: number
  handRows: string
  /** FROM … WHERE of the matching rows, for the counts */
  handMatch: string
  /** also measure the whole response through the Remix build */
  response: boolean
  /** reached with Next: the URL carries the position of the row before the page (decision 008); hand SQL takes it as $5, $6 */
  next?: boolean
}

const REF = { key: 'strain_ref', dir: 'asc' } as const
const DATE = { key: 'planted', dir: 'desc' } as const

const CASES: Case[] = [
  { name: 'ref sort, p1', sort: REF, search: TEXT_SEARCH, page: 1, handRows: HAND_REF_SORT, handMatch: HAND_MATCH, response: true },
  { name: 'ref sort, p500', sort: REF, search: TEXT_SEARCH, page: 500, handRows: HAND_REF_SORT, handMatch: HAND_MATCH, response: true },
  { name: 'date sort, p1', sort: DATE, search: TEXT_SEARCH, page: 1, handRows: HAND_DATE_SORT, handMatch: HAND_MATCH, response: true },
  { name: 'date sort, p500', sort: DATE, search: TEXT_SEARCH, page: 500, handRows: HAND_DATE_SORT, handMatch: HAND_MATCH, response: true },
  { name: 'ref sort, p500 by Next', sort: REF, search: TEXT_SEARCH, page: 500, handRows: HAND_REF_SORT_AFTER, handMatch: HAND_MATCH, response: true, next: true },
  { name: 'date sort, p500 by Next', sort: DATE, search: TEXT_SEARCH, page: 500, handRows: HAND_DATE_SORT_AFTER, handMatch: HAND_MATCH, response: true, next: true },
  { name: 'ref sort, ref search, p1', sort: REF, search: REF_SEARCH, page: 1, handRows: HAND_REF_SORT_REF_SEARCH, handMatch: HAND_MATCH_REF_SEARCH, response: false },
  { name: 'ref sort, ref search, p500', sort: REF, search: REF_SEARCH, page: 500, handRows: HAND_REF_SORT_REF_SEARCH, handMatch: HAND_MATCH_REF_SEARCH, response: false },
  { name: 'date sort, ref search, p1', sort: DATE, search: REF_SEARCH, page: 1, handRows: HAND_DATE_SORT_REF_SEARCH, handMatch: HAND_MATCH_REF_SEARCH, response: false },
  { name: 'date sort, ref search, p500', sort: DATE, search: REF_SEARCH, page: 500, handRows: HAND_DATE_SORT_REF_SEARCH, handMatch: HAND_MATCH_REF_SEARCH, response: false },
]

const searchOf = (c: Case, after?: string) => {
  const p = new URLSearchParams({ sort: c.sort.key, dir: c.sort.dir, col: c.search.col, q: c.search.q })
  if (c.page !== 1) p.set('page', String(c.page))
  if (after) p.set('after', after)
  return `?${p}`
}

type HandRow = { id: string; strain_label: string | null }

/** What the screen needs in the benchmark database: the platform, /culPlants on the bench data, a user, a session. */
export interface ScreenSetup {
  env: Env
  events: EventHub
  user: SessionUser
  sessionId: string
  dataDir: string
}

/**
 * Platform collections (users, org, preferences, …: what the route guard and the root loader
 * read), `fac_plants` as a view of the benchmark plants under the bench plants schema, the
 * measured organisation as a facility, an admin entitled to it, and a finished sign-in.
 */
export async function prepareScreen(engine: Engine, log: (m: string) => void): Promise<ScreenSetup> {
  const { database } = engine
  const { db, store, schemas } = database
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-table-'))
  const env = loadEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'warn' })
  const view = `c_${SCREEN_COLLECTION}`
  // the view first, so the platform seed finds fac_plants registered and keeps it
  const rel = (await db.query<{ kind: string }>(`SELECT c.relkind::text AS kind FROM pg_class c WHERE c.oid = to_regclass($1)`, [view])).rows[0]?.kind
  if (rel === 'r') await db.query(`DROP TABLE ${view}`) // made by an earlier platform seed in this benchmark database
  if (rel !== 'v') await db.query(`CREATE VIEW ${view} AS SELECT org, id, doc, cts, ts FROM ${TABLE}`)
  await db.query('INSERT INTO canopy_collections (name, table_name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [SCREEN_COLLECTION, view])
  const schema = normalizeSchema({ ...PLANTS_SCHEMA, key: SCREEN_COLLECTION, label: 'Plants' })
  await store.upsert(ACTOR, PLATFORM_ORG, 'schemas', SCREEN_COLLECTION, schema as unknown as Record<string, unknown>)
  schemas.invalidate(SCREEN_COLLECTION)
  const t = Date.now()
  await ensurePlatform(database, env)
  log(`table: platform collections ready (${((Date.now() - t) / 1000).toFixed(1)} s)`)
  await store.upsert(ACTOR, PLATFORM_ORG, 'org', engine.org, { fullName: `Benchmark ${engine.org}`, timezone: 'UTC', IsUsed: 'yes' })
  const user = { uid: BENCH_UID, email: 'bench-table@canopy.test', role: 'admin', org: engine.org, web: 'yes', props: { facilities: [engine.org], modules: { [engine.org]: null } } }
  await store.upsert(ACTOR, PLATFORM_ORG, 'users', BENCH_UID, user)
  const sessionId = await createSession(database, { uid: BENCH_UID, step: 'done', facility: engine.org })
  return { env, events: new EventHub(), user: user as SessionUser, sessionId, dataDir }
}

export async function closeScreen(engine: Engine, s: ScreenSetup) {
  await endSession(engine.database, s.sessionId, 'logout').catch(() => {})
  s.events.closeAll()
  fs.rmSync(s.dataDir, { recursive: true, force: true })
}

/** The load context server.ts gives Remix (app/server/http.server.ts), one per request. */
function loadContext(engine: Engine, s: ScreenSetup, logger: pino.Logger): AppLoadContext {
  return { env: s.env, database: engine.database, events: s.events, logger, requestId: 'bench', clientIp: '127.0.0.1', reads: readsFor('GET') }
}

const p50 = (x: Stats) => x.p50.toFixed(2)

async function runCase(
  ctx: BenchContext,
  engine: Engine,
  c: Case,
  s: ScreenSetup,
  handler: ((r: Request, l: AppLoadContext) => Promise<Response>) | null,
  logger: pino.Logger,
): Promise<BenchRow[]> {
  const { db, store } = engine.database
  const org = engine.org
  const offset = (c.page - 1) * SIZE
  const pattern = `%${c.search.q}%`
  // a page reached with Next continues after the last row of the page before (not timed: the page before made it)
  const before = c.next ? (await store.page(org, COLLECTION, { ...(await readView(loadContext(engine, s, logger), BENCH_ROUTE, org, new URL(`http://canopy.bench${BENCH_ROUTE.path}${searchOf(c)}`))).pageQuery, offset: offset - 1, limit: 1 })).last : undefined
  const search = searchOf(c, before ? cursorToken(before, c.sort) : undefined)
  const url = new URL(`http://canopy.bench${BENCH_ROUTE.path}${search}`)
  const handParams = before ? [org, pattern, SIZE, 0, before.v, before.id] : [org, pattern, SIZE, offset]
  const countParams = [org, pattern]
  const label = `table loader: ${c.name}`
  const iterations = ctx.secondaryIterations
  const warmup = Math.min(ctx.warmup, 3)
  const budgetSec = Math.min(ctx.rowBudgetSec, ROW_BUDGET_SEC)
  const ctxFor = () => loadContext(engine, s, logger)

  const cappedSql = handCapped(c.handMatch)
  const estimateSql = handEstimate(c.handMatch)
  // rows and the capped count side by side; past the cap, the planner's estimate (as the screen does)
  const hand = async () => {
    const [rows, capped] = await Promise.all([db.query<HandRow>(c.handRows, handParams), db.query<{ n: number }>(cappedSql, countParams)])
    const n = capped.rows[0].n
    if (n <= COUNT_CAP) return { rows: rows.rows, total: n, exact: true }
    const plan = await db.query<Record<string, unknown>>(estimateSql, countParams)
    const raw = Object.values(plan.rows[0])[0]
    const est = Math.round((typeof raw === 'string' ? JSON.parse(raw) : (raw as Array<{ Plan: { 'Plan Rows': number } }>))[0].Plan['Plan Rows'])
    return { rows: rows.rows, total: Math.max(n, est, (before ? 0 : offset) + rows.rows.length), exact: false }
  }
  const loader = () => tablePage(ctxFor(), s.user, BENCH_ROUTE, org, url)

  const total = (await db.query<{ n: number }>(handExact(c.handMatch), countParams)).rows[0].n
  const skipped = (what: string): BenchRow => ({
    scenario: what,
    engine: engine.name,
    docs: engine.docs,
    store: { p50: NaN, p95: NaN, n: 0 },
    hand: { p50: NaN, p95: NaN, n: 0 },
    target: '-',
    met: null,
    notes: [`skipped: ${c.search.col} contains "${c.search.q}" matches ${total.toLocaleString('en-US')} active ${org} documents; page ${c.page} needs ${(offset + 1).toLocaleString('en-US')}`],
  })
  if (total <= offset) return [skipped(label), ...(c.response ? [skipped(`table response: ${c.name}`)] : [])]
  const [h0, data] = await Promise.all([hand(), loader()])
  const hr = h0.rows

  const notes: string[] = []
  notes.push(`view ${search}: ${c.search.col} contains "${c.search.q}" matches ${total.toLocaleString('en-US')} of ${engine.orgDocs.toLocaleString('en-US')} ${org} documents (active only, exact count, not timed); page ${c.page} = ${before ? `after row ${offset.toLocaleString('en-US')} (a Next link)` : `offset ${offset.toLocaleString('en-US')}`}`)
  const sameIds = data.rows.length === hr.length && data.rows.every((r, i) => r.id === hr[i].id)
  const sameLabels = data.rows.every((r, i) => (r.labels.strain_ref ?? null) === (hr[i]?.strain_label ?? null))
  const shown = (x: { total: number; exact: boolean }) => (x.exact ? x.total.toLocaleString('en-US') : `"more than ${COUNT_CAP.toLocaleString('en-US')}" (planner estimate ${x.total.toLocaleString('en-US')})`)
  if (!sameIds || data.total !== h0.total || data.exact !== h0.exact || data.page !== c.page) {
    notes.push(`MISMATCH: loader returned ${data.rows.length} rows / total ${shown(data)} / page ${data.page}, hand ${hr.length} rows / total ${shown(h0)}`)
  } else if (!sameLabels) notes.push('MISMATCH: same rows, but the strain labels differ')
  else notes.push(`same ${data.rows.length} ids in the same order, same labels (first ${JSON.stringify(data.rows[0]?.labels.strain_ref ?? null)}, last ${JSON.stringify(data.rows.at(-1)?.labels.strain_ref ?? null)}) and the same total shown, ${shown(data)}, from both sides`)

  // the SQL the loader runs (from the store itself, for the PageQuery the loader built)
  const view = await readView(ctxFor(), BENCH_ROUTE, org, url)
  const q: PageQuery = { ...view.pageQuery, ...(before ? { offset: 0, after: before } : { offset }), limit: SIZE, countCap: COUNT_CAP }
  const sql = await store.pageSql(view.org, COLLECTION, q)
  const rowsJson = await explainJson(engine, sql.rowsSql, sql.params)
  const countJson = await explainJson(engine, sql.countSql, sql.countParams)
  const rowsPlan = planSummary(rowsJson)
  const countPlan = planSummary(countJson)
  const handRowsPlan = planSummary(await explainJson(engine, c.handRows, handParams))
  const handCountPlan = planSummary(await explainJson(engine, cappedSql, countParams))
  notes.push(`store rows plan:  ${rowsPlan.nodes.join(' > ')}`)
  notes.push(`store count plan: ${countPlan.nodes.join(' > ')}`)
  if (rowsPlan.nodes.join() !== handRowsPlan.nodes.join()) notes.push(`hand rows plan:   ${handRowsPlan.nodes.join(' > ')}`)
  if (countPlan.nodes.join() !== handCountPlan.nodes.join()) notes.push(`hand count plan:  ${handCountPlan.nodes.join(' > ')}`)
  const seq = [seqScansOf(rowsJson, TABLE), seqScansOf(countJson, TABLE)]
  if (seq.some((x) => x.unbounded)) notes.push(`INDEX MISSED: a sequential scan of ${TABLE}`)
  else if (seq.some((x) => x.bounded)) notes.push(`(the sequential scan of ${TABLE} is under a LIMIT: it stops after ${COUNT_CAP + 1} matches)`)
  if (ctx.explain) {
    ctx.log(`--- ${label} / ${engine.name}: EXPLAIN ANALYZE of the store's rows SQL\n${sql.rowsSql}\n${await explainAnalyze(engine, sql.rowsSql, sql.params)}`)
    ctx.log(`--- ${label} / ${engine.name}: EXPLAIN ANALYZE of the store's count SQL\n${sql.countSql}\n${await explainAnalyze(engine, sql.countSql, sql.countParams)}`)
    ctx.log(`--- ${label} / ${engine.name}: EXPLAIN ANALYZE of the hand rows SQL\n${c.handRows}\n${await explainAnalyze(engine, c.handRows, handParams)}`)
    ctx.log(`--- ${label} / ${engine.name}: EXPLAIN ANALYZE of the hand count SQL\n${cappedSql}\n${await explainAnalyze(engine, cappedSql, countParams)}`)
  }

  ctx.log(`table: ${c.name} loader on ${engine.name} (${warmup} warm-up + ${iterations} timed, each side)`)
  const r = await comparePair(loader, hand, { iterations, warmup, budgetSec })
  // where the time goes: each statement alone (a few runs, p50)
  const split = await comparePair(
    () => db.query(sql.rowsSql, sql.params),
    () => db.query(sql.countSql, sql.countParams),
    { iterations: 6, warmup: 1 },
  )
  const handSplit = await comparePair(
    () => db.query(c.handRows, handParams),
    () => db.query(cappedSql, countParams),
    { iterations: 6, warmup: 1 },
  )
  let estimate = ''
  if (!data.exact) {
    const e = await comparePair(() => db.query(sql.estimateSql, sql.countParams), () => db.query(estimateSql, countParams), { iterations: 6, warmup: 1 })
    estimate = `; then, past the cap, the estimate (EXPLAIN): store ${p50(e.a)} ms, hand ${p50(e.b)} ms`
  }
  notes.push(
    `statements alone, p50: store rows ${p50(split.a)} ms, capped count ${p50(split.b)} ms; hand rows ${p50(handSplit.a)} ms, capped count ${p50(handSplit.b)} ms${estimate} ` +
      `(${engine.name === 'pg' ? 'side by side in the loader and the hand side, competing for the cores' : 'PGlite runs them one after the other'}); ` +
      `loader - hand, same rounds, p50: ${(r.a.p50 - r.b.p50).toFixed(2)} ms (view, time zone, the label lookups, row formatting)`,
  )
  if (r.a.n < iterations) notes.push(`stopped after ${r.a.n} of ${iterations} iterations (row time budget ${budgetSec} s)`)
  const ratio = Math.max(r.a.p50 / r.b.p50, r.a.p95 / r.b.p95)
  const met = ratio <= RATIO_TARGET
  // a missed target says where the time goes, from EXPLAIN ANALYZE (one more run of each statement)
  const storeWhere = async () => [
    `EXPLAIN ANALYZE, store rows:  ${await explainSummary(engine, sql.rowsSql, sql.params)}`,
    `EXPLAIN ANALYZE, store count: ${await explainSummary(engine, sql.countSql, sql.countParams)}`,
  ]
  if (!met) {
    notes.push(...(await storeWhere()))
    notes.push(`EXPLAIN ANALYZE, hand rows:   ${await explainSummary(engine, c.handRows, handParams)}`)
    notes.push(`EXPLAIN ANALYZE, hand count:  ${await explainSummary(engine, cappedSql, countParams)}`)
  }
  const rows: BenchRow[] = [{ scenario: label, engine: engine.name, docs: engine.docs, store: r.a, hand: r.b, target: `<=${RATIO_TARGET}x`, met, notes }]
  if (!c.response) return rows

  // ---- the whole response: the Remix build, /culPlants on the same data ----
  const rlabel = `table response: ${c.name}`
  const absTarget = engine.name === 'pg' ? `p95<${PG_RESPONSE_P95_MS}ms` : '-'
  if (!handler) {
    rows.push({ scenario: rlabel, engine: engine.name, docs: engine.docs, store: { p50: NaN, p95: NaN, n: 0 }, hand: r.b, target: absTarget, met: null, notes: ['skipped: build/index.js is missing, run `npm run build` first'] })
    return rows
  }
  const rnotes: string[] = []
  const screenUrl = `http://canopy.bench${SCREEN_PATH}${search}`
  const headers = {
    cookie: `${COOKIE}=${s.sessionId}`,
    accept: 'text/html',
    'sec-fetch-dest': 'document',
    'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  }
  let bytes = 0
  const response = async () => {
    const res = await handler(new Request(screenUrl, { headers }), ctxFor())
    const body = await res.text()
    if (res.status !== 200) throw new Error(`${SCREEN_PATH}${search} answered ${res.status}: ${body.slice(0, 300)}`)
    bytes = body.length
    return body
  }
  const html = await response()
  // the document carries the rows it rendered and the loader data: same ids, in the same order, and the total
  const at = hr.map((x) => html.indexOf(x.id))
  const inOrder = at.every((p, i) => p >= 0 && (i === 0 || p > at[i - 1]))
  if (!inOrder || !html.includes(`"total":${h0.total}`)) rnotes.push(`MISMATCH: the document does not show the hand-written SQL's ${hr.length} ids in order with total ${h0.total}`)
  else rnotes.push(`the document shows the same ${hr.length} ids in the same order and the total ${shown(h0)}; ${(bytes / 1024).toFixed(1)} KB of HTML`)
  // /culPlants reads the view c_fac_plants: its plan must be the one measured on c_bench_plants
  const viewSql = await store.pageSql(org, SCREEN_COLLECTION, q)
  const viewPlan = planSummary(await explainJson(engine, viewSql.rowsSql, viewSql.params))
  if (viewPlan.nodes.join() !== rowsPlan.nodes.join()) rnotes.push(`PLAN DIFFERS through the view c_${SCREEN_COLLECTION}: ${viewPlan.nodes.join(' > ')}`)

  ctx.log(`table: ${c.name} whole response on ${engine.name} (${warmup} warm-up + ${iterations} timed, each side)`)
  const w = await comparePair(response, hand, { iterations, warmup, budgetSec })
  // the response in parts: Remix's data requests run one route's loader each (root: guard, session, menu; routes/$: the screen)
  const dataOf = (routeId: string) => async () => {
    const u = new URL(screenUrl)
    u.searchParams.set('_data', routeId)
    const res = await handler(new Request(u, { headers: { ...headers, accept: '*/*', 'sec-fetch-dest': 'empty' } }), ctxFor())
    await res.text()
    if (res.status !== 200) throw new Error(`${u.pathname}${u.search} answered ${res.status}`)
  }
  const parts = await comparePair(dataOf('root'), dataOf('routes/$'), { iterations: 6, warmup: 1 })
  rnotes.push(
    `parts, p50: Remix data requests alone: root loader (guard, session, user, menu, phrases) ${p50(parts.a)} ms, screen loader ${p50(parts.b)} ms` +
      `${engine.name === 'pg' ? ' (a document request runs the two side by side)' : ''}; loader alone ${p50(r.a)} ms (row above); ` +
      `document - hand, same rounds: ${(w.a.p50 - w.b.p50).toFixed(2)} ms (everything but the SQL: loaders' own work, root loader, React render of ${(bytes / 1024).toFixed(0)} KB to the last byte)`,
  )
  if (w.a.n < iterations) rnotes.push(`stopped after ${w.a.n} of ${iterations} iterations (row time budget ${budgetSec} s)`)
  const rmet = engine.name === 'pg' ? w.a.p95 < PG_RESPONSE_P95_MS : null
  if (rmet === false) rnotes.push(...(await storeWhere()))
  rows.push({ scenario: rlabel, engine: engine.name, docs: engine.docs, store: w.a, hand: w.b, target: absTarget, met: rmet, notes: rnotes })
  return rows
}

async function loadHandler(log: (m: string) => void): Promise<((r: Request, l: AppLoadContext) => Promise<Response>) | null> {
  if (!fs.existsSync(BUILD)) {
    log('table: build/index.js is missing (run `npm run build`): the whole-response rows are skipped')
    return null
  }
  // the server runs in production mode: React's production build, Remix's production handler
  process.env.NODE_ENV = 'production'
  const build = (await import(pathToFileURL(BUILD).href)) as ServerBuild
  const { createRequestHandler } = await import('@remix-run/node')
  const handle = createRequestHandler(build, 'production')
  log(`table: Remix build ${BUILD} (${fs.statSync(BUILD).mtime.toISOString()})`)
  return (r, l) => handle(r, l)
}

export const tablePageScenario: Scenario = {
  name: 'table',
  legend: [
    `table: loader = tablePage (app/screens/table-page.server.ts) in-process; response = the whole document of ${SCREEN_PATH} from the Remix build (build/index.js) in-process, signed in, body read to the end;`,
    `       hand = hand-written SQL for the same 20 rows (same ids, order, labels) and the same total: rows and a count capped at ${COUNT_CAP + 1} side by side, then past the cap the planner's estimate`,
    `       (EXPLAIN), as the screen does (COUNT_CAP, app/screens/table-page.server.ts). Page size ${SIZE}; page 500 = offset 9,980, or "by Next": after the last row of page 499 (decision 008).`,
    `       Targets: loader/hand <= ${RATIO_TARGET}x at p50 and p95; whole response p95 < ${PG_RESPONSE_P95_MS} ms on PostgreSQL at 1M documents (ratio column of response rows: response/hand, no target).`,
  ],
  async run(ctx) {
    const handler = await loadHandler(ctx.log)
    const logger = pino({ level: 'error' }, pino.destination(2))
    const out: BenchRow[] = []
    for (const engine of ctx.engines) {
      const s = await prepareScreen(engine, ctx.log)
      try {
        for (const c of CASES) out.push(...(await runCase(ctx, engine, c, s, handler, logger)))
      } finally {
        await closeScreen(engine, s)
      }
    }
    return out
  },
}
