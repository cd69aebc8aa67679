/**
 * A cheap tablet on a slow line (issue 31): the built server on a fresh embedded database with the
 * demo data, the demo grower signed in, Chromium with DevTools' CPU throttling at 6× and the network
 * at 1.6 Mbps down / 750 kbps up with 150 ms latency, a cold cache every visit (a new browser context
 * with only the sign-in cookie). For a table, a record form and a dashboard, side by side with
 * JavaScript off and on: first contentful paint, the content painted (the table's first row, the
 * form's first field, the dashboard's first chart: with JavaScript the later of the first contentful
 * paint and the frame after the parser inserted it (that frame's start: it may be laid out for long
 * after, so never before the first paint); without, where no script of ours runs in the page, the
 * later of the first contentful paint and the document parsed) and, with JavaScript, hydrated (the
 * shell's menu button swapped in by React).
 * Read from the page's own clock (navigation start = 0). Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 * Targets: content painted under 1 s and hydrated under 1.5 s, cold, at 6× CPU.
 */
import fs from 'node:fs'
import { chromium, type Browser } from '@playwright/test'
import { startBuiltServer } from './built-server'
import { stats } from './lib'

const PAGES = [
  { what: 'table', path: '/culPlants', content: 'table.data-table tbody tr' },
  { what: 'record form', path: '/culPlants/new', content: 'input[name="tag"]' },
  { what: 'dashboard', path: '/DshCultivation', content: '[data-testid="chart"] svg' },
]
/** The slow tablet, shared by the scenarios that visit pages on it (slow-files.ts too). */
export const RATE = 6
export const RUNS = Number(process.env.BENCH_SLOW_RUNS ?? 5)
export const NET = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 }

interface Visit { fcp: number; content: number; hydrated: number }

/**
 * The page's own clock: when the content and the hydrated shell were first in a painted frame. Runs in
 * the page (an init script): no named inner functions, which the bench's TypeScript loader would wrap
 * in a helper the page does not have.
 */
export const MARKS = (content: string) => {
  const w = window as unknown as { __content: number; __hydrated: number }
  w.__content = 0
  w.__hydrated = 0
  new MutationObserver(() => {
    if (!w.__content && document.querySelector(content)) requestAnimationFrame((t) => void (w.__content ||= t))
    if (!w.__hydrated && document.querySelector('button#menu-toggle')) requestAnimationFrame((t) => void (w.__hydrated ||= t))
  }).observe(document, { childList: true, subtree: true })
}

export type Cookies = Awaited<ReturnType<import('@playwright/test').BrowserContext['cookies']>>

async function visit(browser: Browser, base: string, cookies: Cookies, p: (typeof PAGES)[number], js: boolean): Promise<Visit> {
  const ctx = await browser.newContext({ baseURL: base, javaScriptEnabled: js, viewport: { width: 800, height: 1280 } })
  try {
    await ctx.addCookies(cookies)
    const page = await ctx.newPage()
    await page.addInitScript(MARKS, p.content)
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', NET)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE })
    await page.goto(p.path, { waitUntil: 'load' })
    // without JavaScript the page runs no script: the parser's own timing (the element's paint is the
    // next frame after the load of the parsed document; first contentful paint covers it)
    if (js) await page.waitForFunction(() => { const w = window as unknown as { __content: number; __hydrated: number }; return w.__content > 0 && w.__hydrated > 0 }, undefined, { timeout: 60_000 })
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN)
    if (!js) {
      // no script runs in the page: the content is painted with the first contentful paint when it is in the first chunk of HTML,
      // else by the load event's frame; the navigation timing says when the document had been parsed
      const parsed = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.domInteractive ?? NaN)
      const has = (await page.locator(p.content).count()) > 0
      return { fcp, content: has ? Math.max(fcp, parsed) : NaN, hydrated: NaN }
    }
    const t = await page.evaluate(() => { const w = window as unknown as { __content: number; __hydrated: number }; return { content: w.__content, hydrated: w.__hydrated } })
    // the frame after the parser inserted the content starts when its requestAnimationFrame runs, and
    // may then be laid out for a long while (at 6×, up to a second): painted no sooner than the first paint
    return { fcp, content: Math.max(t.content, fcp), hydrated: t.hydrated }
  } finally {
    await ctx.close()
  }
}

/** The demo grower signed in through the sign-in form: the session cookies for new contexts. */
export async function demoGrowerCookies(browser: Browser, base: string): Promise<Cookies> {
  const login = await browser.newContext({ baseURL: base })
  try {
    const page = await login.newPage()
    await page.goto('/Welcome')
    await page.getByLabel('Email').fill('grower@greenleaf.demo')
    await page.getByLabel('Password', { exact: true }).fill('Canopy#Demo1')
    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByRole('region', { name: 'Signed in' }).waitFor()
    return await login.cookies()
  } finally {
    await login.close()
  }
}

/**
 * The built server on a fresh demo database, Debian's Chromium (CHROMIUM_PATH) and the demo grower's
 * cookies for `measure`; both are stopped after it. Without a build or Chromium: one line saying so.
 */
export async function withDemoGrowerBrowser(log: (m: string) => void, label: string, measure: (browser: Browser, base: string, cookies: Cookies) => Promise<string[]>): Promise<string[]> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!fs.existsSync('build/server.js') || !fs.existsSync(executablePath)) return [`${label}: skipped, needs \`npm run build\` and Chromium`]
  const { base, stop } = await startBuiltServer(log, label)
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] }).catch(async (e: Error) => {
    await stop()
    throw e
  })
  try {
    return await measure(browser, base, await demoGrowerCookies(browser, base))
  } finally {
    await browser.close()
    await stop()
  }
}

export function slowDevice(log: (m: string) => void): Promise<string[]> {
  return withDemoGrowerBrowser(log, 'slow device', async (browser, base, cookies) => {
    const out = [`Slow device (Chromium, CPU ${RATE}x slower, 1.6 Mbps / 150 ms, cold cache, 800x1280; ${RUNS} visits each; ms from navigation start, p50 / p95; targets: content < 1000, hydrated < 1500)`]
    out.push(`  ${'page'.padEnd(26)} ${'JS off: first paint'.padEnd(22)} ${'content'.padEnd(14)} ${'JS on: first paint'.padEnd(22)} ${'content'.padEnd(14)} ${'hydrated'.padEnd(14)} met`)
    for (const p of PAGES) {
      const off: Visit[] = []
      const on: Visit[] = []
      for (let i = 0; i < RUNS; i++) {
        off.push(await visit(browser, base, cookies, p, false))
        on.push(await visit(browser, base, cookies, p, true))
      }
      const f = (xs: number[]) => {
        const s = stats(xs.filter((x) => Number.isFinite(x)))
        return `${s.p50.toFixed(0)} / ${s.p95.toFixed(0)}`
      }
      const contentOn = stats(on.map((v) => v.content)).p50
      const contentOff = stats(off.map((v) => v.content)).p50
      const hydrated = stats(on.map((v) => v.hydrated)).p50
      const met = contentOn < 1000 && contentOff < 1000 && hydrated < 1500
      out.push(`  ${`${p.what} ${p.path}`.padEnd(26)} ${f(off.map((v) => v.fcp)).padEnd(22)} ${f(off.map((v) => v.content)).padEnd(14)} ${f(on.map((v) => v.fcp)).padEnd(22)} ${f(on.map((v) => v.content)).padEnd(14)} ${f(on.map((v) => v.hydrated)).padEnd(14)} ${met ? 'yes' : 'NO'}`)
      log(`slow device: ${p.path} done`)
    }
    return out
  })
}
