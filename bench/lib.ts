/**
 * Shared pieces of the benchmark: the shapes scenarios receive and return, timing and
 * percentiles, plan inspection and the text table.
 */
import type { Database } from '../app/db/index.server'
import type { LoadSettings } from './autocannon'

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
  /** PostgreSQL only: the server and the schema the data set lives in (a peer is pointed at them) */
  pg?: { url: string; schema: string }
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
  /** the out-of-process load generator's runs (bench/autocannon.ts): connections, seconds, rounds, warm-up */
  load: LoadSettings
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
  /** whether the target was met (printed, never asserted); null: the row has no target (printed "-") */
  met: boolean | null
  /** shown under the table (plans, mismatches) */
  notes?: string[]
}

/** A scenario module: measures something and returns table rows. */
export interface Scenario {
  name: string
  /** lines printed under the table when the scenario ran: what its columns mean, its targets */
  legend?: string[]
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
    r.met === null ? '-' : r.met ? 'yes' : 'NO',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)))
  const line = (cells: string[]) => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ').trimEnd()
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)].join('\n')
}

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] }
const num = (v: unknown) => (typeof v === 'number' ? v : 0)
const int = (v: number) => Math.round(v).toLocaleString('en-US')

/**
 * Where a statement's time goes, in one line, from EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON): the
 * execution time, then each scan of a table (rows read and dropped by the filter, pages and how
 * many were not in shared buffers) and each sort (method, memory or disk), with the time at which
 * the node finished (inclusive of what runs under it; per process for parallel nodes).
 */
export async function explainSummary(engine: Engine, sql: string, params: unknown[]): Promise<string> {
  const r = await engine.database.db.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params)
  const v = Object.values(r.rows[0] ?? {})[0]
  const root = (Array.isArray(v) ? v[0] : JSON.parse(String(v))[0]) as { Plan: PlanNode; 'Execution Time': number }
  const parts: string[] = []
  const walk = (n: PlanNode) => {
    for (const c of n.Plans ?? []) walk(c) // children first: the line reads in the order rows flow
    const type = String(n['Node Type'])
    const loops = num(n['Actual Loops']) || 1
    const t = num(n['Actual Total Time'])
    if (n['Relation Name'] && /Scan$/.test(type)) {
      const rows = num(n['Actual Rows']) * loops
      const dropped = num(n['Rows Removed by Filter']) * loops + num(n['Rows Removed by Index Recheck']) * loops
      const pages = num(n['Shared Hit Blocks']) + num(n['Shared Read Blocks'])
      const via = n['Index Name'] ? ` via ${String(n['Index Name'])}` : ''
      const par = n['Parallel Aware'] ? 'Parallel ' : ''
      parts.push(
        `${par}${type} ${String(n['Relation Name'])}${via}${loops > 1 ? ` x${loops}` : ''} ${t.toFixed(1)} ms (${int(rows)} rows kept${dropped ? `, ${int(dropped)} dropped by the filter` : ''}; ` +
          `${int(pages)} pages, ${int(num(n['Shared Read Blocks']))} not in shared buffers)`,
      )
    }
    if (type === 'Sort' || type === 'Incremental Sort') {
      const method = n['Sort Method'] ? String(n['Sort Method']) : type
      const space = n['Sort Space Used'] ? `, ${int(num(n['Sort Space Used']))} kB ${String(n['Sort Space Type']).toLowerCase()}` : ''
      parts.push(`${type} (${method}${space}) ${t.toFixed(1)} ms`)
    }
  }
  walk(root.Plan)
  return `${root['Execution Time'].toFixed(1)} ms: ${parts.join('; ')}`
}

/**
 * Sequential scans of `table` in a JSON plan, split by whether a Limit sits above them (a capped
 * count reads only until it has enough rows, so its scan stops early) or not (the whole table).
 */
export function seqScansOf(plan: unknown, table: string): { bounded: number; unbounded: number } {
  const out = { bounded: 0, unbounded: 0 }
  const walk = (n: PlanNode, limited: boolean) => {
    const type = String(n['Node Type'])
    if (type === 'Seq Scan' && n['Relation Name'] === table) out[limited ? 'bounded' : 'unbounded']++
    for (const c of n.Plans ?? []) walk(c, limited || type === 'Limit')
  }
  const root = (Array.isArray(plan) ? plan[0] : plan) as { Plan?: PlanNode } | undefined
  if (root?.Plan) walk(root.Plan, false)
  return out
}
