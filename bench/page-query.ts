/**
 * Scenario "page": Store.page (sorted on an indexed field, date range, search, active only,
 * total count) against the same two statements written by hand, run through the same driver
 * (db.db.query) the same way the store runs them (concurrently where the driver can).
 */
import type { PageQuery } from '../app/db/types'
import { COLLECTION } from './dataset'
import {
  comparePair,
  explainAnalyze,
  explainJson,
  planSummary,
  type BenchContext,
  type BenchRow,
  type Engine,
  type Scenario,
} from './lib'

const FROM = '2025-01-01T00:00:00.000Z'
const TO = '2026-01-01T00:00:00.000Z'
const SEARCH = 'kush'
const LIMIT = 20

// ---- hand-written SQL (deliberately literal: this is the baseline, not generated) ----

const WHERE = `
 WHERE org = $1
   AND doc->>'IsUsed' IS DISTINCT FROM 'no'
   AND (doc->>'planted') COLLATE "C" >= $2
   AND (doc->>'planted') COLLATE "C" < $3
   AND doc->>'strain' ILIKE $4`

const HAND_COUNT = `SELECT count(*)::int AS n FROM c_bench_plants${WHERE}`

const HAND_ROWS_BY_TAG = `SELECT id, doc, cts, ts FROM c_bench_plants${WHERE}
 ORDER BY lower(doc->>'tag') COLLATE "C", id
 LIMIT $5 OFFSET $6`

const HAND_ROWS_BY_PLANTED_DESC = `SELECT id, doc, cts, ts FROM c_bench_plants${WHERE}
 ORDER BY (doc->>'planted') COLLATE "C" DESC, id DESC
 LIMIT $5 OFFSET $6`

interface Case {
  scenario: string
  query: PageQuery
  /** the search text (hand side builds its own %pattern%) */
  search: string
  handRows: string
  offset: number
  /** the absolute p95 goal on PostgreSQL, if this case has one */
  pgP95Ms?: number
  /** headline row: full iteration count; others use ctx.secondaryIterations */
  headline?: boolean
}

const base = {
  limit: LIMIT,
  search: { key: 'strain', text: SEARCH },
  range: { key: 'planted', from: FROM, to: TO },
  activeOnly: true,
}
/** one strain of 30 (~3 % of plants) instead of six */
const SELECTIVE = 'gelato'

const CASES: Case[] = [
  {
    scenario: 'page (tag asc, range+search+count)',
    query: { ...base, offset: 0, sort: { key: 'tag', dir: 'asc' } },
    search: SEARCH,
    handRows: HAND_ROWS_BY_TAG,
    offset: 0,
    pgP95Ms: 50,
    headline: true,
  },
  {
    scenario: `page (tag asc, selective search "${SELECTIVE}")`,
    query: { ...base, search: { key: 'strain', text: SELECTIVE }, offset: 0, sort: { key: 'tag', dir: 'asc' } },
    search: SELECTIVE,
    handRows: HAND_ROWS_BY_TAG,
    offset: 0,
  },
  {
    scenario: 'page offset 2000 (tag asc)',
    query: { ...base, offset: 2000, sort: { key: 'tag', dir: 'asc' } },
    search: SEARCH,
    handRows: HAND_ROWS_BY_TAG,
    offset: 2000,
  },
  {
    scenario: 'page (planted desc, date sort)',
    query: { ...base, offset: 0, sort: { key: 'planted', dir: 'desc' } },
    search: SEARCH,
    handRows: HAND_ROWS_BY_PLANTED_DESC,
    offset: 0,
  },
]

const RATIO_TARGET = 1.3

async function runCase(ctx: BenchContext, engine: Engine, c: Case): Promise<BenchRow> {
  const { db, store } = engine.database
  const org = engine.org
  const handParams = [org, FROM, TO, `%${c.search}%`, LIMIT, c.offset]
  const countParams = handParams.slice(0, 4)
  const store_ = () => store.page(org, COLLECTION, c.query)
  const hand = () => Promise.all([db.query(c.handRows, handParams), db.query<{ n: number }>(HAND_COUNT, countParams)])

  const notes: string[] = []
  // same answer from both, or the comparison means nothing
  const [s, [hr, hc]] = await Promise.all([store_(), hand()])
  const sameRows = s.rows.length === hr.rows.length && s.rows.every((d, i) => d._id === (hr.rows[i] as { id: string }).id)
  if (!sameRows || s.total !== hc.rows[0].n) {
    notes.push(`MISMATCH: store returned ${s.rows.length} rows / total ${s.total}, hand ${hr.rows.length} rows / total ${hc.rows[0].n}`)
  }
  notes.push(`matches: ${s.total.toLocaleString('en-US')} of ${engine.orgDocs.toLocaleString('en-US')} ${org} documents, page of ${s.rows.length}`)

  // what the store's SQL does (the SQL text comes from the store itself)
  const sql = await store.pageSql(org, COLLECTION, c.query)
  const rowsPlan = planSummary(await explainJson(engine, sql.rowsSql, sql.params))
  const countPlan = planSummary(await explainJson(engine, sql.countSql, sql.countParams))
  const handRowsPlan = planSummary(await explainJson(engine, c.handRows, handParams))
  const handCountPlan = planSummary(await explainJson(engine, HAND_COUNT, countParams))
  notes.push(`store rows plan:  ${rowsPlan.nodes.join(' > ')}`)
  notes.push(`store count plan: ${countPlan.nodes.join(' > ')}`)
  if (rowsPlan.nodes.join() !== handRowsPlan.nodes.join()) notes.push(`hand rows plan differs:  ${handRowsPlan.nodes.join(' > ')}`)
  if (countPlan.nodes.join() !== handCountPlan.nodes.join()) notes.push(`hand count plan differs: ${handCountPlan.nodes.join(' > ')}`)
  if (rowsPlan.nodes.some((n) => n.startsWith('Seq Scan')) || countPlan.nodes.some((n) => n.startsWith('Seq Scan'))) {
    notes.push('INDEX MISSED: a sequential scan of the collection')
  }
  if (ctx.explain) {
    ctx.log(`--- ${c.scenario} / ${engine.name}: EXPLAIN ANALYZE of the store's rows SQL\n${sql.rowsSql}\n${await explainAnalyze(engine, sql.rowsSql, sql.params)}`)
    ctx.log(`--- ${c.scenario} / ${engine.name}: EXPLAIN ANALYZE of the store's count SQL\n${sql.countSql}\n${await explainAnalyze(engine, sql.countSql, sql.countParams)}`)
  }

  const iterations = c.headline ? ctx.iterations : ctx.secondaryIterations
  const warmup = c.headline ? ctx.warmup : Math.min(ctx.warmup, 5)
  ctx.log(`page: ${c.scenario} on ${engine.name} (${warmup} warm-up + ${iterations} timed, each side)`)
  const r = await comparePair(store_, hand, { iterations, warmup, budgetSec: ctx.rowBudgetSec })
  // where the time goes: the store's two statements timed alone (a few runs, p50 only)
  const split = await comparePair(
    () => db.query(sql.rowsSql, sql.params),
    () => db.query(sql.countSql, sql.countParams),
    { iterations: 16, warmup: 1 },
  )
  notes.push(`store statements alone, p50: rows ${split.a.p50.toFixed(2)} ms, count ${split.b.p50.toFixed(2)} ms`)
  if (r.a.n < iterations) notes.push(`stopped after ${r.a.n} of ${iterations} iterations (row time budget ${ctx.rowBudgetSec} s)`)
  const ratio = Math.max(r.a.p50 / r.b.p50, r.a.p95 / r.b.p95)
  const abs = engine.name === 'pg' && c.pgP95Ms !== undefined
  const met = ratio <= RATIO_TARGET && (!abs || r.a.p95 < c.pgP95Ms!)
  return {
    scenario: c.scenario,
    engine: engine.name,
    docs: engine.docs,
    store: r.a,
    hand: r.b,
    target: `<=${RATIO_TARGET}x${abs ? `, p95<${c.pgP95Ms}ms` : ''}`,
    met,
    notes,
  }
}

export const pageQuery: Scenario = {
  name: 'page',
  legend: [
    'page: targets: store/hand ratio <= 1.3x at p50 and p95 (same SQL shape through the same driver); p95 < 50 ms on PostgreSQL at 1M documents for the first page.',
    '      store = Store.page (SQL built from the schema, rows + count); hand = the same two statements written by hand, run through db.db.query.',
  ],
  async run(ctx) {
    const rows: BenchRow[] = []
    // rows grouped by case, engines side by side
    for (const c of CASES) {
      for (const engine of ctx.engines) {
        rows.push(await runCase(ctx, engine, c))
      }
    }
    return rows
  },
}
