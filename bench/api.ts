/**
 * Scenario "api" (issue 7): the JSON API over real HTTP (the production Express app of
 * app/server/http.server.ts with the Remix build, on a loopback port, in this process).
 *
 * - pipeline row: the table page of SPEC §7 as an aggregation pipeline through
 *   `POST /misc/dbops?c=fac_plants&op=pipe` (active only, room contains "flower", newest planted
 *   first, $facet of 20 rows and the total) against the same page from the data layer directly
 *   (`Store.page`, exact total). Target: the API's overhead under 20 % (ratio <= 1.2) at 1M on PostgreSQL.
 * - throughput rows: `GET /dt/v1/fac_plants?room=…&limit=20` under autocannon in a child process
 *   (bench/autocannon.ts, --load-* flags): requests per second, p50 and p95, medians over rounds.
 * - peer row: the same list from Directus (bench/peer-directus.ts), when it is installed outside the
 *   repository; otherwise the row says why it was skipped. Both servers are started and warmed, then
 *   measured in interleaved rounds (Canopy, Directus, Directus, Canopy, …), so both see the same load.
 *
 * The rate limits are off for the benchmark (RATE_LIMIT_*_PER_SEC=0): they exist to stop runaway
 * clients, and the load generator's connections from one address would trip them by design. Uses the setup of the table
 * scenario (fac_plants is a view of the bench plants; an admin of org0).
 */
import fs from 'node:fs'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ServerBuild } from '@remix-run/node'
import pino from 'pino'
import { runPipeline } from '../app/api/pipeline/run.server'
import { signAccessToken } from '../app/auth/tokens.server'
import { createHttpApp } from '../app/server/http.server'
import { interleaved, type Interleaved, type LoadTarget } from './autocannon'
import { comparePair, type BenchContext, type BenchRow, type Engine, type Scenario } from './lib'
import { directusDir, directusMissing, startDirectus, type RunningPeer } from './peer-directus'
import { closeScreen, prepareScreen } from './table-page'

const BUILD = path.resolve('build/index.js')
const TABLE = 'fac_plants'
const OVERHEAD_TARGET = 1.2

const PIPELINE = [
  { $match: { IsUsed: { $ne: 'no' }, room: { $regex: 'flower', $options: 'i' } } },
  { $sort: { planted: -1, _id: -1 } },
  { $facet: { data: [{ $skip: 0 }, { $limit: 20 }], total: [{ $count: 'count' }] } },
]

async function run(ctx: BenchContext, engine: Engine): Promise<BenchRow[]> {
  if (!fs.existsSync(BUILD)) return []
  process.env.NODE_ENV = 'production'
  const build = (await import(pathToFileURL(BUILD).href)) as ServerBuild
  const s = await prepareScreen(engine, ctx.log)
  const env = { ...s.env, RATE_LIMIT_PER_SEC: 0, RATE_LIMIT_ADDRESS_PER_SEC: 0 }
  const app = createHttpApp({ env, database: engine.database, logger: pino({ level: 'error' }), build, publicDir: path.resolve('public'), events: s.events })
  const server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const token = signAccessToken(env.SESSION_SECRET, { sub: s.user.uid, orig: s.user.uid, org: engine.org, role: s.user.role })
  const headers = { 'x-access-token': token, 'content-type': 'application/json' }
  const rows: BenchRow[] = []
  try {
    // ---- the table-page pipeline over HTTP against Store.page
    const pipe = async () => {
      const r = await fetch(`${base}/misc/dbops?c=${TABLE}&op=pipe`, { method: 'POST', headers, body: JSON.stringify(PIPELINE) })
      const body = (await r.json()) as unknown
      if (r.status !== 200) throw new Error(`/misc/dbops answered ${r.status}: ${JSON.stringify(body).slice(0, 300)}`)
      return body as Array<{ data: Array<{ _id: string }>; total: Array<{ count: number }>; pages?: number }>
    }
    const direct = () => engine.database.store.page(engine.org, TABLE, { offset: 0, limit: 20, activeOnly: true, search: { key: 'room', text: 'flower' }, sort: { key: 'planted', dir: 'desc' } })
    const notes: string[] = []
    let a: Awaited<ReturnType<typeof pipe>> | null = null
    try {
      a = await pipe()
    } catch (e) {
      notes.push(`skipped: ${(e as Error).message}`)
    }
    if (a) {
      const b = await direct()
      const same = a[0]?.data?.length === b.rows.length && a[0].data.every((d, i) => d._id === b.rows[i]._id) && a[0].total?.[0]?.count === b.total
      notes.push(same ? `same ${b.rows.length} ids in the same order and the same total ${b.total.toLocaleString('en-US')} (pages ${a[0].pages}) from both sides` : `MISMATCH: pipeline ${a[0]?.data?.length} rows / total ${a[0]?.total?.[0]?.count}, Store.page ${b.rows.length} rows / total ${b.total}`)
      ctx.log(`api: table-page pipeline over HTTP on ${engine.name}`)
      const w = await comparePair(pipe, direct, { iterations: ctx.secondaryIterations, warmup: Math.min(ctx.warmup, 3), budgetSec: 60 })
      // where the difference goes: the compiled statement run in this process (runPipeline, no HTTP)
      const sqlOnly = () => runPipeline(engine.database.db, `c_${TABLE}`, engine.org, PIPELINE, { tableFor: () => { throw new Error('no $lookup here') }, maxRows: 10_000, timeoutMs: 60_000 })
      const s = await comparePair(sqlOnly, direct, { iterations: 20, warmup: 2, budgetSec: 30 })
      notes.push(`the pipeline's SQL alone (runPipeline in process, no HTTP; n=${s.a.n}): p50 ${s.a.p50.toFixed(1)} / p95 ${s.a.p95.toFixed(1)} ms against Store.page ${s.b.p50.toFixed(1)} / ${s.b.p95.toFixed(1)} ms in the same rounds (${(s.a.p50 / s.b.p50).toFixed(2)}x / ${(s.a.p95 / s.b.p95).toFixed(2)}x)`)
      const ratio = Math.max(w.a.p50 / w.b.p50, w.a.p95 / w.b.p95)
      rows.push({ scenario: 'api: table-page pipeline, /misc/dbops vs Store.page', engine: engine.name, docs: engine.docs, store: w.a, hand: w.b, target: `<=${OVERHEAD_TARGET}x`, met: engine.name === 'pg' ? ratio <= OVERHEAD_TARGET : null, notes })
    } else {
      rows.push({ scenario: 'api: table-page pipeline, /misc/dbops vs Store.page', engine: engine.name, docs: engine.docs, store: { p50: NaN, p95: NaN, n: 0 }, hand: { p50: NaN, p95: NaN, n: 0 }, target: '-', met: null, notes })
    }

    // ---- list throughput: Canopy and the peer (Directus) started and warmed, then interleaved rounds of autocannon in a child process
    const room = 'Flower Room 2'
    const myUrl = `${base}/dt/v1/${TABLE}?room=${encodeURIComponent(room)}&limit=20`
    const myIds = ids(await (await fetch(myUrl, { headers })).text())
    const missing = directusMissing(engine)
    let peer: RunningPeer | null = null
    let peerError: string | null = missing
    try {
      if (!missing) {
        try {
          peer = await startDirectus(engine, ctx.log)
        } catch (e) {
          peerError = (e as Error).message
        }
      }
      const targets: LoadTarget[] = [{ label: `Canopy (${engine.name})`, url: myUrl, headers }]
      let peerRecords = 0
      const notes: string[][] = [[`Canopy: the production Express app on this process's main thread; ${engine.name === 'pg' ? 'PostgreSQL on the same 2 cores' : 'PGlite in this process'}`]]
      if (peer) {
        const peerUrl = peer.listUrl(engine.org, room)
        const peerIds = ids(await (await fetch(peerUrl, { headers: peer.headers })).text(), 'data')
        peerRecords = peerIds.length
        targets.push({ label: peer.name, url: peerUrl, headers: peer.headers })
        notes.push([
          `${peer.name} (npm, ${directusDir()}) in its own Node process, cache and rate limiter off, admin static token; its table: the same rows as columns, index (org, cts, id)`,
          myIds.length > 0 && myIds.join() === peerIds.join() ? `same ${peerIds.length} ids in the same order as Canopy's list` : `MISMATCH: Canopy ${myIds.slice(0, 3).join(',')}… Directus ${peerIds.slice(0, 3).join(',')}…`,
        ])
      }
      const l = ctx.load
      ctx.log(`api: list call, ${targets.map((t) => t.label).join(' and ')}: ${l.rounds} interleaved rounds of ${l.seconds} s at ${l.connections} connections`)
      const r = await interleaved(targets, l, ctx.log)
      const method = `autocannon in a child process, ${l.connections} connections, ${l.rounds} rounds of ${l.seconds} s${targets.length > 1 ? ', Canopy and the peer in alternate order' : ''} after ${l.warmupSeconds} s of warm-up each; medians over the rounds`
      rows.push(throughputRow(engine, `api: GET /dt/v1 list, ${l.connections} connections`, r, 0, myIds.length, [...notes[0], method]))
      if (peer) {
        const ratio = r.ratioTo0[1]
        rows.push(throughputRow(engine, `peer: ${peer.name} GET /items list, ${l.connections} connections`, r, 1, peerRecords, [
          ...notes[1],
          `Canopy/peer (median of the per-round ratios): ${(1 / ratio.rps).toFixed(2)}x the requests/s, ${(1 / ratio.p95).toFixed(2)}x the p95`,
        ]))
      } else rows.push(throughputRow(engine, `peer: Directus GET /items list, ${l.connections} connections`, null, 0, 0, [`skipped: ${peerError}`]))
    } finally {
      await peer?.stop()
    }
  } finally {
    server.closeAllConnections()
    server.close()
    await closeScreen(engine, s)
  }
  return rows
}

/** The record ids of a list answer (Canopy: an array of documents; Directus: { data: [...] }). */
function ids(body: string | null, key?: string): string[] {
  if (!body) return []
  const v = JSON.parse(body) as unknown
  const list = (key ? (v as Record<string, unknown>)[key] : v) as Array<{ _id?: string; id?: string }>
  return Array.isArray(list) ? list.map((d) => String(d._id ?? d.id)) : []
}

/** A throughput row: the median p50 / p95 over the rounds in the store column, requests/s in the notes. */
function throughputRow(engine: Engine, scenario: string, r: Interleaved | null, i: number, records: number, notes: string[]): BenchRow {
  const none = { p50: NaN, p95: NaN, n: 0 }
  if (!r) return { scenario, engine: engine.name, docs: engine.docs, store: none, hand: none, target: '-', met: null, notes }
  const m = r.median[i]
  const runs = r.runs[i]
  const n = runs.reduce((k, x) => k + x.ok, 0)
  return {
    scenario,
    engine: engine.name,
    docs: engine.docs,
    store: { p50: m.p50, p95: m.p95, n },
    hand: none,
    target: '-',
    met: null,
    notes: [
      `${m.rps.toFixed(0)} requests/s (median; rounds: ${runs.map((x) => x.rps.toFixed(0)).join(', ')}), p50 ${m.p50.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms (medians; rounds' p95: ${runs.map((x) => x.p95.toFixed(0)).join(', ')}); ${n.toLocaleString('en-US')} answers, ${m.failed} failed or not 2xx${m.failed ? ` (${m.why})` : ''}; ${records} records an answer`,
      ...notes,
    ],
  }
}

export const apiScenario: Scenario = {
  name: 'api',
  legend: [
    'api: over HTTP to the production Express app in this process (rate limits off). Pipeline row: store = POST /misc/dbops with the SPEC §7 table-page pipeline, hand = Store.page for the same page',
    `     (exact total); target: overhead <= ${OVERHEAD_TARGET}x on PostgreSQL. Throughput rows: autocannon in a child process, interleaved rounds; median p50 / p95 in the store column, requests/s in the notes;`,
    '     the peer row: Directus (installed outside the repository, bench/README.md) serving the same rows, measured in the same rounds as Canopy.',
  ],
  async run(ctx) {
    const out: BenchRow[] = []
    for (const engine of ctx.engines) out.push(...(await run(ctx, engine)))
    return out
  },
}
