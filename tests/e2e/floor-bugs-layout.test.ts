/**
 * Issue 32, items 5 and 6, on the 800 × 1280 tablet. Kiosk mode never traps its user (Home and the
 * menu on every screen, the back button goes back inside the app, Leave kiosk mode covers nothing of
 * the pager), and no table screen scrolls sideways into blank space: the page is exactly as wide as
 * the screen (the table scrolls inside its own box). JavaScript on and off.
 */
import { ROUTES } from '../../app/route-map'
import { expect, login, test } from './fixtures'

test.use({ viewport: { width: 800, height: 1280 } })

const TABLES = ROUTES.filter((r) => r.kind === 'table' && r.module !== 'super' && !r.path.includes(':'))

test('every table screen is exactly as wide as an 800 px tablet (no sideways scroll)', async ({ page, createUser }) => {
  test.setTimeout(300_000)
  const admin = await createUser({ role: 'admin', modules: { greenleaf: null } })
  await login(page, admin.email, admin.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  const wide: string[] = []
  let seen = 0
  for (const r of TABLES) {
    const res = await page.goto(`${r.path}?all=1`)
    if (!res || res.status() !== 200 || !(await page.locator('table').count())) continue
    seen++
    const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }))
    if (w.scroll !== w.view) wide.push(`${r.path}: ${w.scroll} px`)
  }
  expect(seen).toBeGreaterThan(30)
  expect(wide).toEqual([])
})

test('kiosk: Home and the menu on the screen, the pager uncovered, back goes back inside the app', async ({ page, createUser, javaScriptEnabled }) => {
  const grower = await createUser({ modules: { greenleaf: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/culPlants?kiosk=1&all=1')
  const bar = page.getByRole('navigation', { name: 'Kiosk' })
  await expect(bar.getByRole('link', { name: 'Home' })).toBeVisible()
  // the menu opens (a <details>) and lists the user's screens
  await bar.getByText('Menu').click()
  await expect(bar.getByRole('link', { name: 'Plantings' })).toBeVisible()
  await bar.getByText('Menu').click()
  // scrolled to the end: the pager's links are not under the Leave kiosk mode button
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  const leave = await page.getByRole('button', { name: 'Leave kiosk mode' }).boundingBox()
  const pager = page.getByRole('link', { name: /^(Next|Last|Next page|Last page)/ })
  expect(await pager.count()).toBeGreaterThan(0)
  for (const box of await Promise.all((await pager.all()).map((l) => l.boundingBox()))) {
    if (!box || !leave) continue
    const overlaps = box.x < leave.x + leave.width && leave.x < box.x + box.width && box.y < leave.y + leave.height && leave.y < box.y + box.height
    expect(overlaps).toBe(false)
  }
  // the menu takes the user elsewhere; back brings them back, nothing asks to leave the app
  await bar.getByRole('link', { name: 'Home' }).click()
  await expect(page).toHaveURL(/\/Welcome/)
  await page.goBack()
  await expect(page).toHaveURL(/\/culPlants/)
  await expect(page.getByText('Do you want to leave the app?')).toBeHidden()
  if (javaScriptEnabled) await expect(page.getByRole('heading', { name: 'Plants', level: 1 })).toBeVisible()
  // leave kiosk mode: the shell's bars are back
  await page.getByRole('button', { name: 'Leave kiosk mode' }).click()
  await expect(page.getByRole('navigation', { name: 'Kiosk' })).toHaveCount(0)
  await expect(page.getByRole('contentinfo')).toBeVisible()
})
