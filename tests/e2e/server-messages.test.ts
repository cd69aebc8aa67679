/**
 * SPEC §8's server messages in Chromium with JavaScript (decision 060). Against a server of the test's own
 * that it stops and starts again: the login form says 'Servers unreachable. …' (never an error page) and signs
 * in once the server is back; an open table's edit dialog, whose form is built from the table's schema, says
 * 'Could not access server, please try again later' and shows the form once the server is back. Against the
 * suite's server with a proxy's status put in front by route interception: a page's data request answered
 * 502/503 says 'Server is not accessible, please try again later' and the page recovers; a login answered by a
 * proxy's 502 page says 'Servers unreachable. …'. Without JavaScript the browser shows its own error page.
 */
import type { Page } from '@playwright/test'
import { DEMO_PASSWORD } from '../../app/seed/core'
import { expect, signIn, test } from './fixtures'
import { ownServerEnv, startServer, stopServer } from './own-server'

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'needs JavaScript: without it the browser shows its own error page')

const UNREACHABLE_LOGIN = 'Servers unreachable. Please try again later. If error persists please contact support'
const rows = (page: Page) => page.locator('table').first().locator(':scope > tbody > tr')
const countText = (page: Page) => page.getByText(/^\d+–\d+ of \d+ items?$/)
const isData = (url: URL) => url.searchParams.has('_data')

test('with the server stopped, the login form and an edit dialog say so, and both work once it is back', async ({ page }) => {
  test.setTimeout(240_000)
  const { env, base, drop } = await ownServerEnv('pglite', 'messages')
  let s = startServer(env)
  try {
    await s.ready
    await page.goto(`${base}/Welcome`)
    await page.getByLabel('Email').fill('grower@greenleaf.demo')
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
    await stopServer(s)
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page.locator('#login-message')).toHaveText(UNREACHABLE_LOGIN)
    await expect(page.getByText(/Something went wrong/)).toHaveCount(0)
    // the form and what was typed are still there
    await expect(page.getByLabel('Email')).toHaveValue('grower@greenleaf.demo')
    await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled()

    s = startServer(env)
    await s.ready
    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByRole('region', { name: 'Signed in' }).waitFor()

    await page.goto(`${base}/culPlants`)
    await expect(countText(page)).toHaveText(/^1–\d+ of \d+ items$/)
    const pencil = rows(page).first().getByRole('link', { name: 'Edit' })
    const dialog = page.getByRole('dialog')
    // the dialog's code is loaded on first use: open it once while the server is up, then close it
    await pencil.click()
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await stopServer(s)
    await pencil.click()
    await expect(dialog.getByRole('alert')).toHaveText('Could not access server, please try again later')
    await expect(page.getByText('Server unreachable')).toBeVisible()
    await expect(page.getByText(/Something went wrong/)).toHaveCount(0)

    s = startServer(env)
    await s.ready
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeVisible({ timeout: 30_000 })
    await expect(dialog.getByText('Could not access server, please try again later')).toHaveCount(0)
  } finally {
    await stopServer(s)
    await drop()
  }
})

test("a page's data request answered by a proxy's 503 says the server is not accessible, and the page recovers", async ({ page, createUser }) => {
  const u = await createUser()
  await signIn(page, u.email, u.password)
  await page.goto('/culPlants')
  await expect(countText(page)).toHaveText(/^1–\d+ of \d+ items$/)
  const firstRow = (await rows(page).first().textContent()) ?? ''
  await page.route(isData, (r) => r.fulfill({ status: 503, contentType: 'text/html', body: '<h1>503 Service Temporarily Unavailable</h1>' }))
  await page.getByRole('link', { name: 'Next' }).click()
  await expect(page.getByText('Server is not accessible, please try again later')).toBeVisible()
  await expect(page.getByText('Server unreachable')).toHaveCount(0)
  await expect(rows(page).first()).toHaveText(firstRow)
  await expect(page.getByText(/Something went wrong|Error \(503\)/)).toHaveCount(0)
  await page.unroute(isData)
  await expect(page).toHaveURL(/page=2&after=/, { timeout: 30_000 })
  await expect(countText(page)).not.toHaveText(/^1–/)
})

test("a login answered by a proxy's 502 page says the servers are unreachable", async ({ page, createUser }) => {
  const u = await createUser()
  await page.goto('/Welcome')
  await page.getByLabel('Email').fill(u.email)
  await page.getByLabel('Password', { exact: true }).fill(u.password)
  const welcomeData = (url: URL) => isData(url) && url.pathname === '/Welcome'
  await page.route(welcomeData, (r) =>
    r.request().method() === 'POST' ? r.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }) : r.continue(),
  )
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page.locator('#login-message')).toHaveText(UNREACHABLE_LOGIN)
  await page.unroute(welcomeData)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
})
