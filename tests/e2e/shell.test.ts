/** SPEC §2.1 and §2.3: the shell, every route of the map, entitlements, workflows, kiosk, theme, language. */
import { MODULES, ROUTES } from '../../app/route-map'
import { expect, login, logout, PASSWORD, test } from './fixtures'

test('super can open every route of SPEC §2.3', async ({ page, createUser }) => {
  test.setTimeout(180_000)
  const u = await createUser({ role: 'super' })
  await login(page, u.email, u.password)
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  await expect(page.getByRole('region', { name: 'Signed in' })).toBeVisible()
  const failures: string[] = []
  for (const r of ROUTES) {
    const res = await page.request.get(r.path)
    const html = await res.text()
    // a generic screen's heading is the route's title; a business area's own page (dashboards, the new-account form)
    // names itself in its words: its heading shares a word with the title
    const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1].replace(/<[^>]+>/g, '').trim().toLowerCase() ?? ''
    const words = r.title.toLowerCase().replace(/&/g, '&amp;').split(/\s+/).map((w) => w.replace(/s$/, ''))
    const named = html.includes(`>${r.title.replace(/&/g, '&amp;')}</h1>`) || words.some((w) => w.length > 2 && !['dashboard', 'new'].includes(w) && heading.includes(w))
    if (res.status() !== 200 || !named) failures.push(`${r.path}: ${res.status()} ${heading}`)
  }
  expect(failures).toEqual([])
})

test('a restricted user sees only entitled modules, and a typed address outside them is 403', async ({ page, createUser }) => {
  const u = await createUser({ modules: { greenleaf: ['cul', 'help'] } })
  await login(page, u.email, u.password)
  // the side drawer (decision 061): its groups are on the page, no menu to open first
  const menu = page.getByRole('navigation', { name: 'Main menu' })
  await expect(menu.locator(':scope > details > summary')).toHaveText(['Cultivation', 'Help'])
  for (const path of ['/MetrcPlants', '/SupUsers', '/DisSales']) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(403)
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Not allowed (403)')
  }
  const ok = await page.goto('/culPlants')
  expect(ok?.status()).toBe(200)
  await expect(page.getByRole('heading', { name: 'Plants', level: 1 })).toBeVisible()
  await expect(page.getByRole('table')).toBeVisible()
})

/** Drawer groups for someone entitled to every module: module order, a route's own group where it names one. */
function everyModuleGroup(): string[] {
  const names: string[] = []
  for (const m of MODULES) for (const r of ROUTES.filter((x) => x.module === m.code)) if (!names.includes(r.group ?? m.name)) names.push(r.group ?? m.name)
  // a facility's admins (and super) manage its users (issue 22): the Administration group, before Super Admin
  for (const r of ROUTES.filter((x) => x.module === 'admin')) if (!names.includes(r.group ?? 'Administration')) names.push(r.group ?? 'Administration')
  return names
}

test('super sees every module group and Super Admin last; an admin (null module list) every group but Super Admin', async ({ page, createUser }) => {
  const groups = page.getByRole('navigation', { name: 'Main menu' }).locator(':scope > details > summary')
  const sup = await createUser({ role: 'super' })
  await login(page, sup.email, sup.password)
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  await expect(groups).toHaveText([...everyModuleGroup(), 'Super Admin'])

  await logout(page)
  const admin = await createUser({ role: 'admin', modules: { greenleaf: null } })
  await login(page, admin.email, admin.password)
  await expect(groups).toHaveText(everyModuleGroup())
})

test('workflows: a Workflows item comes first in each module with allowed workflows', async ({ page }) => {
  await login(page, 'admin@greenleaf.demo', PASSWORD)
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  const cultivation = page.getByRole('navigation', { name: 'Main menu' }).locator('details', { hasText: 'Cultivation' }).first()
  await cultivation.locator('summary').click()
  await expect(cultivation.getByRole('link').first()).toHaveText('Workflows')
  await cultivation.getByRole('link', { name: 'Workflows' }).click()
  await expect(page).toHaveURL(/\/CulWorkflows$/)
  await expect(page.getByText('Harvest day')).toBeVisible()
  const res = await page.goto('/DisWorkflows')
  expect(res?.status()).toBe(404) // Greenleaf allows no distribution workflow
  // an old link by the module's name leads to the module's prefix
  await page.goto('/CultivationWorkflows')
  await expect(page).toHaveURL(/\/CulWorkflows$/)
  await expect(page.getByText('Harvest day')).toBeVisible()
})

test('kiosk mode hides the bars, survives navigation, and its bar\'s button leaves it', async ({ page, createUser }) => {
  const u = await createUser()
  await login(page, u.email, u.password)
  await page.getByRole('button', { name: 'Kiosk' }).click()
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0)
  await page.goto('/CulPlantings')
  await expect(page.getByRole('heading', { name: 'Plantings' })).toBeVisible()
  const leave = page.getByRole('button', { name: 'Leave kiosk mode' })
  await expect(leave).toBeVisible()
  expect((await leave.boundingBox())!.height).toBeGreaterThanOrEqual(44)
  await leave.click()
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(1)
})

test('the theme is dark by default, and the light theme is saved across sign-ins', async ({ page, createUser }) => {
  const u = await createUser()
  await login(page, u.email, u.password)
  await expect(page.locator('html')).toHaveClass('dark')
  await page.getByRole('button', { name: 'Light theme' }).click()
  await expect(page.locator('html')).toHaveClass('light')
  await logout(page)
  await login(page, u.email, u.password)
  await expect(page.locator('html')).toHaveClass('light') // rendered on the first byte
  await page.getByRole('button', { name: 'Dark theme' }).click()
  await expect(page.locator('html')).toHaveClass('dark')
})

test('Spanish labels come from the phrase map when chosen', async ({ page, createUser, database }) => {
  const u = await createUser()
  const [plantings] = await database.store.find('auth', 'auth_phrasemap', { key: 'Plantings' })
  expect(plantings?.es).toBeTruthy()
  await login(page, u.email, u.password)
  await page.locator('summary[aria-label^="User menu"]').click()
  await page.getByRole('button', { name: 'Español' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'es')
  // the drawer's name is Spanish too
  const menu = page.getByRole('navigation', { name: 'Menú principal' })
  await menu.locator('details summary').first().click()
  await expect(menu.getByRole('link', { name: String(plantings.es) })).toBeVisible()
})

test('in kiosk mode the back button asks before leaving the app', async ({ page, createUser }) => {
  test.skip(test.info().project.name !== 'js', 'the confirmation is a browser dialog: it needs JavaScript')
  const u = await createUser()
  await login(page, u.email, u.password)
  await page.getByRole('button', { name: 'Kiosk' }).click()
  await page.goto('/CulPlantings')
  await expect(page.getByRole('heading', { name: 'Plantings' })).toBeVisible()
  await page.waitForFunction(() => document.documentElement.dataset.exitGuard === 'on')
  await page.goBack()
  const dialog = page.getByRole('dialog', { name: 'Leave Canopy?' })
  await expect(dialog).toBeVisible()
  expect((await dialog.boundingBox())!.width).toBeCloseTo(290, -1)
  await dialog.getByRole('button', { name: 'Stay' }).click()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL(/\/CulPlantings$/)
  await page.getByRole('button', { name: 'Leave kiosk mode' }).click()
})
