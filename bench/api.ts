/**
 * Scenario "api" (issue 7): the JSON API over real HTTP (the production Express app of
 * app/server/http.server.ts with the Remix build, on a loopback port, in this process).
 *
 * - pipeline row: the table page of SPEC §7 as an aggregation pipeline through
 *   `POST /misc/dbops?c=fac_plants&op=pipe` (active only, room contains "flower", newest planted
 *   first, $facet of 20 rows and the total) against the same page from the data layer directly
 *   (`Store.page`, exact total). Target: the API's overhead under 20 % (ratio <= 1.2) at 1M on PostgreSQL.
 * - throughput row: 50 clients at once (in a worker thread), each sending
 *   `GET /dt/v1/fac_plants?room=…&limit=20` one after another for a fixed time; requests per second
 *   and the latency p50/p95 of every request.
 * - peer row: the same list from Directus (bench/peer-directus.ts) with the same clients, when it is
 *   installed outside the repository; otherwise the row says why it was skipped.
 *
 * The rate limits are off for the benchmark (RATE_LIMIT_*_PER_SEC=0): they exist to stop runaway
 * clients, and 50 clients from one address would trip them by design. Uses the setup of the table
 * scenario (fac_plants is a view of the bench plants; an admin of org0).
 */
import fs from 'node:fs'
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ServerBuild } from '@remix-run/node'
import pino from 'pino'
import { runPipeline } from '../app/api/pipeline/run.server'
import { signAccessToken } from '../app/auth/tokens.server'
import { createHttpApp } from '../app/server/http.server'
import { stats, comparePair, type BenchContext, type BenchRow, type Engine, type Scenario } from './lib'
import { directusDir, directusMissing, startDirectus, type RunningPeer } from './peer-directus'
import { closeScreen, prepareScreen } from './table-page'

const BUILD = path.resolve('build/index.js')
const TABLE = 'fac_plants'
const CLIENTS = 50
const THROUGHPUT_SECONDS = 10
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

    // ---- list throughput: 50 clients, each one request after another, from a worker thread
    const room = 'Flower Room 2'
    ctx.log(`api: ${CLIENTS} clients for ${THROUGHPUT_SECONDS} s on ${engine.name}`)
    const mine = await load(`${base}/dt/v1/${TABLE}?room=${encodeURIComponent(room)}&limit=20`, headers)
    const myIds = ids(mine.first)
    rows.push(throughputRow(engine, `api: GET /dt/v1 list, ${CLIENTS} clients`, mine, [
      `Canopy: the production Express app on this process's main thread; the clients in a worker thread; ${engine.name === 'pg' ? 'PostgreSQL on the same 2 cores' : 'PGlite in this process'}`,
    ]))

    // ---- the same list from the peer (Directus), when it is installed
    const missing = directusMissing(engine)
    if (missing) {
      rows.push(throughputRow(engine, `peer: Directus GET /items list, ${CLIENTS} clients`, null, [`skipped: ${missing}`]))
    } else {
      let peer: RunningPeer | null = null
      try {
        peer = await startDirectus(engine, ctx.log)
        ctx.log(`api: ${CLIENTS} clients for ${THROUGHPUT_SECONDS} s on ${peer.name}`)
        const theirs = await load(peer.listUrl(engine.org, room), peer.headers)
        const peerIds = ids(theirs.first, 'data')
        const same = myIds.length > 0 && myIds.join() === peerIds.join()
        rows.push(throughputRow(engine, `peer: ${peer.name} GET /items list, ${CLIENTS} clients`, theirs, [
          `${peer.name} (npm, ${directusDir()}) in its own Node process, cache and rate limiter off, admin static token; its table: the same rows as columns, index (org, cts, id)`,
          same ? `same ${peerIds.length} ids in the same order as Canopy's list` : `MISMATCH: Canopy ${myIds.slice(0, 3).join(',')}… Directus ${peerIds.slice(0, 3).join(',')}…`,
          `Canopy/peer: ${(mine.lat.length / mine.secs / (theirs.lat.length / theirs.secs)).toFixed(2)}x the requests/s, ${(stats(mine.lat).p95 / stats(theirs.lat).p95).toFixed(2)}x the p95`,
        ]))
      } catch (e) {
        rows.push(throughputRow(engine, `peer: Directus GET /items list, ${CLIENTS} clients`, null, [`skipped: ${(e as Error).message}`]))
      } finally {
        await peer?.stop()
      }
    }
  } finally {
    server.closeAllConnections()
    server.close()
    await closeScreen(engine, s)
  }
  return rows
}

interface Load {
  lat: number[]
  failed: number
  secs: number
  first: string | null
}

/** CLIENTS loops of GET `url` for THROUGHPUT_SECONDS, in a worker thread (bench/load-worker.mjs). */
async function load(url: string, headers: Record<string, string>): Promise<Load> {
  const w = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: { url, headers, clients: CLIENTS, seconds: THROUGHPUT_SECONDS } })
  try {
    const [out] = (await once(w, 'message')) as [Load]
    return out
  } finally {
    await w.terminate()
  }
}

/** The record ids of a list answer (Canopy: an array of documents; Directus: { data: [...] }). */
function ids(body: string | null, key?: string): string[] {
  if (!body) return []
  const v = JSON.parse(body) as unknown
  const list = (key ? (v as Record<string, unknown>)[key] : v) as Array<{ _id?: string; id?: string }>
  return Array.isArray(list) ? list.map((d) => String(d._id ?? d.id)) : []
}

function throughputRow(engine: Engine, scenario: string, l: Load | null, notes: string[]): BenchRow {
  const none = { p50: NaN, p95: NaN, n: 0 }
  if (!l) return { scenario, engine: engine.name, docs: engine.docs, store: none, hand: none, target: '-', met: null, notes }
  const st = stats(l.lat)
  const n = l.first ? (JSON.parse(l.first) as unknown) : null
  const records = Array.isArray(n) ? n.length : Array.isArray((n as { data?: unknown[] } | null)?.data) ? (n as { data: unknown[] }).data.length : '?'
  return {
    scenario,
    engine: engine.name,
    docs: engine.docs,
    store: st,
    hand: none,
    target: '-',
    met: null,
    notes: [
      `${(l.lat.length / l.secs).toFixed(0)} requests/s over ${l.secs.toFixed(1)} s (${l.lat.length.toLocaleString('en-US')} requests, ${l.failed} failed or not 200); latency p50 ${st.p50.toFixed(1)} ms, p95 ${st.p95.toFixed(1)} ms; ${records} records an answer`,
      ...notes,
    ],
  }
}

export const apiScenario: Scenario = {
  name: 'api',
  legend: [
    'api: over HTTP to the production Express app in this process (rate limits off). Pipeline row: store = POST /misc/dbops with the SPEC §7 table-page pipeline, hand = Store.page for the same page',
    `     (exact total); target: overhead <= ${OVERHEAD_TARGET}x on PostgreSQL. Throughput rows: ${CLIENTS} clients (a worker thread) for ${THROUGHPUT_SECONDS} s, latency of every request in the store column, requests/s in the notes;`,
    '     the peer row runs the same clients against Directus (installed outside the repository, bench/README.md) serving the same rows.',
  ],
  async run(ctx) {
    const out: BenchRow[] = []
    for (const engine of ctx.engines) out.push(...(await run(ctx, engine)))
    return out
  },
}
