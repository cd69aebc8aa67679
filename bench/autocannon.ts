/**
 * The out-of-process load generator (issue 30 item 5): each run is autocannon in a child process
 * (bench/load-autocannon.mjs), so the clients never share an event loop with the bench or with the
 * server under load (they still share the machine's cores). `interleaved` measures two or more
 * servers in turns, A, B, A, B…, after a warm-up run of each, and takes the median over the rounds.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-autocannon.mjs')

export interface LoadRun {
  /** answers with a 2xx status */
  ok: number
  /** answers with another status, connection errors and timeouts */
  failed: number
  /** the failures by status code, `errors` and `timeouts` */
  why: Record<string, number>
  secs: number
  /** 2xx answers per second */
  rps: number
  p50: number
  p95: number
  bytes: number
}

export interface LoadTarget {
  label: string
  url: string
  headers?: Record<string, string>
}

export interface LoadOptions {
  connections: number
  seconds: number
}

/** One autocannon run against `t`, in a child process. */
export function loadRun(t: LoadTarget, o: LoadOptions): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const arg = JSON.stringify({ url: t.url, headers: t.headers ?? {}, connections: o.connections, seconds: o.seconds })
    const child = spawn(process.execPath, [CHILD, arg], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (b) => (out += b))
    child.stderr.on('data', (b) => (err = (err + b).slice(-2000)))
    child.on('error', reject)
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? ''
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`autocannon against ${t.label} exited with ${code}: ${err.trim().slice(-400)}`))
      resolve(JSON.parse(line) as LoadRun)
    })
  })
}

export interface Interleaved {
  /** per target, in the order given: every timed round */
  runs: LoadRun[][]
  /** per target: the median over the rounds of requests/s, p50 and p95 */
  median: Array<{ rps: number; p50: number; p95: number; failed: number; why: string }>
  /** target i against target 0, the median of the per-round ratios */
  ratioTo0: Array<{ rps: number; p95: number }>
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/**
 * Warm-up: one untimed run of each target (`warmupSeconds`). Then `rounds` rounds, each one run of
 * every target in turn; the order alternates between rounds (A B, B A, …) so neither side always
 * follows the other.
 */
export async function interleaved(targets: LoadTarget[], o: LoadOptions & { rounds: number; warmupSeconds: number }, log: (m: string) => void): Promise<Interleaved> {
  for (const t of targets) {
    log(`load: warming ${t.label} (${o.warmupSeconds} s, ${o.connections} connections)`)
    await loadRun(t, { connections: o.connections, seconds: o.warmupSeconds })
  }
  const runs: LoadRun[][] = targets.map(() => [])
  for (let r = 0; r < o.rounds; r++) {
    const order = targets.map((_, i) => i)
    if (r % 2 === 1) order.reverse()
    for (const i of order) {
      const run = await loadRun(targets[i], o)
      runs[i].push(run)
      log(`load: round ${r + 1}/${o.rounds} ${targets[i].label}: ${run.rps.toFixed(0)} requests/s, p95 ${run.p95?.toFixed(1)} ms${run.failed ? `, ${run.failed} failed` : ''}`)
    }
  }
  return {
    runs,
    median: runs.map((rs) => ({ rps: median(rs.map((x) => x.rps)), p50: median(rs.map((x) => x.p50)), p95: median(rs.map((x) => x.p95)), failed: rs.reduce((n, x) => n + x.failed, 0), why: failures(rs) })),
    ratioTo0: runs.map((rs) => ({ rps: median(rs.map((x, k) => x.rps / runs[0][k].rps)), p95: median(rs.map((x, k) => x.p95 / runs[0][k].p95)) })),
  }
}

/** e.g. "429: 54, errors: 2" over all the runs, or '' */
function failures(runs: LoadRun[]): string {
  const sum: Record<string, number> = {}
  for (const r of runs) for (const [k, n] of Object.entries(r.why ?? {})) sum[k] = (sum[k] ?? 0) + n
  return Object.entries(sum).map(([k, n]) => `${k}: ${n}`).join(', ')
}

/** Options shared by the scenarios that use the generator: `--load-*` flags (bench/run.ts). */
export interface LoadSettings {
  connections: number
  seconds: number
  rounds: number
  warmupSeconds: number
}
