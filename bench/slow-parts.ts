/**
 * Where a slow tablet's time goes on the table page (issue 31; `--only=parts`): the built server with
 * the demo data, the demo grower's `/culPlants` as the server sends it, set again and again into the
 * body of an open page with one part of it left out, in Chromium at 6× CPU. Each time: the parse
 * (setting the body's markup), style and layout (one forced layout) and the next frame (paint),
 * from the page's own clock. The variants run in interleaved rounds (each round every variant once)
 * and the medians are printed beside the whole page, so a part's share is what leaving it out saves.
 * No network and no script of ours in the measured page (the page's own scripts are not loaded):
 * only the browser's work for the markup. `BENCH_PARTS_ROUNDS` rounds (default 15).
 */
import { stats } from './lib'
import { RATE, withDemoGrowerBrowser } from './slow-device'

const ROUNDS = Number(process.env.BENCH_PARTS_ROUNDS ?? 15)

/** What each variant leaves out of the page's body (a selector; '' = the whole page). */
const PARTS: { what: string; drop: string }[] = [
  { what: 'the whole page', drop: '' },
  { what: 'without the 20 rows', drop: 'table.data-table tbody tr' },
  { what: "without the rows' action cells", drop: 'table.data-table td.stick-end' },
  { what: "without the rows' yes/no toggles", drop: 'table.data-table tbody form' },
  { what: "without the headers' icon links", drop: 'table.data-table thead a.icon-btn' },
  { what: 'without any icon (svg + use)', drop: 'svg:has(> use)' },
  { what: 'without the icon sprite (uses draw nothing)', drop: 'body > svg:has(> defs)' },
  { what: 'without the toolbar', drop: '[role="toolbar"][aria-label="Table tools"]' },
  { what: 'without the menu drawer', drop: '#nav-drawer' },
]

interface Timing { parse: number; layout: number; frame: number; elements: number; bytes: number }

export function slowParts(log: (m: string) => void): Promise<string[]> {
  return withDemoGrowerBrowser(log, 'slow device, by part', async (browser, base, cookies) => {
    const ctx = await browser.newContext({ baseURL: base, viewport: { width: 800, height: 1280 } })
    await ctx.addCookies(cookies)
    const page = await ctx.newPage()
    const res = await page.request.get('/culPlants')
    if (!res.ok()) throw new Error(`/culPlants answered ${res.status()}`)
    const html = await res.text()
    // the page with its stylesheet but none of its scripts (no inline one either: the boot watchdog
    // would reload a page whose scripts never came), served at an address of its own
    const still = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '')
    await page.route('**/__bench-parts', (r) => r.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: still }))
    await page.route('**/*.js', (r) => r.abort())
    await page.goto('/__bench-parts', { waitUntil: 'load' })
    const missing = await page.evaluate(
      ({ html, drops }) => {
        const doc = new DOMParser().parseFromString(html, 'text/html')
        return drops.filter((d) => d && !doc.querySelector(d))
      },
      { html, drops: PARTS.map((p) => p.drop) },
    )
    if (missing.length) throw new Error(`the page has no ${missing.join(', ')}: update bench/slow-parts.ts`)
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE })
    const times = new Map<string, Timing[]>()
    for (let round = 0; round < ROUNDS; round++) {
      for (const p of PARTS) {
        const t = await page.evaluate(
          async ({ html, drop }) => {
            const doc = new DOMParser().parseFromString(html, 'text/html')
            if (drop) doc.querySelectorAll(drop).forEach((e) => e.remove())
            const markup = doc.body.innerHTML
            document.body.innerHTML = ''
            void document.body.offsetHeight
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)))
            const t0 = performance.now()
            document.body.innerHTML = markup
            const t1 = performance.now()
            void document.body.offsetHeight
            const t2 = performance.now()
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
            const t3 = performance.now()
            return { parse: t1 - t0, layout: t2 - t1, frame: t3 - t2, elements: document.body.querySelectorAll('*').length, bytes: markup.length }
          },
          { html, drop: p.drop },
        )
        times.set(p.what, [...(times.get(p.what) ?? []), t])
      }
      log(`slow device, by part: round ${round + 1}/${ROUNDS}`)
    }
    const p50 = (xs: number[]) => stats(xs).p50
    const whole = p50(times.get(PARTS[0].what)!.map((t) => t.parse + t.layout + t.frame))
    const out = [`Slow device, by part (Chromium, CPU ${RATE}x slower; /culPlants's markup set into the page again with one part left out; ${ROUNDS} interleaved rounds, p50 ms)`]
    out.push(`  ${'variant'.padEnd(46)} ${'elements'.padStart(8)} ${'bytes'.padStart(8)} ${'parse'.padStart(6)} ${'style+layout'.padStart(12)} ${'frame'.padStart(6)} ${'total'.padStart(6)} ${'saves'.padStart(6)}`)
    for (const p of PARTS) {
      const ts = times.get(p.what)!
      const total = p50(ts.map((t) => t.parse + t.layout + t.frame))
      const saves = p.drop ? `${(100 * (1 - total / whole)).toFixed(0)}%` : '-'
      out.push(`  ${p.what.padEnd(46)} ${String(ts[0].elements).padStart(8)} ${String(ts[0].bytes).padStart(8)} ${p50(ts.map((t) => t.parse)).toFixed(0).padStart(6)} ${p50(ts.map((t) => t.layout)).toFixed(0).padStart(12)} ${p50(ts.map((t) => t.frame)).toFixed(0).padStart(6)} ${total.toFixed(0).padStart(6)} ${saves.padStart(6)}`)
    }
    return out
  })
}
