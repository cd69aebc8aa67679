/**
 * Table screen weight and render time (issue 4): the built server on a fresh embedded database,
 * signed in as the demo grower; what a first visit to /culPlants downloads (JS and CSS,
 * gzip level 6 as the server compresses), and how long the server takes to answer it warm.
 */
import fs from 'node:fs'
import zlib from 'node:zlib'
import { startBuiltServer } from './built-server'
import { percentile } from './lib'

const SCREEN = '/culPlants'

export async function tableScreen(log: (m: string) => void, iterations = 100): Promise<string[]> {
  if (!fs.existsSync('build/server.js')) return ['table screen: skipped, run `npm run build` first']
  const { base, stop } = await startBuiltServer(log, 'table screen')
  try {
    const login = await fetch(`${base}/Welcome`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ intent: 'login', email: 'grower@greenleaf.demo', password: 'Canopy#Demo1' }) })
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]
    const get = (p: string) => fetch(`${base}${p}`, { headers: { cookie } })
    const html = await (await get(SCREEN)).text()
    const scripts = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/build\/[^"]+\.js)"/g)].map((m) => m[1])
    const styles = [...html.matchAll(/<link[^>]+href="(\/build\/[^"]+\.css)"/g)].map((m) => m[1])
    const gz = async (list: string[]) => {
      let raw = 0
      let packed = 0
      for (const p of new Set(list)) {
        const b = Buffer.from(await (await get(p)).arrayBuffer())
        raw += b.length
        packed += zlib.gzipSync(b, { level: 6 }).length
      }
      return { raw, packed }
    }
    const js = await gz(scripts)
    const css = await gz(styles)
    const docGz = zlib.gzipSync(Buffer.from(html), { level: 6 }).length
    for (let i = 0; i < 20; i++) await (await get(SCREEN)).text()
    const t: number[] = []
    for (let i = 0; i < iterations; i++) {
      const s = performance.now()
      await (await get(SCREEN)).text()
      t.push(performance.now() - s)
    }
    t.sort((a, b) => a - b)
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
    return [
      `Table screen ${SCREEN} (embedded database, demo grower, ${iterations} warm requests over loopback):`,
      `  JavaScript: ${new Set(scripts).size} files, ${kb(js.raw)} raw, ${kb(js.packed)} gzipped   target < 100 KB gzipped: ${js.packed < 100 * 1024 ? 'yes' : 'NO'} (decision 071)`,
      `  CSS: ${new Set(styles).size} files, ${kb(css.raw)} raw, ${kb(css.packed)} gzipped;  HTML: ${kb(html.length)} raw, ${kb(docGz)} gzipped`,
      `  server render (request to last byte): p50 ${percentile(t, 50).toFixed(2)} ms, p95 ${percentile(t, 95).toFixed(2)} ms   target < 30 ms: ${percentile(t, 50) < 30 ? 'yes' : 'NO'} (p50)`,
    ]
  } finally {
    await stop()
  }
}
