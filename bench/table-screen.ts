/**
 * Table screen weight, render time and pages per second (issues 4 and 30), this checkout against the
 * previous release's build (bench/baseline-build.ts), side by side in one run. Each build is the
 * built server on a fresh embedded database with the demo data, signed in as the demo grower.
 * - weight: what a first visit to /culPlants (one page of 20 rows) downloads: the document, its JS
 *   and CSS, raw and gzipped at level 6 as the server compresses;
 * - render: request to last byte, one request at a time from this process, the two servers in
 *   alternate rounds after a warm-up;
 * - pages per second and p95 under load: autocannon in a child process (bench/autocannon.ts), N
 *   connections, the two servers in interleaved rounds after a warm-up run each; the requests ask for
 *   gzip, as a browser does; rate limits off (N connections of one session would trip the per-user limit).
 */
import fs from 'node:fs'
import zlib from 'node:zlib'
import { interleaved, type LoadSettings } from './autocannon'
import { prepareBaseline } from './baseline-build'
import { startBuiltServer } from './built-server'
import { percentile } from './lib'

const SCREEN = '/culPlants'
const JS_BUDGET = 100 * 1024

interface Weight {
  rows: number
  html: { raw: number; packed: number }
  js: { files: number; raw: number; packed: number }
  css: { files: number; raw: number; packed: number }
}

interface Side {
  label: string
  base: string
  cookie: string
  weight: Weight
  render: number[]
  stop: () => Promise<void>
}

const gzip = (b: Buffer) => zlib.gzipSync(b, { level: 6 }).length

async function signIn(base: string): Promise<string> {
  const login = await fetch(`${base}/Welcome`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ intent: 'login', email: 'grower@greenleaf.demo', password: 'Canopy#Demo1' }) })
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]
  if (!cookie.includes('=')) throw new Error(`signing in as the demo grower answered ${login.status} without a session cookie`)
  return cookie
}

async function weigh(base: string, cookie: string): Promise<Weight> {
  const get = (p: string) => fetch(`${base}${p}`, { headers: { cookie } })
  const res = await get(SCREEN)
  const html = await res.text()
  if (res.status !== 200) throw new Error(`${SCREEN} answered ${res.status}`)
  const scripts = new Set([...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]))
  const styles = new Set([...html.matchAll(/<link[^>]+href="(\/build\/[^"]+\.css)"/g)].map((m) => m[1]))
  const sum = async (list: Set<string>) => {
    let raw = 0
    let packed = 0
    for (const p of list) {
      const b = Buffer.from(await (await get(p)).arrayBuffer())
      raw += b.length
      packed += gzip(b)
    }
    return { files: list.size, raw, packed }
  }
  const body = /<tbody[^>]*>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? ''
  const htmlBytes = Buffer.from(html)
  return { rows: (body.match(/<tr[\s>]/g) ?? []).length, html: { raw: htmlBytes.length, packed: gzip(htmlBytes) }, js: await sum(scripts), css: await sum(styles) }
}

async function startSide(label: string, log: (m: string) => void, cwd?: string): Promise<Side> {
  // rate limits off, as for the api rows: N connections of one session would trip the per-user limit by design
  const { base, stop } = await startBuiltServer(log, `screen (${label})`, { cwd, env: { RATE_LIMIT_PER_SEC: '0', RATE_LIMIT_ADDRESS_PER_SEC: '0' } })
  try {
    const cookie = await signIn(base)
    return { label, base, cookie, weight: await weigh(base, cookie), render: [], stop }
  } catch (e) {
    await stop()
    throw e
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
const ms = (n: number) => `${n.toFixed(1)} ms`

export async function tableScreen(log: (m: string) => void, o: { baseline?: string; load: LoadSettings; iterations?: number }): Promise<string[]> {
  if (!fs.existsSync('build/server.js')) return ['table screen: skipped, run `npm run build` first']
  const iterations = o.iterations ?? 100
  const base = prepareBaseline(o.baseline, log)
  const out: string[] = []
  const sides: Side[] = []
  try {
    if ('reason' in base) out.push(`  previous release: skipped, ${base.reason}`)
    else {
      try {
        sides.push(await startSide('previous', log, base.dir))
      } catch (e) {
        out.push(`  previous release ${base.label}: skipped, its server did not serve the page: ${(e as Error).message}`)
      }
    }
    sides.push(await startSide('this checkout', log))
    const now = sides[sides.length - 1]

    // one request at a time, alternating the servers (the order swaps every round)
    const once = async (s: Side) => {
      const t = performance.now()
      await (await fetch(`${s.base}${SCREEN}`, { headers: { cookie: s.cookie } })).text()
      return performance.now() - t
    }
    for (let i = 0; i < 20; i++) for (const s of sides) await once(s)
    for (let i = 0; i < iterations; i++) for (const s of i % 2 ? [...sides].reverse() : sides) s.render.push(await once(s))
    for (const s of sides) s.render.sort((a, b) => a - b)

    const targets = sides.map((s) => ({ label: `${SCREEN} ${s.label}`, url: `${s.base}${SCREEN}`, headers: { cookie: s.cookie, 'accept-encoding': 'gzip' } }))
    const load = await interleaved(targets, { connections: o.load.connections, seconds: o.load.seconds, rounds: o.load.rounds, warmupSeconds: o.load.warmupSeconds }, log)

    const w = now.weight
    const head = `Table screen ${SCREEN}, one page of ${w.rows} rows (built server, embedded database, demo grower):`
    const figures: Array<[string, (s: Side, i: number) => number, (n: number) => string]> = [
      ['HTML document, raw', (s) => s.weight.html.raw, kb],
      ['HTML document, gzipped', (s) => s.weight.html.packed, kb],
      ['JavaScript, raw', (s) => s.weight.js.raw, kb],
      ['JavaScript, gzipped', (s) => s.weight.js.packed, kb],
      ['CSS, gzipped', (s) => s.weight.css.packed, kb],
      [`render, 1 request at a time, p50 (n=${iterations})`, (s) => percentile(s.render, 50), ms],
      [`render, 1 request at a time, p95`, (s) => percentile(s.render, 95), ms],
      [`pages/s, ${o.load.connections} connections (median of ${o.load.rounds} rounds)`, (_s, i) => load.median[i].rps, (n) => n.toFixed(0)],
      [`p50 at ${o.load.connections} connections`, (_s, i) => load.median[i].p50, ms],
      [`p95 at ${o.load.connections} connections`, (_s, i) => load.median[i].p95, ms],
    ]
    const cols = sides.length === 2 ? ['previous', 'this checkout', 'new/old'] : ['this checkout']
    const table = figures.map(([name, get, fmt]) => {
      const v = sides.map((s, i) => get(s, i))
      return [name, ...v.map(fmt), ...(v.length === 2 ? [`${(v[1] / v[0]).toFixed(2)}x`] : [])]
    })
    const widths = [0, 1, 2, 3].map((i) => Math.max(...[['figure', ...cols], ...table].map((r) => (r[i] ?? '').length)))
    const line = (r: string[]) => '  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')
    out.unshift(head)
    out.push(line(['figure', ...cols]), '  ' + widths.slice(0, cols.length + 1).map((n) => '-'.repeat(n)).join('-|-'), ...table.map(line))
    if (sides.length === 2 && !('reason' in base)) out.push(`  previous: ${base.label}, built in ${base.dir}${base.notes.length ? `; ${base.notes.join('; ')}` : ''}`)
    const failed = load.median.map((m, i) => (m.failed ? `${sides[i].label} ${m.failed} (${m.why})` : '')).filter(Boolean)
    out.push(
      `  load: autocannon in a child process, ${o.load.connections} connections, ${o.load.rounds} rounds of ${o.load.seconds} s per server after ${o.load.warmupSeconds} s of warm-up each, servers in alternate order; requests ask for gzip${failed.length ? `; failed or not 2xx: ${failed.join(', ')}` : ''}`,
      `  JavaScript target < 100 KB gzipped: ${w.js.packed < JS_BUDGET ? 'yes' : 'NO'} (decision 071, ${w.js.files} files);  render target < 30 ms (p50): ${percentile(now.render, 50) < 30 ? 'yes' : 'NO'}`,
    )
    return out
  } finally {
    for (const s of sides) await s.stop()
  }
}
