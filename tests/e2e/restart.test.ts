/**
 * Pages that survive a server restart (issue 28), in Chromium against a real server this test starts, stops
 * and starts again (on each engine: PGlite in a data folder, PostgreSQL in a fresh schema). A signed-in grower
 * on a table page asks for the next page while the server is down: the page keeps its rows, says SPEC §8's
 * 'Server unreachable' (never 'Something went wrong'), keeps trying, and shows page 2 once the server is back.
 * With JavaScript off a page is a plain document: the browser itself says it cannot reach the server.
 */
import { expect, test, type Page } from '@playwright/test'
import { DEMO_PASSWORD } from '../../app/seed/core'
import { ownServerEnv, startServer as start } from './own-server'

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'needs JavaScript: without it the browser shows its own error page')
test.describe.configure({ timeout: 240_000 })

const rows = (page: Page) => page.locator('table').first().locator(':scope > tbody > tr')
const countText = (page: Page) => page.getByText(/^\d+–\d+ of \d+ items?$/)

for (const engine of ['pglite', 'pg'] as const) {
  test(`a table page waits out a server restart and then shows what was asked (${engine})`, async ({ page }) => {
    const { env, base, drop } = await ownServerEnv(engine, 'restart')
    let s = start(env)
    try {
      await s.ready
      await page.goto(`${base}/Welcome`)
      await page.getByLabel('Email').fill('grower@greenleaf.demo')
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
      await page.getByRole('button', { name: 'Login' }).click()
      await page.getByRole('region', { name: 'Signed in' }).waitFor()
      await page.goto(`${base}/culPlants`)
      await expect(countText(page)).toHaveText(/^1–\d+ of \d+ items$/)
      const firstRow = (await rows(page).first().textContent()) ?? ''
      expect(firstRow.length).toBeGreaterThan(0)

      s.proc.kill('SIGTERM')
      await s.exited
      await page.getByRole('link', { name: 'Next' }).click()
      await expect(page.getByText('Server unreachable')).toBeVisible()
      // the page keeps what it showed; no error page replaces it
      await expect(rows(page).first()).toHaveText(firstRow)
      await expect(page.getByText(/Something went wrong/)).toHaveCount(0)
      await expect(page).not.toHaveURL(/page=2/)
      await page.waitForTimeout(2500) // a few retries against the stopped server

      s = start(env)
      await s.ready
      await expect(page).toHaveURL(/page=2&after=/, { timeout: 30_000 })
      await expect(countText(page)).toHaveText(/^\d+–\d+ of \d+ items$/)
      await expect(countText(page)).not.toHaveText(/^1–/)
      await expect(page.getByText('Server connection established')).toBeVisible({ timeout: 30_000 })
      await expect(page.getByRole('status', { name: 'Server connection' })).toContainText(/Connected|Reconnected/)
    } finally {
      s.proc.kill('SIGTERM')
      await s.exited
      await drop()
    }
  })
}
