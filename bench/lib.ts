/**
 * Shared pieces of the benchmark: the shapes scenarios receive and return, timing and
 * percentiles, plan inspection and the text table.
 */
import type { Database } from '../app/db/index.server'

export type EngineName = 'pg' | 'pglite'

/** One opened, loaded database a scenario measures against. */
export interface Engine {
  name: EngineName
  database: Database
  /** documents in the measured collection (all organisations) */
  docs: number
  /** the organisation every query is made for */
  org: string
  /** documents of that organisation */
  orgDocs: number
  /** the measured collection (table c_<collection>) */
  collection: string
}

export interface BenchContext {
  engines: Engine[]
  /** timed iterations per side, for a scenario's headline rows */
  iterations: number
  /** timed iterations per side, for secondary rows (kept lower so the whole run stays short) */
  secondaryIterations: number
  /** untimed iterations per side before timing */
  warmup: number
  /** a row stops timing after this many seconds, whatever the iteration count (reported as n) */
  rowBudgetSec: number
  /** print EXPLAIN (ANALYZE, BUFFERS) of the SQL under test */
  explain: boolean
  log(msg: string): void
}

export interface Stats {
  p50: number
  p95: number
  n: number
}

/** One line of the printed table: the code under test ("store") against a baseline ("hand"), both in ms. */
export interface BenchRow {
  scenario: string
  engine: EngineName
  docs: number
  store: Stats
  hand: Stats
  /** human-readable target, e.g. "<=1.3x, p95<50ms" */
  target: string
  /** whether the target was met (printed, never asserted) */
  met: boolean
  /** shown under the table (plans, mismatches) */
  notes?: string[]
}

/** A scenario module: measures something and returns table rows. */
export interface Scenario {
  name: string
  run(ctx: BenchContext): Promise<BenchRow[]>
}

/** Nearest-rank percentile of an ascending-sorted sample. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b)
  return { p50: percentile(s, 50), p95: percentile(s, 95), n: s.length }
}

async function timeOnce(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint()
  await fn()
  return Number(process.hrtime.bigint() - t0) / 1e6
}

/**
 * Times two async functions against each other: warm-up, then `iterations` rounds, each round
 * running both, alternating which goes first so neither profits from the other's cache warming.
 */
export async function comparePair(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  opts: { iterations: number; warmup: number; budgetSec?: number },
): Promise<{ a: Stats; b: Stats }> {
  for (let i = 0; i < opts.warmup; i++) {
    await a()
    await b()
  }
  const ta: number[] = []
  const tb: number[] = []
  const deadline = opts.budgetSec ? Date.now() + opts.budgetSec * 1000 : Infinity
  // an even number of rounds, so each side went first equally often
  for (let i = 0; i < opts.iterations && (i % 2 === 1 || Date.now() < deadline); i++) {
    if (i % 2 === 0) {
      ta.push(await timeOnce(a))
      tb.push(await timeOnce(b))
    } else {
      tb.push(await timeOnce(b))
      ta.push(await timeOnce(a))
    }
  }
  return { a: stats(ta), b: stats(tb) }
}

/** Node types and index names of a JSON plan, flattened (for a one-line summary). */
export function planSummary(plan: unknown): { nodes: string[]; indexes: string[] } {
  const nodes: string[] = []
  const indexes: string[] = []
  const walk = (n: Record<string, unknown>) => {
    let label = String(n['Node Type'])
    if (n['Index Name']) {
      label += ` ${String(n['Index Name'])}`
      indexes.push(String(n['Index Name']))
    } else if (n['Relation Name']) label += ` ${String(n['Relation Name'])}`
    nodes.push(label)
    for (const c of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(c)
  }
  const root = (Array.isArray(plan) ? plan[0] : plan) as { Plan?: Record<string, unknown> } | undefined
  if (root?.Plan) walk(root.Plan)
  return { nodes, indexes }
}

/** EXPLAIN (FORMAT JSON) of a parameterised statement, through the engine's own driver. */
export async function explainJson(engine: Engine, sql: string, params: unknown[]): Promise<unknown> {
  const r = await engine.database.db.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${sql}`, params)
  const v = Object.values(r.rows[0] ?? {})[0]
  return typeof v === 'string' ? JSON.parse(v) : v
}

export async function explainAnalyze(engine: Engine, sql: string, params: unknown[]): Promise<string> {
  const r = await engine.database.db.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)
  return r.rows.map((x) => String(Object.values(x)[0])).join('\n')
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '-')
const x = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '-')

/** The plain aligned table the benchmark prints. */
export function formatTable(rows: BenchRow[]): string {
  const head = ['scenario', 'engine', 'docs', 'store p50', 'store p95', 'hand p50', 'hand p95', 'ratio p50/p95', 'target', 'met']
  const right = new Set([2, 3, 4, 5, 6, 7])
  const body = rows.map((r) => [
    r.scenario,
    r.engine,
    r.docs.toLocaleString('en-US'),
    ms(r.store.p50),
    ms(r.store.p95),
    ms(r.hand.p50),
    ms(r.hand.p95),
    `${x(r.store.p50 / r.hand.p50)} / ${x(r.store.p95 / r.hand.p95)}`,
    r.target,
    r.met ? 'yes' : 'NO',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)))
  const line = (cells: string[]) => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ').trimEnd()
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)].join('\n')
}
