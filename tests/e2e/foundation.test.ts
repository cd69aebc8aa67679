import { expect, test } from './fixtures'

test('/ leads to the Welcome page with the version in the title', async ({ page, database }) => {
  const res = await page.goto('/')
  expect(res?.status()).toBe(200)
  await expect(page).toHaveURL(/\/Welcome$/)
  await expect(page).toHaveTitle('Canopy 4.1.0')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Canopy 4.1.0')
  // the demo's two facilities, and any a test running beside this one has added for itself: the
  // number shown is the facilities the database holds when the page is read (the platform's own
  // organisation not counted), read again until no other test was adding or removing one meanwhile
  const facilities = async () => (await database.store.count('auth', 'org')) - 1
  expect(await facilities()).toBeGreaterThanOrEqual(2)
  await expect(async () => {
    const before = await facilities()
    await page.reload()
    const shown = Number((await page.getByRole('region', { name: 'Status' }).innerText()).match(/(\d+) facilities on this server/)?.[1])
    expect(await facilities()).toBe(before)
    expect(shown).toBe(before)
  }).toPass({ timeout: 15_000 })
  await expect(page.getByRole('region', { name: 'Status' })).toContainText(/the embedded database|PostgreSQL/)
})

test('the page is styled and dark by default', async ({ page }) => {
  await page.goto('/Welcome')
  await expect(page.locator('html')).toHaveClass(/dark/)
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  expect(bg).toBe('rgb(2, 6, 23)') // slate-950: the Tailwind stylesheet loaded
})

test('an unknown address asks a visitor to sign in first, then shows a 404 page with a way back', async ({ page }) => {
  await page.goto('/no/such/screen')
  await expect(page).toHaveURL(/\/Welcome\?redirectTo=%2Fno%2Fsuch%2Fscreen$/)
  await page.getByLabel('Email').fill('grower@greenleaf.demo')
  await page.getByLabel('Password', { exact: true }).fill('Canopy#Demo1')
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Page not found (404)')
  await page.getByRole('link', { name: 'Back to the start page' }).click()
  await expect(page).toHaveURL(/\/Welcome$/)
})

test('health and readiness answer JSON', async ({ request }) => {
  const h = await request.get('/healthz')
  expect(await h.json()).toEqual({ status: 'up' })
  const r = await request.get('/readyz')
  expect(r.status()).toBe(200)
  expect(await r.json()).toMatchObject({ status: 'ready' })
})
