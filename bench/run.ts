/**
 * `npm run bench`: opens PostgreSQL and PGlite, makes sure the benchmark data set is loaded,
 * runs every scenario module and prints one table. Prints figures, asserts nothing, exits 0.
 *
 * Options (see bench/README.md):
 *   --reload              load the data set again even if the cached one matches
 *   --engines=pg,pglite   which engines to run (default both)
 *   --only=page,table     which scenarios to run (comma-separated names: page, deep, table, api, bus, relay, sensors, screen, metrc, rows, orders, dash, slow, parts, files; default all)
 *   --iterations=200      timed iterations per side, headline rows   --warmup=20
 *   --secondary-iterations=60   timed iterations per side, other rows
 *   --row-budget=60       seconds after which a row stops timing (n is reported)
 *   --pg-docs=1000000     --pglite-docs=100000             --explain (EXPLAIN ANALYZE to stderr)
 *   --baseline=<ref>      the previous release the screen check builds beside this checkout (default: the latest tag, else HEAD~20)
 *   --load-connections=10 --load-seconds=10 --load-rounds=3 --load-warmup=5   the out-of-process load generator (autocannon)
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_PG_SCHEMA (default canopy_bench).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase, type Database } from '../app/db/index.server'
import { MEASURED_ORG, COLLECTION, prepareDataset } from './dataset'
import { formatTable, type BenchContext, type BenchRow, type Engine, type EngineName, type Scenario } from './lib'
import { apiScenario } from './api'
import { busScenario } from './bus'
import { relayScenario } from './relay'
import { sensorsScenario } from './sensors'
import { pageQuery } from './page-query'
import { tablePageScenario } from './table-page'
import { deepPagesScenario } from './deep-pages'
import { tableScreen } from './table-screen'
import { metrcSyncScenario } from './metrc-sync'
import { rowActionsScenario } from './row-actions'
import { ordersScenario } from './orders'
import { dashboardsScenario } from './dashboards'
import { slowDevice } from './slow-device'
import { slowParts } from './slow-parts'
import { slowFiles } from './slow-files'

/** Scenario modules, in table order. Later issues append theirs here. */
const SCENARIOS: Scenario[] = [pageQuery, deepPagesScenario, tablePageScenario, apiScenario, busScenario, relayScenario, sensorsScenario, metrcSyncScenario, rowActionsScenario, ordersScenario, dashboardsScenario]

// BENCH_PG_SCHEMA: another schema, so two checkouts can measure on one server without sharing data
const PG_SCHEMA = process.env.BENCH_PG_SCHEMA || 'canopy_bench'
const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
const PG_SHARE = 0.15 // 1 M documents: ~150 K in the measured organisation
const PGLITE_SHARE = 0.4 // 100 K documents: ~40 K (an embedded install serves few, larger organisations)

function parseArgs(argv: string[]) {
  const flags = new Map<string, string>()
  for (const a of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a)
    if (!m) throw new Error(`unknown argument ${a}`)
    flags.set(m[1], m[2] ?? 'true')
  }
  const num = (k: string, d: number) => {
    const v = flags.get(k)
    if (v === undefined) return d
    const n = Number(v.replace(/_/g, ''))
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${k} wants a number`)
    return Math.floor(n)
  }
  const list = (k: string) => flags.get(k)?.split(',').map((s) => s.trim()).filter(Boolean)
  return {
    reload: flags.has('reload'),
    explain: flags.has('explain'),
    engines: (list('engines') ?? ['pg', 'pglite']) as EngineName[],
    only: list('only'),
    iterations: num('iterations', 200),
    secondaryIterations: num('secondary-iterations', 60),
    rowBudgetSec: num('row-budget', 60),
    warmup: num('warmup', 20),
    pgDocs: num('pg-docs', 1_000_000),
    pgliteDocs: num('pglite-docs', 100_000),
    baseline: flags.get('baseline'),
    load: { connections: Math.max(1, num('load-connections', 10)), seconds: Math.max(1, num('load-seconds', 10)), rounds: Math.max(1, num('load-rounds', 3)), warmupSeconds: num('load-warmup', 5) },
  }
}

const t0 = Date.now()
const log = (m: string) => process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${m}\n`)

async function openEngine(name: EngineName, args: ReturnType<typeof parseArgs>): Promise<Engine | null> {
  const docs = name === 'pg' ? args.pgDocs : args.pgliteDocs
  const share = name === 'pg' ? PG_SHARE : PGLITE_SHARE
  let database: Database
  if (name === 'pg') {
    const url = PG_URL
    log(`pg: ${url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')} schema ${PG_SCHEMA}`)
    try {
      // a long statement timeout: the first load builds indexes over 1 M rows
      database = await openDatabase({ databaseUrl: url, pgSchema: PG_SCHEMA, statementTimeoutMs: 600_000 })
    } catch (e) {
      log(`pg: skipped, ${(e as Error).message}`)
      return null
    }
  } else {
    // cached between runs, keyed by document count (data/ is git-ignored); --reload starts it afresh
    const dir = path.resolve('data', `bench-pglite-${docs}`)
    if (args.reload) fs.rmSync(dir, { recursive: true, force: true })
    log(`pglite: ${dir}`)
    database = await openDatabase({ dataDir: dir })
  }
  try {
    const ds = await prepareDataset(database, { docs, share }, { reload: args.reload, log, label: name })
    const pg = name === 'pg' ? { url: PG_URL, schema: PG_SCHEMA } : undefined
    return { name, database, docs, org: MEASURED_ORG, orgDocs: ds.orgDocs, collection: COLLECTION, pg }
  } catch (e) {
    await database.close().catch(() => {})
    throw e
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const started = Date.now()
  const engines: Engine[] = []
  try {
    for (const name of args.engines) {
      if (name !== 'pg' && name !== 'pglite') throw new Error(`unknown engine ${name}`)
      const e = await openEngine(name, args)
      if (e) engines.push(e)
    }
    if (engines.length === 0) {
      log('no engine available, nothing measured')
      return
    }
    const ctx: BenchContext = {
      engines,
      iterations: args.iterations,
      secondaryIterations: args.secondaryIterations,
      warmup: args.warmup,
      rowBudgetSec: args.rowBudgetSec,
      explain: args.explain,
      load: args.load,
      log,
    }
    const rows: BenchRow[] = []
    const ran: Scenario[] = []
    for (const s of SCENARIOS) {
      if (args.only && !args.only.includes(s.name)) continue
      ran.push(s)
      const t = Date.now()
      rows.push(...(await s.run(ctx)))
      log(`${s.name}: done in ${((Date.now() - t) / 1000).toFixed(1)} s`)
    }

    const out: string[] = []
    out.push(
      `Canopy benchmark (${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}; ` +
        `${args.iterations} timed iterations per side on headline rows, ${args.secondaryIterations} on others; times in ms)`,
    )
    out.push('')
    out.push(formatTable(rows))
    out.push('')
    for (const s of ran) out.push(...(s.legend ?? []))
    for (const e of engines) out.push(`${e.name}: ${e.docs.toLocaleString('en-US')} documents in c_${e.collection}, measured organisation ${e.org} holds ${e.orgDocs.toLocaleString('en-US')}`)
    const noted = rows.filter((r) => r.notes?.length)
    if (noted.length) {
      out.push('')
      out.push('Notes:')
      for (const r of noted) {
        out.push(`  ${r.scenario} / ${r.engine}:`)
        for (const n of r.notes!) out.push(`    ${n}`)
      }
    }
    if (!args.only || args.only.includes('screen')) {
      out.push('')
      out.push(...(await tableScreen(log, { baseline: args.baseline, load: args.load })))
    }
    if (!args.only || args.only.includes('slow')) {
      out.push('')
      out.push(...(await slowDevice(log)))
    }
    if (!args.only || args.only.includes('parts')) {
      out.push('')
      out.push(...(await slowParts(log)))
    }
    if (!args.only || args.only.includes('files')) {
      out.push('')
      out.push(...(await slowFiles(log)))
    }
    out.push('')
    out.push(`total ${((Date.now() - started) / 1000).toFixed(1)} s`)
    process.stdout.write(out.join('\n') + '\n')
  } finally {
    for (const e of engines) await e.database.close().catch((err) => log(`${e.name}: close failed: ${(err as Error).message}`))
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    log(`failed: ${(e as Error).stack ?? e}`)
    process.exit(1)
  },
)
