/**
 * Scenario "deep" (issue 30 item 3): a page opened by number, page 500 (offset 9,980), against
 * page 1 of the same view, both as the table screen asks for them (Store.page with the reference
 * column's labels and the count capped at COUNT_CAP). The "store" column is page 500, the "hand"
 * column page 1; the ratio is page 500 / page 1, target <= 2x.
 *
 * The notes time the rows statement alone three ways at page 500: the old OFFSET over the full rows
 * (`Segment.sql`), the deferred join the store now runs (`Segment.deepSql`), and page 1; they also
 * check that the old and the new statement return the same ids in the same order.
 */
import type { PageQuery } from '../app/db/types'
import { segmentParams } from '../app/db/page-sql'
import { COUNT_CAP } from '../app/screens/table-page.server'
import { COLLECTION, STRAINS_COLLECTION } from './dataset'
import { comparePair, explainJson, explainSummary, planSummary, type BenchContext, type BenchRow, type Engine, type Scenario } from './lib'

const SIZE = 20
const PAGE = 500
const RATIO_TARGET = 2

type View = Omit<PageQuery, 'offset' | 'limit' | 'refs' | 'countCap'>
const FLOWER = { key: 'room', text: 'flower' }
const VIEWS: Array<{ name: string; view: View }> = [
  { name: 'default order (tag), active', view: { activeOnly: true } },
  { name: 'created newest first, all records', view: { sort: { key: 'cts', dir: 'desc' } } },
  { name: 'date sort with a search, active', view: { sort: { key: 'planted', dir: 'desc' }, search: FLOWER, activeOnly: true } },
  { name: 'text sort with ties (room), active', view: { sort: { key: 'room', dir: 'asc' }, activeOnly: true } },
  { name: 'label sort with a search, active', view: { sort: { key: 'strain_ref', dir: 'asc' }, search: FLOWER, activeOnly: true } },
]

const p50 = (v: number) => v.toFixed(2)

async function runView(ctx: BenchContext, engine: Engine, name: string, view: View): Promise<BenchRow> {
  const { db, store } = engine.database
  const org = engine.org
  const refs = [{ key: 'strain_ref', collection: STRAINS_COLLECTION, labelField: 'name', org }]
  const offset = (PAGE - 1) * SIZE
  const q = (off: number): PageQuery => ({ ...view, refs, offset: off, limit: SIZE, countCap: COUNT_CAP })
  const label = `page ${PAGE} by number against page 1: ${name}`
  const notes: string[] = []

  // how many rows the view holds (not timed): page 500 must exist
  const plan = await store.pagePlan(org, COLLECTION, q(offset))
  const total = (await db.query<{ n: number }>(plan.countSql.replace(/LIMIT \d+\) capped/, ') capped'), plan.countParams)).rows[0].n
  if (total <= offset) {
    return { scenario: label, engine: engine.name, docs: engine.docs, store: { p50: NaN, p95: NaN, n: 0 }, hand: { p50: NaN, p95: NaN, n: 0 }, target: '-', met: null, notes: [`skipped: the view holds ${total} rows, page ${PAGE} needs ${offset + 1}`] }
  }
  const deep = () => store.page(org, COLLECTION, q(offset))
  const first = () => store.page(org, COLLECTION, q(0))

  // the first segment's statements: old OFFSET over the full rows, the deferred join, and page 1
  const s = plan.segments[0]
  const deepParams = segmentParams(s, SIZE, offset)
  const oldIds = (await db.query<{ id: string }>(s.sql, deepParams)).rows.map((r) => r.id)
  const newIds = (await db.query<{ id: string }>(s.deepSql, deepParams)).rows.map((r) => r.id)
  const pageIds = (await deep()).rows.map((r) => r._id)
  const same = oldIds.length === SIZE && oldIds.every((id, i) => id === newIds[i] && id === pageIds[i])
  notes.push(`${total.toLocaleString('en-US')} rows in the view of ${engine.orgDocs.toLocaleString('en-US')} ${org} documents; page ${PAGE} = offset ${offset.toLocaleString('en-US')}`)
  notes.push(same ? `old OFFSET statement, deferred join and Store.page: the same ${SIZE} ids in the same order` : `MISMATCH: old ${oldIds.join(',')} / new ${newIds.join(',')} / page ${pageIds.join(',')}`)
  notes.push(`old rows plan: ${planSummary(await explainJson(engine, s.sql, deepParams)).nodes.join(' > ')}`)
  notes.push(`new rows plan: ${planSummary(await explainJson(engine, s.deepSql, deepParams)).nodes.join(' > ')}`)
  if (ctx.explain) {
    notes.push(`EXPLAIN ANALYZE old: ${await explainSummary(engine, s.sql, deepParams)}`)
    notes.push(`EXPLAIN ANALYZE new: ${await explainSummary(engine, s.deepSql, deepParams)}`)
  }

  ctx.log(`deep: ${name} on ${engine.name}`)
  const iterations = ctx.secondaryIterations
  const warmup = Math.min(ctx.warmup, 3)
  const r = await comparePair(deep, first, { iterations, warmup, budgetSec: ctx.rowBudgetSec })
  const rows = await comparePair(
    () => db.query(s.sql, deepParams),
    () => db.query(s.deepSql, deepParams),
    { iterations: 10, warmup: 2 },
  )
  const one = await comparePair(
    () => db.query(s.sql, segmentParams(s, SIZE, 0)),
    () => db.query(plan.countSql, plan.countParams),
    { iterations: 10, warmup: 2 },
  )
  // the page before this change: the old OFFSET statement beside the same capped count, as Store.page runs them
  const before = await comparePair(
    () => db.parallel((c) => c.query(s.sql, deepParams), (c) => c.query(plan.countSql, plan.countParams)),
    first,
    { iterations: 10, warmup: 2 },
  )
  notes.push(`before (old OFFSET statement + the capped count, side by side as Store.page runs them), p50: page ${PAGE} ${p50(before.a.p50)} ms, page 1 ${p50(before.b.p50)} ms: ${(before.a.p50 / before.b.p50).toFixed(2)}x`)
  notes.push(
    `statements alone, p50: page ${PAGE} rows old OFFSET ${p50(rows.a.p50)} ms, deferred join ${p50(rows.b.p50)} ms (${(rows.a.p50 / rows.b.p50).toFixed(1)}x faster); ` +
      `page 1 rows ${p50(one.a.p50)} ms; capped count (both pages) ${p50(one.b.p50)} ms`,
  )
  notes.push(`after (Store.page), p50: page ${PAGE} ${p50(r.a.p50)} ms, page 1 ${p50(r.b.p50)} ms: ${(r.a.p50 / r.b.p50).toFixed(2)}x`)
  if (r.a.n < iterations) notes.push(`stopped after ${r.a.n} of ${iterations} iterations (row time budget ${ctx.rowBudgetSec} s)`)
  const ratio = r.a.p50 / r.b.p50
  return { scenario: label, engine: engine.name, docs: engine.docs, store: r.a, hand: r.b, target: `<=${RATIO_TARGET}x p50`, met: ratio <= RATIO_TARGET, notes }
}

export const deepPagesScenario: Scenario = {
  name: 'deep',
  legend: [
    `deep: page ${PAGE} by number (offset ${((PAGE - 1) * SIZE).toLocaleString('en-US')}, "store" column) against page 1 ("hand" column) of the same view, both Store.page as the table`,
    `      screen calls it (labels of strain_ref, count capped at ${COUNT_CAP}); ratio = page ${PAGE} / page 1, target <= ${RATIO_TARGET}x at p50. Notes: the rows statement alone, old OFFSET vs deferred join.`,
  ],
  async run(ctx) {
    const out: BenchRow[] = []
    for (const engine of ctx.engines) for (const v of VIEWS) out.push(await runView(ctx, engine, v.name, v.view))
    return out
  },
}
