/**
 * Issue 33 item 2 (decision 064): tables that stay usable when wide, on the seeded Plants table of
 * Greenleaf (15 columns, row boxes, a status dot, Edit and Delete), JavaScript on and off:
 * the toolbar fits one line at 1280 px; inside the table's scroll box the header row, the first
 * column and the Actions column stay in view when it is scrolled right and down (pure CSS sticky
 * cells, opaque in both themes); the row density is switched from the toolbar's menu and remembered.
 */
import type { Locator, Page } from '@playwright/test'
import { expect, login, test } from './fixtures'

test.use({ viewport: { width: 1280, height: 720 } })

const FAC = 'greenleaf'
const PLANTS = '/culPlants?all=1&size=40'

async function signedIn(page: Page, createUser: (u?: { modules?: Record<string, string[] | null> }) => Promise<{ email: string; password: string }>) {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto(PLANTS)
  await expect(page.locator('tbody tr').first()).toBeVisible()
}

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Table tools' })
const scroller = (page: Page) => page.getByTestId('table-scroll')
const table = (page: Page) => scroller(page).locator(':scope > table')
const firstRow = (page: Page) => table(page).locator(':scope > tbody > tr').first()

async function box(l: Locator) {
  const b = await l.boundingBox()
  expect(b, 'shown').not.toBeNull()
  return b!
}
/** b lies inside a (1 px of rounding allowed). */
function inside(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  return b.x >= a.x - 1 && b.y >= a.y - 1 && b.x + b.width <= a.x + a.width + 1 && b.y + b.height <= a.y + a.height + 1
}
/** The element found at the middle of `l` is `l` or inside it: nothing scrolled over it. */
const onTop = (l: Locator) =>
  l.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
    return !!hit && (hit === el || el.contains(hit)) ? true : `${hit?.tagName}.${hit?.className} ${hit?.outerHTML.slice(0, 300)} @ ${JSON.stringify(r)} ${el.outerHTML.slice(0, 400)}`
  })

test('the toolbar keeps its controls on one line at 1280 px, the rest in its More menu', async ({ page, createUser }) => {
  await signedIn(page, createUser)
  const rows = await toolbar(page).evaluate((el) => [...el.children].map((c) => ({ top: Math.round(c.getBoundingClientRect().top), h: Math.round(c.getBoundingClientRect().height), right: c.getBoundingClientRect().right })))
  expect(rows.length).toBeGreaterThanOrEqual(5) // search, dates, Refresh, More, Add Item
  const tops = new Set(rows.map((r) => r.top))
  expect([...tops], 'every control on the same line').toHaveLength(1)
  const tb = await box(toolbar(page))
  expect(Math.round(tb.height), "the toolbar is one control's height").toBeLessThanOrEqual(Math.max(...rows.map((r) => r.h)) + 1)
  expect(Math.max(...rows.map((r) => r.right))).toBeLessThanOrEqual(1280)
  for (const name of ['Search', 'Add Item']) await expect(toolbar(page).getByRole(name === 'Search' ? 'button' : 'link', { name, exact: true })).toBeVisible()
  await expect(toolbar(page).getByRole('link', { name: 'Refresh', exact: true })).toBeVisible()
  await expect(toolbar(page).getByLabel('Date filter')).toBeVisible()
  // the less used controls are in the menu, closed until asked (a <details>: no JavaScript needed)
  await expect(toolbar(page).getByRole('link', { name: 'Export CSV' })).toBeHidden()
  await toolbar(page).getByLabel('More table tools').click()
  await expect(toolbar(page).getByRole('link', { name: 'Export CSV' })).toBeVisible()
  await expect(toolbar(page).getByRole('link', { name: 'Showing All Records' })).toBeVisible()
  await expect(toolbar(page).getByRole('link', { name: 'Font size 12 px' })).toBeVisible()
  await expect(toolbar(page).getByRole('group', { name: 'Row density' }).getByRole('button', { name: 'Compact' })).toBeVisible()
})

for (const theme of ['dark', 'light'] as const) {
  test(`scrolled right and down, the header row, the first column and the Actions column stay in the box (${theme} theme)`, async ({ page, createUser }) => {
    await signedIn(page, createUser)
    if (theme === 'light') {
      // the shell's theme switch is a form post (the session's cookie rides along)
      const r = await page.request.post('/Preferences', { form: { intent: 'theme', light: 'yes', back: PLANTS }, maxRedirects: 0 })
      expect(r.status()).toBe(302)
      await page.reload()
      await expect(page.locator('html')).toHaveClass(/\blight\b/)
    }
    const sc = scroller(page)
    const size = await sc.evaluate((el) => ({ w: el.scrollWidth, cw: el.clientWidth, h: el.scrollHeight, ch: el.clientHeight }))
    expect(size.w, 'the table is wider than its box').toBeGreaterThan(size.cw + 200)
    expect(size.h, 'and taller').toBeGreaterThan(size.ch + 200)

    const heads = table(page).locator(':scope > thead > tr > th')
    const firstHead = table(page).locator(':scope > thead th.stick-last')
    const secondHead = firstHead.locator('xpath=following-sibling::th[1]')
    const lastRow = table(page).locator(':scope > tbody > tr').last()
    const firstCell = lastRow.locator(':scope > td.stick-last')
    const actions = lastRow.locator(':scope > td.stick-end')
    await expect(firstCell).toHaveCount(1)
    await expect(actions.getByRole('link', { name: 'Edit' })).toHaveCount(1)

    // the page brings the whole box into the window, then a wheel over the box scrolls the box (no JavaScript needed)
    await sc.evaluate((el) => el.scrollIntoView({ block: 'end' }))
    const b = await box(sc)
    expect(b.y, 'the box fits the window').toBeGreaterThanOrEqual(0)
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2)
    // a wheel turned while a loaded machine is still laying out the reloaded page can go nowhere: turn it until the box moves
    const turned = async (dx: number, dy: number, read: (el: Element) => number) => {
      await page.mouse.wheel(dx, dy)
      return sc.evaluate(read)
    }
    await expect.poll(() => turned(4000, 0, (el) => el.scrollLeft)).toBeGreaterThan(200)
    await expect.poll(() => turned(0, 6000, (el) => el.scrollTop)).toBeGreaterThan(200)
    await expect.poll(() => turned(4000, 6000, (el) => Number(Math.ceil(el.scrollTop + el.clientHeight) >= el.scrollHeight - 1 && Math.ceil(el.scrollLeft + el.clientWidth) >= el.scrollWidth - 1))).toBe(1)

    const area = await box(sc)
    // the header row sticks to the top of the box, every header cell of it
    const hb = await box(heads.first())
    expect(Math.abs(hb.y - area.y), 'header at the top of the box').toBeLessThanOrEqual(2)
    for (const h of [firstHead, heads.last()]) expect(inside(area, await box(h)), await h.innerText()).toBe(true)
    // a middle column went out of the box to the left; the first column did not
    const mid = await box(secondHead)
    expect(mid.x + mid.width, 'the second column scrolled under the first').toBeLessThanOrEqual((await box(firstHead)).x + (await box(firstHead)).width + 1)
    // the last row's first cell and its Actions are in the box, and nothing lies over them
    for (const [name, l] of [['first column', firstCell], ['actions', actions], ['first column header', firstHead], ['actions header', heads.last()]] as const) {
      expect(inside(area, await box(l)), name).toBe(true)
      expect(await onTop(l), `${name} on top`).toBe(true)
    }
    await expect(actions.getByRole('link', { name: 'Edit' })).toBeInViewport()
    // opaque sticky cells in the theme's own colour
    const bg = (l: Locator) => l.evaluate((el) => getComputedStyle(el).backgroundColor)
    const page_ = theme === 'light' ? 'rgb(248, 250, 252)' : 'rgb(2, 6, 23)'
    expect(await bg(firstHead)).toBe(page_)
    expect(await bg(heads.nth(3))).toBe(page_)
    expect(await bg(firstCell)).toMatch(theme === 'light' ? /^rgb\((248, 250, 252|241, 245, 249)\)$/ : /^rgb\((2, 6, 23|15, 23, 42)\)$/)
  })
}

test('the row density switch changes the row height and is remembered', async ({ page, createUser }) => {
  await signedIn(page, createUser)
  await expect(table(page)).toHaveAttribute('data-density', 'comfortable')
  const comfortable = (await box(firstRow(page))).height
  expect(comfortable, 'comfortable rows hold 44 px targets').toBeGreaterThanOrEqual(44)
  await toolbar(page).getByLabel('More table tools').click()
  await toolbar(page).getByRole('group', { name: 'Row density' }).getByRole('button', { name: 'Compact' }).click()
  await expect(table(page)).toHaveAttribute('data-density', 'compact')
  await expect.poll(async () => (await box(firstRow(page))).height).toBeLessThan(comfortable - 10)
  // remembered: a new page load, and another table, are compact too
  await page.reload()
  await expect(table(page)).toHaveAttribute('data-density', 'compact')
  expect((await box(firstRow(page))).height).toBeLessThan(comfortable - 10)
  await page.goto('/culPlantings?all=1')
  await expect(table(page)).toHaveAttribute('data-density', 'compact')
  await toolbar(page).getByLabel('More table tools').click()
  await expect(toolbar(page).getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true')
  // and back
  await toolbar(page).getByRole('button', { name: 'Comfortable' }).click()
  await expect(table(page)).toHaveAttribute('data-density', 'comfortable')
  await page.goto(PLANTS)
  await expect(table(page)).toHaveAttribute('data-density', 'comfortable')
  expect(Math.abs((await box(firstRow(page))).height - comfortable)).toBeLessThanOrEqual(1)
})
