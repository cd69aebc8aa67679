/**
 * Runs a compiled pipeline: read-only, in one transaction, with a statement timeout.
 *
 * PostgreSQL: `set_config('statement_timeout', …, true)` (SET LOCAL) stops a pipeline that runs too
 * long with SQLSTATE 57014, answered as 503 with a clear message. PGlite runs in this process'
 * WebAssembly and has no timer to cancel a statement (statement_timeout is accepted but never
 * fires); there the bounds are the compiler's (no recursion, stage and row limits) — decision 010.
 * Errors the data raises while a stage runs (a $concat of a number, a division by zero, a bad
 * regex) are the pipeline's fault: 400.
 */
import type { Db } from '../../db/driver.server'
import { sqlState } from '../../db/driver.server'
import { AppError } from '../../utils/errors'
import { compilePipeline, type CompileOptions } from './compile'
import { isPlainObject } from './limits'
import { pipelineCost, pipelineReads, tooCostly } from './cost'

export interface RunOptions extends CompileOptions {
  timeoutMs: number
  /** the most a pipeline may cost on the embedded database, in row visits (cost.ts; decision 035) */
  maxCost?: number
}

/** On PGlite, a pipeline priced above the budget is refused before it runs (it could not be stopped once running). */
async function checkCost(db: Db, table: string, org: string, pipeline: unknown, opts: RunOptions): Promise<void> {
  if (db.kind !== 'pglite' || !opts.maxCost || !Array.isArray(pipeline)) return
  const reads = pipelineReads(pipeline)
  const count = async (t: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} WHERE org = $1`, [org])).rows[0].n
  const tables = new Map<string, number>()
  for (const from of reads.froms) tables.set(from, await count(opts.tableFor(from)))
  const arrays = new Map<string, number>()
  for (const f of reads.unwinds) {
    if (reads.lookedUpAs.has(f)) continue // a $lookup's own array: priced by that table's size
    const r = await db.query<{ n: number | null }>(
      `SELECT max(CASE WHEN jsonb_typeof(doc -> $2) = 'array' THEN jsonb_array_length(doc -> $2) END)::int AS n FROM ${table} WHERE org = $1`,
      [org, f],
    )
    if (r.rows[0].n) arrays.set(f, r.rows[0].n)
  }
  const cost = pipelineCost(pipeline, { base: await count(table), tables, arrays })
  if (cost > opts.maxCost) throw tooCostly(cost, opts.maxCost)
}

export async function runPipeline(db: Db, table: string, org: string, pipeline: unknown, opts: RunOptions): Promise<unknown[]> {
  const { sql, params } = compilePipeline(table, org, pipeline, opts)
  await checkCost(db, table, org, pipeline, opts)
  let rows: Array<{ d: unknown }>
  try {
    rows = await db.transaction(async (tx) => {
      // read only (SET TRANSACTION READ ONLY), the timeout and no JIT in one round trip: the
      // planner overestimates the jsonb conditions of a compiled pipeline a hundredfold, and
      // compiling ~100 functions cost more (0.6 s) than it saved on a table page
      await tx.query(`SELECT set_config('transaction_read_only', 'on', true), set_config('statement_timeout', $1, true), set_config('jit', 'off', true)`, [
        String(Math.max(1, Math.round(opts.timeoutMs))),
      ])
      return (await tx.query<{ d: unknown }>(sql, params)).rows
    })
  } catch (e) {
    const code = sqlState(e)
    if (code === '57014') throw new AppError('UNAVAILABLE', `the pipeline ran longer than ${opts.timeoutMs / 1000} s and was stopped; narrow it with $match or $limit`)
    // data exceptions (class 22): wrong types for an operator, division by zero, an invalid regex
    if (code?.startsWith('22')) throw new AppError('BAD_INPUT', `the pipeline failed on the data: ${(e as Error).message.slice(0, 200)}`)
    throw e
  }
  const docs = rows.map((r) => (typeof r.d === 'string' ? JSON.parse(r.d) : r.d))
  const facet = Array.isArray(pipeline) && isPlainObject(pipeline[pipeline.length - 1]) && '$facet' in (pipeline[pipeline.length - 1] as object)
  const tooMany = docs.length > opts.maxRows || (facet && docs.some((d) => isPlainObject(d) && Object.values(d).some((v) => Array.isArray(v) && v.length > opts.maxRows)))
  if (tooMany) throw new AppError('BAD_INPUT', `the pipeline answers more than ${opts.maxRows} documents; add $limit (or $skip and $limit inside $facet)`)
  return docs
}
