/**
 * Issue 25 "done when", JavaScript on and off, on the demo data: each dashboard renders its
 * charts; every tile, and at least one mark of every chart, links to a table whose item count
 * equals the figure's record count (followed in the browser, counted from the table's footer).
 * With JavaScript a mark shows its tooltip.
 */
import type { Page } from '@playwright/test'
import { expect, signIn, test } from '../../../tests/e2e/fixtures'

const NOT_TABLES = /^\/(MetrcOutbox|MetrcDrift)\b|\/edit$/

async function itemsOf(page: Page): Promise<number> {
  const text = (await page.locator('text=/\\d+ items?$|^0 items$/').first().textContent()) ?? ''
  const m = /of ([\d,]+) items?/.exec(text) ?? /^([\d,]+) items?/.exec(text.trim())
  if (!m) throw new Error(`no item count in "${text}"`)
  return Number(m[1].replace(/,/g, ''))
}

for (const path of ['/DshPlants', '/DshHarvests', '/DshCompliance', '/DshCultivation']) {
  test(`${path}: charts render and every tile and a mark of every chart open a table with the same count`, async ({ page, createUser }) => {
    test.setTimeout(180_000)
    const js = test.info().project.name === 'js'
    const u = await createUser({ role: 'admin', modules: { greenleaf: null } })
    await signIn(page, u.email, u.password)
    await page.goto(`${path}?range=last-30-days`)
    await expect(page.getByTestId('dashboard')).toBeVisible()
    const charts = page.getByTestId('chart')
    expect(await charts.count()).toBeGreaterThan(1)
    await expect(charts.first().locator('svg')).toBeVisible()

    const doors: Array<{ where: string; href: string; count: number }> = []
    for (const tile of await page.locator('[data-testid="kpi"][href]').all()) {
      doors.push({ where: `tile ${await tile.locator('span').first().textContent()}`, href: (await tile.getAttribute('href'))!, count: Number(await tile.getAttribute('data-count')) })
    }
    for (const chart of await charts.all()) {
      const title = await chart.locator('figcaption').textContent()
      const marks = chart.locator('svg a[data-count]')
      const n = await marks.count()
      for (let i = 0; i < n; i++) {
        const c = Number(await marks.nth(i).getAttribute('data-count'))
        if (c > 0 || i === n - 1) {
          doors.push({ where: `${title} mark ${i}`, href: (await marks.nth(i).getAttribute('href'))!, count: c })
          break
        }
      }
    }
    for (const cell of (await page.locator('[data-testid="list"] a[data-count]').all()).slice(0, 2)) {
      doors.push({ where: 'list', href: (await cell.getAttribute('href'))!, count: Number(await cell.getAttribute('data-count')) })
    }
    const tables = doors.filter((d) => !NOT_TABLES.test(d.href))
    expect(tables.length).toBeGreaterThan(2)
    expect(tables.some((d) => d.count > 0)).toBe(true)

    if (js) {
      const mark = page.locator('svg a[data-tip]').first()
      await mark.hover()
      await expect(page.getByTestId('chart-tooltip')).toContainText(':')
    }

    for (const d of tables) {
      await page.goto(d.href)
      expect({ where: d.where, href: d.href, items: await itemsOf(page) }).toEqual({ where: d.where, href: d.href, items: d.count })
    }
    // the chip that names the exact matches clears them
    const withEq = tables.find((d) => d.href.includes('eq='))
    if (withEq) {
      await page.goto(withEq.href)
      await expect(page.getByTestId('eq-filter')).toBeVisible()
    }
  })
}
