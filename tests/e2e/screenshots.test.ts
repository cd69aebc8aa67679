/**
 * Issue 33's look, kept with every run: the start page, a wide table, a form and a record page at
 * 1366×768 and at the 800×1280 kiosk tablet, in the dark and the light theme, attached to the report
 * (and written under test-results/). Each shot also checks the page is whole: its heading is there and
 * nothing spills sideways out of the window.
 */
import type { Page } from '@playwright/test'
import { expect, signIn, test } from './fixtures'

const FAC = 'greenleaf'
const SIZES = [
  { width: 1366, height: 768 },
  { width: 800, height: 1280 },
]

test('screenshots: start page, wide table, form and record page, at both sizes in both themes', async ({ page, createUser, database, javaScriptEnabled }, info) => {
  test.skip(!javaScriptEnabled, 'the pictures are the same without JavaScript; taken once')
  test.setTimeout(120_000)
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const [harvest] = await database.store.find(FAC, 'fac_harvests', {}, 1)
  const pages: Array<[string, string, string]> = [
    ['start', '/Welcome', 'Welcome'],
    ['table', '/culPlants', 'Plants'],
    ['form', `/CulHarvest/${encodeURIComponent(harvest._id)}/edit`, 'Edit: Harvests'],
    ['record', `/CulHarvest/${encodeURIComponent(harvest._id)}`, String(harvest.name)],
  ]
  await signIn(page, grower.email, grower.password)
  for (const theme of ['dark', 'light'] as const) {
    if (theme === 'light') {
      await page.getByRole('button', { name: 'Light theme' }).click()
      await expect(page.locator('html')).toHaveClass('light')
    }
    for (const size of SIZES) {
      await page.setViewportSize(size)
      for (const [name, path, heading] of pages) {
        await page.goto(path)
        await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(heading === 'Welcome' ? /./ : heading)
        expect(await sideways(page), `${name} ${size.width} ${theme}`).toBe(false)
        const file = `${name}-${size.width}x${size.height}-${theme}.png`
        await info.attach(file, { body: await page.screenshot({ path: info.outputPath(file) }), contentType: 'image/png' })
      }
    }
  }
})

/** the page scrolls sideways (something wider than the window) */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)
