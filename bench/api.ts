/**
 * Scenario "api" (issue 7): the JSON API over real HTTP (the production Express app of
 * app/server/http.server.ts with the Remix build, on a loopback port, in this process).
 *
 * - pipeline row: the table page of SPEC §7 as an aggregation pipeline through
 *   `POST /misc/dbops?c=fac_plants&op=pipe` (active only, room contains "flower", newest planted
 *   first, $facet of 20 rows and the total) against the same page from the data layer directly
 *   (`Store.page`, exact total). Target: the API's overhead under 20 % (ratio <= 1.2) at 1M on PostgreSQL.
 * - throughput row: 50 clients at once, each sending `GET /dt/v1/fac_plants?room=…&limit=20` one
 *   after another for a fixed time; requests per second and the latency p50/p95 of every request.
 *
 * The rate limits are off for the benchmark (RATE_LIMIT_*_PER_SEC=0): they exist to stop runaway
 * clients, and 50 clients from one address would trip them by design. Uses the setup of the table
 * scenario (fac_plants is a view of the bench plants; an admin of org0). A peer (Directus) is not
 * measured: it is not installed here.
 */
import fs from 'node:fs'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ServerBuild } from '@remix-run/node'
import pino from 'pino'
import { signAccessToken } from '../app/auth/tokens.server'
import { createHttpApp } from '../app/server/http.server'
import { stats, comparePair, type BenchContext, type BenchRow, type Engine, type Scenario } from './lib'
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
      const ratio = Math.max(w.a.p50 / w.b.p50, w.a.p95 / w.b.p95)
      rows.push({ scenario: 'api: table-page pipeline, /misc/dbops vs Store.page', engine: engine.name, docs: engine.docs, store: w.a, hand: w.b, target: `<=${OVERHEAD_TARGET}x`, met: engine.name === 'pg' ? ratio <= OVERHEAD_TARGET : null, notes })
    } else {
      rows.push({ scenario: 'api: table-page pipeline, /misc/dbops vs Store.page', engine: engine.name, docs: engine.docs, store: { p50: NaN, p95: NaN, n: 0 }, hand: { p50: NaN, p95: NaN, n: 0 }, target: '-', met: null, notes })
    }

    // ---- list throughput: 50 clients, each one request after another
    ctx.log(`api: ${CLIENTS} clients for ${THROUGHPUT_SECONDS} s on ${engine.name}`)
    const url = `${base}/dt/v1/${TABLE}?room=${encodeURIComponent('Flower Room 2')}&limit=20`
    const first = await fetch(url, { headers })
    const firstBody = (await first.json()) as unknown[]
    const lat: number[] = []
    let failed = 0
    const stop = Date.now() + THROUGHPUT_SECONDS * 1000
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < stop) {
          const t = performance.now()
          const r = await fetch(url, { headers })
          await r.arrayBuffer()
          if (r.status !== 200) failed++
          lat.push(performance.now() - t)
        }
      }),
    )
    const secs = (performance.now() - t0) / 1000
    const st = stats(lat)
    rows.push({
      scenario: `api: GET /dt/v1 list, ${CLIENTS} clients`,
      engine: engine.name,
      docs: engine.docs,
      store: st,
      hand: { p50: NaN, p95: NaN, n: 0 },
      target: '-',
      met: null,
      notes: [
        `${(lat.length / secs).toFixed(0)} requests/s over ${secs.toFixed(1)} s (${lat.length.toLocaleString('en-US')} requests, ${failed} not 200); latency p50 ${st.p50.toFixed(1)} ms, p95 ${st.p95.toFixed(1)} ms; each answer ${Array.isArray(firstBody) ? firstBody.length : '?'} records (status ${first.status})`,
        'client and server share this process and its 2 cores; no peer measured (Directus is not installed here)',
      ],
    })
  } finally {
    server.closeAllConnections()
    server.close()
    await closeScreen(engine, s)
  }
  return rows
}

export const apiScenario: Scenario = {
  name: 'api',
  legend: [
    'api: over HTTP to the production Express app in this process (rate limits off). Pipeline row: store = POST /misc/dbops with the SPEC §7 table-page pipeline, hand = Store.page for the same page',
    `     (exact total); target: overhead <= ${OVERHEAD_TARGET}x on PostgreSQL. Throughput row: ${CLIENTS} clients for ${THROUGHPUT_SECONDS} s, latency of every request in the store column, requests/s in the notes.`,
  ],
  async run(ctx) {
    const out: BenchRow[] = []
    for (const engine of ctx.engines) out.push(...(await run(ctx, engine)))
    return out
  },
}
