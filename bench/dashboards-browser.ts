/**
 * The dashboards in Chromium on a slow CPU (issue 25): the built server on a fresh embedded database
 * with the demo data, the demo admin signed in, DevTools' CPU throttling at 6×; for each dashboard,
 * warm (two untimed visits first), the time from navigation start until its charts are visible
 * (the first frame after the last chart's SVG was parsed), read from the page's own clock.
 * Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium), never a downloaded browser.
 */
import fs from 'node:fs'
import { chromium } from '@playwright/test'
import { startBuiltServer } from './built-server'
import { stats, type BenchRow, type Stats } from './lib'

const BOARDS = ['/DshPlants', '/DshHarvests', '/DshCompliance', '/DshCultivation']
const RATE = 6
const RUNS = Number(process.env.BENCH_DASH_BROWSER_RUNS ?? 7)
const NONE: Stats = { p50: NaN, p95: NaN, n: 0 }

export async function chromiumTimes(log: (m: string) => void): Promise<BenchRow[]> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!fs.existsSync('build/server.js') || !fs.existsSync(executablePath)) {
    log('dash (Chromium): skipped, needs `npm run build` and Chromium')
    return []
  }
  const { base, stop } = await startBuiltServer(log, 'dash (Chromium)')
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] }).catch(async (e: Error) => {
    await stop()
    throw e
  })
  try {
    const page = await browser.newPage({ baseURL: base, viewport: { width: 1280, height: 800 } })
    await page.goto('/Welcome')
    await page.getByLabel('Email').fill('admin@greenleaf.demo')
    await page.getByLabel('Password', { exact: true }).fill('Canopy#Demo1')
    await page.getByRole('button', { name: 'Login' }).click()
    // the demo admin works in two facilities: pick Greenleaf
    const pick = page.getByRole('button', { name: /^Greenleaf/ })
    await page.getByRole('region', { name: 'Signed in' }).or(pick).first().waitFor()
    if (await pick.isVisible()) await pick.click()
    await page.getByRole('region', { name: 'Signed in' }).waitFor()
    // when the charts are painted: the frame after the parser inserted the last chart's SVG (read
    // from the page's clock, so the time the test runner needs to ask is not counted)
    await page.addInitScript(() => {
      const w = window as unknown as { __charts: number; __chartsAt: number }
      w.__charts = 0
      w.__chartsAt = 0
      new MutationObserver(() => {
        const n = document.querySelectorAll('[data-testid="chart"] svg').length
        if (n > w.__charts) {
          w.__charts = n
          requestAnimationFrame((t) => {
            if (w.__charts === n) w.__chartsAt = t
          })
        }
      }).observe(document, { childList: true, subtree: true })
    })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE })
    const rows: BenchRow[] = []
    for (const board of BOARDS) {
      const times: number[] = []
      for (let i = 0; i < RUNS + 2; i++) {
        await page.goto(`${board}?range=last-30-days`, { waitUntil: 'load' })
        const charts = await page.locator('[data-testid="chart"] svg').count()
        if (!charts) throw new Error(`${board}: no chart`)
        const ms = Number(await page.waitForFunction((n) => { const w = window as unknown as { __charts: number; __chartsAt: number }; return w.__charts >= n && w.__chartsAt > 0 && w.__chartsAt }, charts).then((h) => h.jsonValue()))
        if (i >= 2) times.push(ms)
      }
      const s = stats(times)
      log(`dash (Chromium): ${board} charts visible p50 ${s.p50.toFixed(0)} ms`)
      rows.push({ scenario: `dash: ${board} charts visible, CPU ${RATE}x slower`, engine: 'pglite', docs: 0, store: s, hand: NONE, target: '<1500ms', met: s.p50 < 1500, notes: [`${RUNS} warm visits in Chromium with CPU throttling ${RATE}x (demo data, embedded database): navigation start to the charts' SVG visible, p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms`] })
    }
    return rows
  } finally {
    await browser.close()
    await stop()
  }
}
