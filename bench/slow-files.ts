/**
 * What the number of script files costs a slow tablet (issue 31; `--only=files`, decision 078): the
 * built server with the demo data, the demo grower's `/culPlants` in Chromium at 6× CPU on the slow
 * line of `slow`, cold, with JavaScript. Two variants of the very same page, visited in turn:
 * - as built: the compiler's split, one module preload per file (about 30 files);
 * - one file: the same modules bundled by esbuild into one file (`public/build/bench-one-file-*.js`,
 *   removed afterwards; the page's later imports, its lazy parts, stay files of their own and would
 *   load the built files they share, so only the visit up to hydration is compared), the page's
 *   preload links left in place but inert (`rel` changed: React hydrates the same elements) and its
 *   module script importing the route modules from that file.
 * Each variant is served by a small proxy in front of the server (its own port), which answers the
 * page with the variant's HTML (gzipped, as the server sends it) and passes every other request on:
 * the document and the scripts both come through the throttled line. (A document fulfilled by the
 * browser's request interception skips the throttling and skews the first paint.) A console error (a
 * hydration that did not match, a second React) stops the scenario: the comparison would be void.
 * Printed per variant (p50): script files fetched before hydration, their bytes on the wire, content
 * painted (the later of the first contentful paint and the frame after the first row was inserted),
 * hydrated, and the main thread's busy time up to the read (Chromium's TaskDuration; its script share).
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import zlib from 'node:zlib'
import esbuild from 'esbuild'
import { stats } from './lib'
import { MARKS, NET, RATE, RUNS, withDemoGrowerBrowser } from './slow-device'

const PUBLIC = path.resolve('public')

const MODULE_SCRIPT = /(<script[^>]*type="module"[^>]*>)([\s\S]*?)(<\/script>)/

/** Bundles what the page's module script imports into one file under public/build; its address. */
async function bundleOf(html: string): Promise<{ url: string; file: string }> {
  const inline = MODULE_SCRIPT.exec(html)?.[2]
  const boot = inline && /import\("([^"]+)"\);/.exec(inline)?.[1]
  if (!inline || !boot) throw new Error("the page's module script has changed: update bench/slow-files.ts")
  const routes = [...inline.matchAll(/import \* as (route\d+) from "([^"]+)";/g)]
  const entry = routes.map(([, name, url]) => `export * as ${name} from "${url}";`).join('\n') + `\nexport const boot = () => import("${boot}");\n`
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: PUBLIC, sourcefile: 'bench-one-file-entry.js' },
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    plugins: [
      {
        name: 'built-files',
        setup(b) {
          // the built files import each other by their address; a lazy part's import stays an address
          b.onResolve({ filter: /^\/build\// }, (a) => (a.kind === 'dynamic-import' && a.path !== boot ? { path: a.path, external: true } : { path: path.join(PUBLIC, a.path) }))
        },
      },
    ],
  })
  const name = `bench-one-file-${process.pid}.js`
  const file = path.join(PUBLIC, 'build', name)
  fs.writeFileSync(file, result.outputFiles[0].contents)
  return { url: `/build/${name}`, file }
}

/** The page with its preloads inert and its module script taking the route modules and the boot from `url`. */
function oneFilePage(html: string, url: string): string {
  return html
    .replace(/<link rel="modulepreload" href="([^"]*)"\/>/g, '<link rel="bench-inert" href="$1"/>')
    .replace('</head>', `<link rel="modulepreload" href="${url}"/></head>`)
    .replace(MODULE_SCRIPT, (_m, open: string, body: string, close: string) => {
      const names = [...body.matchAll(/import \* as (route\d+) from "[^"]+";/g)].map((m) => m[1])
      const rest = body.replace(/import \* as route\d+ from "[^"]+";/g, '').replace(/import\("[^"]+"\);/, 'boot();')
      return `${open}import { ${names.join(', ')}, boot } from "${url}";${rest}${close}`
    })
}

/** A proxy to `upstream` on a free loopback port that answers GET `page` with `html(upstream's HTML)`. */
async function pageProxy(upstream: string, page: string, html: (h: string) => string): Promise<{ base: string; close: () => Promise<void> }> {
  const up = new URL(upstream)
  const server = http.createServer((req, res) => {
    const rewrite = req.method === 'GET' && req.url === page
    const headers = { ...req.headers, host: up.host, ...(rewrite ? { 'accept-encoding': 'identity' } : {}) }
    const out = http.request({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers }, (r) => {
      if (!rewrite || r.statusCode !== 200) {
        res.writeHead(r.statusCode ?? 502, r.headers)
        r.pipe(res)
        return
      }
      const chunks: Buffer[] = []
      r.on('data', (c: Buffer) => chunks.push(c))
      r.on('end', () => {
        const body = zlib.gzipSync(html(Buffer.concat(chunks).toString('utf8')))
        const { 'content-length': _l, 'content-encoding': _e, 'transfer-encoding': _t, ...rest } = r.headers
        res.writeHead(200, { ...rest, 'content-encoding': 'gzip', 'content-length': String(body.length) })
        res.end(body)
      })
    })
    out.on('error', () => res.destroy())
    req.pipe(out)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }) }
}

interface Visit { files: number; bytes: number; content: number; hydrated: number; busy: number; script: number }

export function slowFiles(log: (m: string) => void): Promise<string[]> {
  return withDemoGrowerBrowser(log, 'slow device, script files', async (browser, base, cookies) => {
    const first = await browser.newContext({ baseURL: base })
    await first.addCookies(cookies)
    const res = await first.request.get('/culPlants')
    if (!res.ok()) throw new Error(`/culPlants answered ${res.status()}`)
    const html = await res.text()
    await first.close()
    const bundle = await bundleOf(html)
    const variants: { what: string; proxy?: Awaited<ReturnType<typeof pageProxy>> }[] = [{ what: 'as built' }, { what: 'one file' }]
    try {
      variants[0].proxy = await pageProxy(base, '/culPlants', (h) => h)
      variants[1].proxy = await pageProxy(base, '/culPlants', (h) => oneFilePage(h, bundle.url))
      const visits = new Map<string, Visit[]>(variants.map((v) => [v.what, []]))
      for (let i = 0; i < RUNS; i++) {
        for (const v of i % 2 ? [...variants].reverse() : variants) {
          // the sign-in cookie is the loopback host's, whatever the port
          const ctx = await browser.newContext({ baseURL: v.proxy!.base, viewport: { width: 800, height: 1280 } })
          try {
            await ctx.addCookies(cookies)
            const page = await ctx.newPage()
            const errors: string[] = []
            page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
            page.on('pageerror', (e) => errors.push(String(e)))
            await page.addInitScript(MARKS, 'table.data-table tbody tr')
            const cdp = await ctx.newCDPSession(page)
            await cdp.send('Network.enable')
            await cdp.send('Performance.enable')
            await cdp.send('Network.emulateNetworkConditions', NET)
            await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE })
            await page.goto('/culPlants', { waitUntil: 'load' })
            await page.waitForFunction(() => { const w = window as unknown as { __content: number; __hydrated: number }; return w.__content > 0 && w.__hydrated > 0 }, undefined, { timeout: 60_000 })
            const { metrics } = await cdp.send('Performance.getMetrics')
            const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]))
            const t = await page.evaluate(() => {
              const w = window as unknown as { __content: number; __hydrated: number }
              const js = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.name.endsWith('.js') && r.startTime < w.__hydrated)
              // the frame after the row was inserted may still be laid out for a while: painted no sooner than the first contentful paint
              const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0
              return { content: Math.max(w.__content, fcp), hydrated: w.__hydrated, files: js.length, bytes: js.reduce((s, r) => s + r.encodedBodySize, 0) }
            })
            if (errors.length) throw new Error(`${v.what}: the page logged an error, the comparison is void: ${errors[0].slice(0, 200)}`)
            visits.get(v.what)!.push({ ...t, busy: m.TaskDuration * 1000, script: m.ScriptDuration * 1000 })
          } finally {
            await ctx.close()
          }
        }
      }
      const p50 = (xs: number[]) => stats(xs).p50
      const out = [`Script files on the slow device (/culPlants, JS on, CPU ${RATE}x, 1.6 Mbps / 150 ms, cold; ${RUNS} visits each, interleaved; p50, ms from navigation start)`]
      out.push(`  ${'variant'.padEnd(10)} ${'files'.padStart(6)} ${'KB'.padStart(7)} ${'content'.padStart(8)} ${'hydrated'.padStart(9)} ${'busy'.padStart(7)} ${'script'.padStart(7)}`)
      for (const [what, vs] of visits) {
        out.push(`  ${what.padEnd(10)} ${String(p50(vs.map((v) => v.files))).padStart(6)} ${(p50(vs.map((v) => v.bytes)) / 1024).toFixed(1).padStart(7)} ${p50(vs.map((v) => v.content)).toFixed(0).padStart(8)} ${p50(vs.map((v) => v.hydrated)).toFixed(0).padStart(9)} ${p50(vs.map((v) => v.busy)).toFixed(0).padStart(7)} ${p50(vs.map((v) => v.script)).toFixed(0).padStart(7)}`)
      }
      out.push('  busy: the main thread\'s task time until the read (just after hydration); script: the part of it running JavaScript')
      return out
    } finally {
      for (const v of variants) await v.proxy?.close()
      fs.rmSync(bundle.file, { force: true })
    }
  })
}
