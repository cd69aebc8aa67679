/**
 * The shell's navigation (issue 29 item 4, issue 33 item 1; decision 061), JavaScript on and off:
 * the side drawer built from entitlements (exactly the entitled screens, the current one marked,
 * a filter, a collapse saved on the server), breadcrumbs, the off-canvas drawer on the 800 px
 * tablet, kiosk mode's own Home and Back, Login in the logged-out top bar, logout to the login view,
 * and the exit confirmation on the back button outside kiosk mode.
 */
import type { Page } from '@playwright/test'
import { ROUTES } from '../../app/route-map'
import { recordName } from '../../app/forms/record-title'
import { expect, login, logout, signIn, test } from './fixtures'

const FAC = 'greenleaf'
const drawer = (page: Page) => page.getByRole('navigation', { name: 'Main menu' })
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem')
/** every screen the drawer links to, as paths */
const drawerPaths = (page: Page) => drawer(page).locator('details a').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname))

test.use({ viewport: { width: 1366, height: 768 } })

test('the drawer lists exactly the entitled screens; a user with fewer entitlements sees fewer', async ({ page, createUser }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul', 'help'] } })
  await signIn(page, grower.email, grower.password)
  await expect(drawer(page).locator(':scope > details > summary')).toHaveText(['Cultivation', 'Help'])
  // Greenleaf allows cultivation workflows: their page comes first in the group (SPEC §2.3)
  const expected = ['/CulWorkflows', ...ROUTES.filter((r) => r.module === 'cul' || r.module === 'help').map((r) => r.path)]
  expect((await drawerPaths(page)).sort()).toEqual(expected.sort())

  await logout(page)
  const admin = await createUser({ role: 'admin', modules: { [FAC]: null } })
  await signIn(page, admin.email, admin.password)
  const all = await drawerPaths(page)
  for (const p of expected) expect(all, p).toContain(p)
  expect(all).toContain('/DisSales')
  expect(all).toContain('/Users') // a facility's admins manage its users
  expect(all.some((p) => ROUTES.find((r) => r.path === p)?.module === 'super')).toBe(false)
  await expect(drawer(page).locator(':scope > details > summary')).toContainText(['Cultivation', 'Distribution', 'Metrc', 'Administration'])
})

test('the current screen is marked in the drawer, and the breadcrumbs say module › screen › record', async ({ page, createUser, database }) => {
  const u = await createUser({ modules: { [FAC]: ['cul'] } })
  await signIn(page, u.email, u.password)
  // the start page is no screen of the drawer: nothing marked, no breadcrumbs
  await expect(drawer(page).locator('[aria-current="page"]')).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveCount(0)

  await drawer(page).locator('summary', { hasText: 'Cultivation' }).click()
  await drawer(page).getByRole('link', { name: 'Plantings', exact: true }).click()
  await expect(page).toHaveURL(/\/CulPlantings/)
  const current = drawer(page).locator('[aria-current="page"]')
  await expect(current).toHaveCount(1)
  await expect(current).toHaveText('Plantings')
  await expect(current).toHaveAttribute('href', '/CulPlantings')
  await expect(crumbs(page)).toHaveText(['Cultivation', '›Plantings'])
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).locator('[aria-current="page"]')).toHaveText('Plantings')

  // a record: its screen stays marked; the crumbs add the record's name, the screen's crumb is a link
  const schema = (await database.schemas.get('fac_plants'))!
  const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 0, limit: 1, sort: { key: 'tag', dir: 'desc' }, activeOnly: true })).rows
  const name = recordName(schema, plant) ?? plant._id
  await page.goto(`/culPlants/${encodeURIComponent(plant._id)}/edit`)
  await expect(drawer(page).locator('[aria-current="page"]')).toHaveText('Plants')
  await expect(crumbs(page)).toHaveText(['Cultivation', '›Plants', `›${name}`, '›Edit'])
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Plants', exact: true }).click()
  await expect(page).toHaveURL(/\/culPlants$/)
  await expect(page.getByRole('heading', { name: 'Plants', level: 1 })).toBeVisible()
})

test('the filter narrows the drawer as one types (without JavaScript: a GET form)', async ({ page, createUser, javaScriptEnabled }) => {
  const u = await createUser({ modules: { [FAC]: ['cul', 'help'] } })
  await signIn(page, u.email, u.password)
  const box = page.getByRole('searchbox', { name: 'Filter the menu' })
  await box.fill('plant')
  if (!javaScriptEnabled) {
    await drawer(page).getByRole('button', { name: 'Filter', exact: true }).click()
    await expect(page).toHaveURL(/[?&]menu=plant/)
  }
  const links = drawer(page).locator('details a')
  await expect(links).toHaveText(['Plantings', 'Plants'])
  await expect(links.first()).toBeVisible() // the groups that match open
  await box.fill('zzz')
  if (!javaScriptEnabled) await drawer(page).getByRole('button', { name: 'Filter', exact: true }).click()
  await expect(drawer(page).getByRole('status')).toContainText('No screen matches')
  await expect(links).toHaveCount(0)
  // a table screen reads past the drawer's filter (no "Ignored" notice)
  await page.goto('/culPlants?menu=trim')
  await expect(drawer(page).locator('details a')).toHaveText(['Trim'])
  await expect(page.getByText('Ignored')).toHaveCount(0)
  await expect(page.getByRole('table')).toBeVisible()
})

test('collapse shrinks the drawer to icons and it stays collapsed after a reload and a new sign-in', async ({ page, createUser }) => {
  const u = await createUser({ modules: { [FAC]: ['cul', 'help'] } })
  await signIn(page, u.email, u.password)
  const toggle = page.getByRole('button', { name: 'Side menu', exact: true })
  const aside = page.locator('#nav-drawer')
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  expect((await aside.boundingBox())!.width).toBeGreaterThan(200)
  // saved: the post has been answered (with JavaScript the button changes before, at once)
  const saved = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/Preferences' && r.request().method() === 'POST')
  await Promise.all([saved(), toggle.click()])
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(aside).toHaveAttribute('data-collapsed', '')
  await expect.poll(async () => (await aside.boundingBox())!.width).toBeLessThan(80)
  // the group names are still there for a screen reader, the filter is not shown
  await expect(drawer(page).locator(':scope > details > summary')).toHaveText(['Cultivation', 'Help'])
  await expect(page.getByRole('searchbox', { name: 'Filter the menu' })).toBeHidden()
  // an icon opens its group beside the drawer
  await drawer(page).locator('summary', { hasText: 'Cultivation' }).click()
  await drawer(page).getByRole('link', { name: 'Plantings', exact: true }).click()
  await expect(page).toHaveURL(/\/CulPlantings/)

  await page.reload()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  expect((await aside.boundingBox())!.width).toBeLessThan(80) // right on the first paint: saved on the server
  await logout(page)
  await signIn(page, u.email, u.password)
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await Promise.all([saved(), toggle.click()])
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await page.reload()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  expect((await aside.boundingBox())!.width).toBeGreaterThan(200)
})

test('the facility switcher in the drawer’s head switches facility', async ({ page, createUser, javaScriptEnabled }) => {
  const u = await createUser({ modules: { greenleaf: ['cul'], harbor: ['dis'] } })
  await login(page, u.email, u.password)
  // two facilities: the picker comes first
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  const picker = page.locator('#nav-drawer').getByLabel('Facility')
  await expect(picker).toHaveValue('greenleaf')
  await picker.selectOption('harbor')
  if (!javaScriptEnabled) await page.locator('#nav-drawer').getByRole('button', { name: 'Switch', exact: true }).click()
  await expect(page.getByRole('region', { name: 'Signed in' })).toContainText('at Harbor Distribution, Denver')
  await expect(drawer(page).locator(':scope > details > summary')).toHaveText(['Distribution'])
})

test('the start page with the drawer at 1366 × 768 and 800 × 1280 (screenshots)', async ({ page, createUser, javaScriptEnabled }, info) => {
  const u = await createUser({ modules: { [FAC]: ['cul', 'dsh', 'sch', 'help'] } })
  await signIn(page, u.email, u.password)
  await drawer(page).locator('summary', { hasText: 'Cultivation' }).click()
  // kept as files in the test's output folder (test-results/…) and attached to the report
  const shot = async (name: string) => {
    const file = info.outputPath(`${name}-${javaScriptEnabled ? 'js' : 'no-js'}.png`)
    await page.screenshot({ path: file })
    await info.attach(name, { path: file, contentType: 'image/png' })
  }
  await shot('start-page-1366x768')
  await page.setViewportSize({ width: 800, height: 1280 })
  await page.reload()
  // off-canvas: hidden until the top bar's menu opens it, and never wider than the screen
  await expect(drawer(page)).toBeHidden()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(800)
  const menu = page.getByRole('banner').getByRole(javaScriptEnabled ? 'button' : 'link', { name: 'Menu', exact: true })
  if (javaScriptEnabled) await expect(menu).toHaveAttribute('aria-expanded', 'false')
  await menu.click()
  await expect(drawer(page)).toBeVisible()
  if (javaScriptEnabled) await expect(menu).toHaveAttribute('aria-expanded', 'true')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(800)
  await drawer(page).locator('summary', { hasText: 'Cultivation' }).click()
  await shot('start-page-800x1280-drawer-open')
  await drawer(page).getByRole('link', { name: 'Plants', exact: true }).click()
  await expect(page).toHaveURL(/\/culPlants$/)
  await expect(drawer(page)).toBeHidden() // a new page: the drawer is closed again
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(800)
})

test('logged out, the top bar has Login; logout lands on the login view', async ({ page, createUser }) => {
  await page.goto('/Welcome')
  const bar = page.getByRole('banner')
  await expect(bar.getByRole('link', { name: 'Login', exact: true })).toBeVisible()
  await page.goto('/NoDeepLink')
  await bar.getByRole('link', { name: 'Login', exact: true }).click()
  await expect(page).toHaveURL(/\/Welcome$/)
  await expect(page.getByLabel('Email')).toBeVisible()

  const u = await createUser()
  await signIn(page, u.email, u.password)
  await expect(bar.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0)
  await logout(page)
  await expect(page).toHaveURL(/\/Welcome\?msg=loggedout$/)
  await expect(page.getByText('You have been logged out.')).toBeVisible()
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible()
  await expect(bar.getByRole('link', { name: 'Login', exact: true })).toBeVisible()
})

test('kiosk mode: Home and Back, no drawer, no breadcrumbs', async ({ page, createUser, database }) => {
  const u = await createUser({ modules: { [FAC]: ['cul'] } })
  await signIn(page, u.email, u.password)
  const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 0, limit: 1, sort: { key: 'tag', dir: 'desc' }, activeOnly: true })).rows
  await page.goto(`/culPlants/${encodeURIComponent(plant._id)}/edit?kiosk=1`)
  const bar = page.getByRole('navigation', { name: 'Kiosk' })
  await expect(bar.getByRole('link', { name: 'Home' })).toBeVisible()
  await expect(drawer(page)).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveCount(0)
  // the page the tab entered on: Back goes up, to the record's screen
  await bar.getByRole('link', { name: 'Back', exact: true }).click()
  await expect(page).toHaveURL(/\/culPlants(\?|$)/)
  await expect(page.getByRole('heading', { name: 'Plants', level: 1 })).toBeVisible()
  await bar.getByRole('link', { name: 'Home' }).click()
  await expect(page).toHaveURL(/\/Welcome/)
  await page.getByRole('button', { name: 'Leave kiosk mode' }).click()
  await expect(drawer(page)).toHaveCount(1)
})

test('outside kiosk mode the back button asks before leaving the app', async ({ page, createUser }) => {
  test.skip(test.info().project.name !== 'js', 'the confirmation needs JavaScript')
  const u = await createUser({ modules: { [FAC]: ['cul'] } })
  await signIn(page, u.email, u.password)
  await page.goto('/CulPlantings')
  await expect(page.getByRole('heading', { name: 'Plantings' })).toBeVisible()
  await page.waitForFunction(() => document.documentElement.dataset.exitGuard === 'on')
  // inside the app, back is an ordinary back (each page shown before the next step: a back while the
  // router still loads the page is a different test)
  await drawer(page).getByRole('link', { name: 'Plants', exact: true }).click()
  await expect(page).toHaveURL(/\/culPlants$/)
  await expect(page.getByRole('heading', { name: 'Plants', level: 1 })).toBeVisible()
  await expect(page.locator('tbody tr').first()).toBeVisible()
  await page.goBack()
  await expect(page).toHaveURL(/\/CulPlantings$/)
  await expect(page.getByRole('heading', { name: 'Plantings', level: 1 })).toBeVisible()
  await expect(page.locator('tbody tr').first()).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Leave Canopy?' })).toHaveCount(0)
  // the back that would leave asks
  await page.goBack()
  const dialog = page.getByRole('dialog', { name: 'Leave Canopy?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('Do you want to leave the app?')
  await dialog.getByRole('button', { name: 'Stay' }).click()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL(/\/CulPlantings$/)
})
