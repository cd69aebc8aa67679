/**
 * Scenario "relay" (issue 30 "Done when": two-process event relay latency), PostgreSQL only.
 *
 * Two built servers (`build/server.js`, processes A and B) on one fresh schema,
 * `<bench schema>_relay`, each with its own embedded broker and DATA_DIR, no external broker: a
 * change made through A reaches B's pages only by LISTEN/NOTIFY (app/events/pg-relay.server.ts,
 * decision 066). Started together with the demo data (one seeds, the other waits), as
 * tests/integration/two-processes.test.ts starts them.
 *
 * The demo grower has an event stream open on each process. Each write is a
 * `POST /dt/v1/fac_harvests` through A's API (the grower's access token); timed from just before the
 * request to the arrival of the `table` event for fac_harvests:
 * - store column: on B's stream (A's commit → NOTIFY → B's listener → B's hub → SSE);
 * - hand column: on A's own stream (A's commit → A's embedded broker → A's hub → SSE), the
 *   one-process path, in the same writes.
 * The notes give the write's own response time. The schema is dropped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort } from './built-server'
import { openEventStream } from './event-stream'
import { stats, type BenchContext, type BenchRow, type Scenario, type Stats } from './lib'

const WRITES = 50
const WARMUP = 5
const WAIT_MS = 5000
const NONE: Stats = { p50: NaN, p95: NaN, n: 0 }
const GROWER = { email: 'grower@greenleaf.demo', password: 'Canopy#Demo1' }

interface Proc {
  base: string
  child: ChildProcess
  out: () => string
  dir: string
}

async function startProc(url: string, log: (m: string) => void, label: string): Promise<Proc> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-relay-'))
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production' as const,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: url,
    DATA_DIR: dir,
    DEMO_DATA: '1',
    DB_POOL_MAX: '4',
    MQTT_PORT: '0',
    MQTT_WS_PORT: '0',
    DEMO_DEVICES: '0',
    METRC_EMULATOR_PORT: '0',
    METRC_SYNC_DATA_MIN: '0',
    RATE_LIMIT_PER_SEC: '0',
    RATE_LIMIT_ADDRESS_PER_SEC: '0',
  }
  const child = spawn(process.execPath, ['build/server.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let buf = ''
  const keep = (b: Buffer) => (buf = (buf + b.toString()).slice(-20_000))
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  log(`relay: starting process ${label} on port ${port}`)
  return { base: `http://127.0.0.1:${port}`, child, out: () => buf, dir }
}

async function ready(p: Proc, label: string) {
  const end = Date.now() + 240_000
  while (!/Canopy listening on/.test(p.out())) {
    if (p.child.exitCode !== null) throw new Error(`process ${label} exited with ${p.child.exitCode}: ${p.out().slice(-500)}`)
    if (Date.now() > end) throw new Error(`process ${label} did not listen within 240 s: ${p.out().slice(-500)}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

async function stopProc(p: Proc) {
  if (p.child.exitCode === null && p.child.signalCode === null) {
    p.child.kill('SIGTERM')
    const t = setTimeout(() => p.child.kill('SIGKILL'), 10_000)
    await once(p.child, 'exit').catch(() => {})
    clearTimeout(t)
  }
  fs.rmSync(p.dir, { recursive: true, force: true })
}

async function signIn(base: string): Promise<string> {
  const r = await fetch(`${base}/Welcome`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ intent: 'login', ...GROWER }) })
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0]
  if (!cookie.includes('=')) throw new Error(`signing in on ${base} answered ${r.status} without a cookie`)
  return cookie
}

/** The grower's event stream; `onHarvests` gets the arrival time of each fac_harvests `table` event. */
const openStream = (base: string, cookie: string, onHarvests: (at: number) => void) =>
  openEventStream(base, { cookie }, (frame, at) => {
    if (/event: table\ndata: \{"collection":"fac_harvests"\}/.test(frame)) onHarvests(at)
  })

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const engine = ctx.engines.find((e) => e.pg)
  const scenario = `relay: write through process A → table event on SSE, ${WRITES} writes`
  const skipped = (why: string): BenchRow[] => [{ scenario, engine: 'pg', docs: 0, store: NONE, hand: NONE, target: '-', met: null, notes: [`skipped: ${why}`] }]
  if (!engine?.pg) return skipped('needs PostgreSQL (--engines=pg): an embedded database serves one process')
  if (!fs.existsSync('build/server.js')) return skipped('run `npm run build` first')
  const schema = `${engine.pg.schema}_relay`
  const admin = new pg.Client({ connectionString: engine.pg.url })
  await admin.connect()
  const procs: Proc[] = []
  const streams: http.ClientRequest[] = []
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await admin.query(`CREATE SCHEMA ${schema}`)
    const u = new URL(engine.pg.url)
    u.searchParams.set('options', `-c search_path=${schema},public`)
    const t0 = Date.now()
    procs.push(await startProc(u.toString(), ctx.log, 'A'), await startProc(u.toString(), ctx.log, 'B'))
    await Promise.all(procs.map((p, i) => ready(p, 'AB'[i])))
    ctx.log(`relay: both processes listen (${((Date.now() - t0) / 1000).toFixed(1)} s, demo data seeded once)`)
    const [a, b] = procs

    const arrivals = { a: [] as number[], b: [] as number[] }
    let current = -1
    const at = { a: new Map<number, number>(), b: new Map<number, number>() }
    for (const [side, p] of [['a', a], ['b', b]] as const) {
      const cookie = await signIn(p.base)
      streams.push(
        await openStream(p.base, cookie, (t) => {
          arrivals[side].push(t)
          if (current >= 0 && !at[side].has(current)) at[side].set(current, t)
        }),
      )
    }
    const login = await fetch(`${a.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(GROWER) })
    const token = ((await login.json()) as Record<string, string>)['x-access-token']
    if (!token) throw new Error(`the grower's API sign-in on A answered ${login.status} without a token`)

    const lat = { a: [] as number[], b: [] as number[], write: [] as number[], afterA: [] as number[], afterB: [] as number[] }
    let missing = { a: 0, b: 0 }
    for (let w = 0; w < WARMUP + WRITES; w++) {
      current = w
      const t = performance.now()
      const r = await fetch(`${a.base}/dt/v1/fac_harvests`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': token }, body: JSON.stringify({ name: `Bench relay ${w}` }) })
      const answered = performance.now()
      if (r.status >= 300) throw new Error(`POST /dt/v1/fac_harvests on A answered ${r.status}: ${(await r.text()).slice(0, 300)}`)
      await r.arrayBuffer()
      const end = Date.now() + WAIT_MS
      while ((!at.a.has(w) || !at.b.has(w)) && Date.now() < end) await new Promise((res) => setTimeout(res, 1))
      if (w >= WARMUP) {
        lat.write.push(answered - t)
        for (const side of ['a', 'b'] as const) {
          const got = at[side].get(w)
          if (got === undefined) missing = { ...missing, [side]: missing[side] + 1 }
          else {
            lat[side].push(got - t)
            lat[side === 'a' ? 'afterA' : 'afterB'].push(got - answered)
          }
        }
      }
      current = -1
      await new Promise((res) => setTimeout(res, 100)) // a late or doubled event is not taken for the next write's
    }
    const sb = stats(lat.b)
    const sa = stats(lat.a)
    const sw = stats(lat.write)
    const lag = (v: number[]) => `p50 ${stats(v).p50.toFixed(1)} / p95 ${stats(v).p95.toFixed(1)} ms`
    const relayed = /committed changes are shared with the other processes/.test(a.out() + b.out())
    return [
      {
        scenario,
        engine: 'pg',
        docs: 0,
        store: sb,
        hand: sa,
        target: '-',
        met: null,
        notes: [
          `store = the event on process B's stream (crossed by LISTEN/NOTIFY), hand = on process A's own stream (its embedded broker), from the same ${WRITES} writes after ${WARMUP} untimed; timed from just before the POST`,
          `B: p50 ${sb.p50.toFixed(1)} ms, p95 ${sb.p95.toFixed(1)} ms, ${missing.b} missing after ${WAIT_MS / 1000} s; A: p50 ${sa.p50.toFixed(1)} ms, p95 ${sa.p95.toFixed(1)} ms, ${missing.a} missing; the write's own answer p50 ${sw.p50.toFixed(1)} ms, p95 ${sw.p95.toFixed(1)} ms`,
          `the event after the write's answer reached the client (negative: before it): on B ${lag(lat.afterB)}, on A ${lag(lat.afterA)}`,
          `two built servers on schema ${schema}, each with its own embedded broker and DATA_DIR; ${relayed ? 'both logged that committed changes are shared' : 'NO "committed changes are shared" line in their logs'}; events seen on B: ${arrivals.b.length}, on A: ${arrivals.a.length}`,
        ],
      },
    ]
  } catch (e) {
    return skipped((e as Error).message)
  } finally {
    for (const s of streams) s.destroy()
    for (const p of procs) await stopProc(p)
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {})
    await admin.end()
  }
}

export const relayScenario: Scenario = {
  name: 'relay',
  legend: [
    'relay: two built server processes on one PostgreSQL schema, no external broker; a write through A\'s API, timed to the table event on B\'s event stream (store, by LISTEN/NOTIFY)',
    '       and on A\'s own stream (hand, the one-process path), in the same writes; ratio = two processes / one. No target.',
  ],
  run,
}
