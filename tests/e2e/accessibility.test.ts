/**
 * Issue 31 item 1 (decision 067): axe-core finds no WCAG 2.1 A/AA violation on any page, JavaScript
 * on and off. Super walks every route of the route map once per project (the first half in the dark
 * theme, the second in the light one), then a record's page, edit form and new form, the login page,
 * and a handful of pages in kiosk mode. axe-core runs in the page (its source evaluated there, as
 * @axe-core/playwright does), restricted to the WCAG 2.0/2.1 A and AA rules; without JavaScript on a copy
 * of the page's server markup (see `violations`).
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import { ROUTES } from '../../app/route-map'
import { writeReadings } from '../../app/sensors/store.server'
import { expect, login, test } from './fixtures'

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

interface Found { id: string; impact: string | null; help: string; nodes: string[] }

/**
 * axe's violations on the page as it is now: rule, impact and the first few offending elements.
 * Without JavaScript axe cannot run in the page itself (it runs no timers), so the page's markup as
 * the server sent it, scripts removed, is checked in a page of its own that runs scripts (`checker`),
 * with the same stylesheets (a <base> at the page's address) and theme class.
 */
async function violations(page: Page, javaScriptEnabled: boolean, checker: () => Promise<Page>): Promise<Found[]> {
  if (javaScriptEnabled) return runAxe(page)
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, '').replace(/<head([^>]*)>/i, `<head$1><base href="${new URL(page.url()).origin}/">`)
  const copy = await checker()
  await copy.setContent(html, { waitUntil: 'load' })
  // colour contrast is the stylesheet's, the same with JavaScript, where the js project checks it on the
  // live page: in the copy axe misreads some backgrounds (white behind the dark dashboards' cards)
  return runAxe(copy, ['color-contrast'])
}

async function runAxe(page: Page, skip: string[] = []): Promise<Found[]> {
  await page.evaluate(axeSource)
  return page.evaluate(async ({ tags, skip }) => {
    const axe = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe
    const r = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], rules: Object.fromEntries(skip.map((id) => [id, { enabled: false }])) })
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`) }))
  }, { tags: TAGS, skip })
}

/** every violation found, keyed by the page and theme it was found on (one assertion at the end lists them all) */
function collector(page: Page, javaScriptEnabled: boolean) {
  const found: Record<string, Found[]> = {}
  let pages = 0
  let copy: Promise<Page> | null = null
  const checker = () => (copy ??= page.context().browser()!.newContext({ javaScriptEnabled: true }).then((c) => c.newPage()))
  return {
    found,
    async close() {
      if (copy) await (await copy).context().close()
    },
    get pages() { return pages },
    async check(label: string) {
      pages++
      const v = await violations(page, javaScriptEnabled, checker)
      if (v.length) {
        found[label] = v
        console.log(label, JSON.stringify(v, null, 1))
      }
    },
  }
}

/** the theme through the shell's own form post (kiosk mode and some pages show no theme button) */
async function setTheme(page: Page, light: boolean) {
  const r = await page.request.post('/Preferences', { form: { intent: 'theme', light: light ? 'yes' : 'no', back: '/Welcome' }, maxRedirects: 0 })
  expect(r.status()).toBeLessThan(400)
}

test('axe: every route of the route map, dark then light, has no WCAG 2.1 AA violation', async ({ page, createUser, javaScriptEnabled }) => {
  test.setTimeout(480_000)
  const axe = collector(page, javaScriptEnabled)
  // the logged-out pages first
  await page.goto('/Welcome')
  await axe.check('/Welcome (logged out)')

  const boss = await createUser({ role: 'super', modules: { greenleaf: null, harbor: null } })
  await login(page, boss.email, boss.password)
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await axe.check('/Welcome dark')
  const routes = ROUTES.filter((x) => !x.path.includes(':'))
  const half = Math.ceil(routes.length / 2)
  for (const [i, r] of routes.entries()) {
    const light = i >= half
    if (i === half) await setTheme(page, true)
    // table pages at 10 rows: the same markup, a quarter of the cells for axe's contrast checks
    const res = await page.goto(`${r.path}${r.kind === 'table' ? '?size=10' : ''}`)
    if (!res || res.status() >= 400) continue
    await expect(page.locator('html')).toHaveClass(light ? 'light' : 'dark')
    await axe.check(`${r.path} ${light ? 'light' : 'dark'}`)
  }
  await axe.close()
  expect(axe.pages).toBeGreaterThan(40)
  expect(axe.found).toEqual({})
})

test('axe: a record page, its edit and new forms, both themes, and kiosk mode have no WCAG 2.1 AA violation', async ({ page, createUser, database, cleanup, javaScriptEnabled }) => {
  test.setTimeout(240_000)
  const axe = collector(page, javaScriptEnabled)
  const u = await createUser({ role: 'admin', modules: { greenleaf: null } })
  // an overdue task, so the start page always shows its alert list (a sensor alarm's alert, coloured
  // inline, failed contrast in the light theme only when the simulator happened to raise one)
  const day = 86_400_000
  const task = await database.store.insert({ uid: u.uid }, 'greenleaf', 'sch_tasks', { title: 'axe: overdue check', start: new Date(Date.now() - 3 * day).toISOString(), end: new Date(Date.now() - 3 * day + 3_600_000).toISOString(), allDay: 'no', assignee: 'Maria Lopez', category: 'Maintenance', priority: 'Normal', status: 'Scheduled' })
  cleanup(() => database.db.query('DELETE FROM c_sch_tasks WHERE org = $1 AND id = $2', ['greenleaf', task._id]))
  // and a sensor at every level (critical, warning, elevated, normal, low: SPEC §9's thresholds), so
  // each level's colour is checked on /DshSensors in both themes whatever the simulator reports
  const deviceID = `SEN-AXE-${javaScriptEnabled ? 'js' : 'nojs'}`
  const dev = await database.store.insert({ uid: u.uid }, 'greenleaf', 'sen_devices', { deviceID, deviceName: `Axe room ${deviceID}`, type: 'sensor', location: '' })
  cleanup(async () => {
    await database.store.remove({ uid: u.uid }, 'greenleaf', 'sen_devices', dev._id)
    for (const t of ['sensor_readings', 'sensor_hourly', 'sensor_latest']) await database.db.query(`DELETE FROM ${t} WHERE org = $1 AND device_id = $2`, ['greenleaf', deviceID])
  })
  const at = new Date(Date.now() - 60_000).toISOString()
  await writeReadings(database.db, [['temp', 95], ['rh', 72], ['co2', 1300], ['vpd', 1.0], ['ppfd', 150]].map(([code, value]) => ({ org: 'greenleaf', deviceID, code: code as string, value: value as number, at })))
  await login(page, u.email, u.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  const [plant] = (await database.store.page('greenleaf', 'fac_plants', { offset: 0, limit: 1, sort: { key: 'tag', dir: 'desc' }, activeOnly: true })).rows
  const record = `/culPlants/${encodeURIComponent(plant._id)}`
  for (const light of [false, true]) {
    if (light) await setTheme(page, true)
    const theme = light ? 'light' : 'dark'
    await page.goto('/Welcome')
    await expect(page.getByRole('list', { name: 'Alerts' })).toContainText('scheduled tasks are overdue')
    await axe.check(`/Welcome ${theme}`)
    await page.goto('/DshSensors')
    await expect(page.locator(`section[data-device="${deviceID}"] li[data-level="error"]`)).toBeVisible()
    await expect(page.locator(`section[data-device="${deviceID}"] li[data-level="below"]`)).toBeVisible()
    await axe.check(`/DshSensors ${theme}`)
    for (const p of [record, `${record}/edit`, '/culPlants/new']) {
      await page.goto(p)
      await axe.check(`${p} ${theme}`)
    }
  }
  // kiosk mode (the light theme still on): its own bar, no drawer
  await page.goto('/culPlants?kiosk=1')
  await expect(page.getByRole('button', { name: 'Leave kiosk mode' })).toBeVisible()
  await axe.check('/culPlants kiosk light')
  for (const p of ['/Welcome', record, `${record}/edit`, '/CulPlantings']) {
    await page.goto(p)
    await axe.check(`${p} kiosk light`)
  }
  await setTheme(page, false)
  await page.goto('/culPlants')
  await expect(page.locator('html')).toHaveClass('dark')
  await axe.check('/culPlants kiosk dark')
  await axe.close()
  expect(axe.pages).toBe(16)
  expect(axe.found).toEqual({})
})

test('axe: saved views (the More menu open with its views, a pinned view in the drawer, the views page), both themes', async ({ page, createUser, database, javaScriptEnabled }) => {
  const axe = collector(page, javaScriptEnabled)
  const u = await createUser({ role: 'admin', modules: { greenleaf: null } })
  await login(page, u.email, u.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/culPlants?sort=tag&dir=desc')
  await page.locator('summary[aria-label="More table tools"]').click()
  await page.getByLabel('Save this view as').fill(`Axe view ${u.uid}`)
  await page.getByRole('checkbox', { name: 'Pin to the menu' }).check()
  await page.getByRole('button', { name: 'Save view' }).click()
  await expect(page.getByTestId('action-done')).toBeVisible()
  try {
    for (const light of [false, true]) {
      await setTheme(page, light)
      const theme = light ? 'light' : 'dark'
      await page.goto('/culPlants?sort=tag&dir=desc')
      await expect(page.getByTestId('pinned-views').getByRole('link', { name: `Axe view ${u.uid}` })).toHaveAttribute('aria-current', 'page')
      await page.locator('summary[aria-label="More table tools"]').click()
      await expect(page.getByTestId('saved-views')).toBeVisible()
      await axe.check(`/culPlants saved views ${theme}`)
      await page.goto('/saved-views?screen=/culPlants')
      await axe.check(`/saved-views ${theme}`)
    }
  } finally {
    await setTheme(page, false)
    await database.db.query('DELETE FROM saved_views WHERE owner = $1', [u.uid])
  }
  await axe.close()
  expect(axe.pages).toBe(4)
  expect(axe.found).toEqual({})
})
