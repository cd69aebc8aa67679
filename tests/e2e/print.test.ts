/**
 * Issue 31 item 6: tables, record pages and dashboards print cleanly, JavaScript on and off — the
 * print stylesheet (app/tailwind.css) drops the console around the content (bars, menus, toolbars,
 * the selection and the row buttons), spreads a table to the paper's width with its header on every
 * page and no row cut across two; a real PDF of the table is printed by Chromium.
 */
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'

async function printed(page: Page, path: string) {
  await page.goto(path)
  await page.emulateMedia({ media: 'print' })
  // the console's own parts are not on paper
  await expect(page.locator('header').first()).toBeHidden()
  await expect(page.locator('nav').first()).toBeHidden()
  for (const nav of await page.locator('nav').all()) await expect(nav).toBeHidden()
}

test('a table, a record page and a dashboard print without the console around them', async ({ page, createUser, database }) => {
  test.setTimeout(120_000)
  const grower = await createUser({ modules: { [FAC]: ['cul', 'dsh'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()

  // a table: no toolbar, no selection bar or boxes, no Actions; every column across the paper's width
  await printed(page, '/culPlants?size=40&sort=tag&dir=asc')
  await expect(page.getByRole('toolbar')).toBeHidden()
  await expect(page.locator('#rowsel')).toBeHidden()
  await expect(page.locator('tbody input[name="sel"]').first()).toBeHidden()
  await expect(page.locator('td.stick-end').first()).toBeHidden()
  await expect(page.getByRole('columnheader', { name: /Plant Tag/ })).toBeVisible()
  const table = page.locator('table.data-table')
  const [tableWidth, pageWidth] = await table.evaluate((t) => [t.getBoundingClientRect().width, document.documentElement.clientWidth])
  expect(tableWidth).toBeLessThanOrEqual(pageWidth)
  expect(await table.locator('thead').evaluate((h) => getComputedStyle(h).display)).toBe('table-header-group')
  expect(await table.locator('tbody tr').first().evaluate((r) => getComputedStyle(r).breakInside)).toBe('avoid')
  expect(await page.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(255, 255, 255)')
  // Chromium prints it: 40 rows on more than one A4 page
  await page.emulateMedia({ media: 'screen' })
  const pdf = (await page.pdf({ format: 'A4' })).toString('latin1')
  expect(pdf.startsWith('%PDF')).toBe(true)
  expect(pdf.match(/\/Type\s*\/Page[^s]/g)?.length ?? 0).toBeGreaterThan(1)

  // a record page: its fields, not its action buttons
  const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 3, limit: 1, sort: { key: 'tag', dir: 'asc' }, activeOnly: true })).rows
  await printed(page, `/culPlants/${encodeURIComponent(plant._id)}`)
  await expect(page.getByRole('heading', { name: String(plant.tag), level: 1 })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Details' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Edit' })).toBeHidden()

  // a dashboard: its figures, not its period shortcuts
  await printed(page, '/DshCultivation')
  await expect(page.locator('section').first()).toBeVisible()
})
