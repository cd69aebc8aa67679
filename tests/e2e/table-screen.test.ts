/**
 * SPEC §2.5 / issue 5: the generic table screen, with JavaScript on and off (both projects run
 * every test). Each run seeds its own facility with 45 orders whose dates are days before "now"
 * in the facility's time zone, so every count below follows from the seed, not from the app.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { parseCsv } from '../../app/screens/csv'
import { expect, login, test, type NewUser } from './fixtures'

const TZ = 'America/Los_Angeles'
const N = 45
const INACTIVE = new Set([40, 41, 42, 43, 44]) // the oldest five are not in use
const CLIENTS = ['Alpha Dispensary', 'Bravo Wellness', 'Charlie Collective']
const DAY = 86_400_000

const fac = `e2e-tbl-${crypto.randomBytes(4).toString('hex')}`
const orderNo = (i: number) => `SO-${String(i + 1).padStart(3, '0')}`
let user: { email: string; password: string }

/** Today's calendar date in the facility's zone. */
function localToday(): { y: number; m: number; d: number; dow: number } {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: TZ, year: 'numeric', month: 'numeric', day: 'numeric', weekday: 'short' }).formatToParts(new Date()).map((x) => [x.type, x.value]))
  return { y: +p.year, m: +p.month, d: +p.day, dow: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday) }
}
/** Order i is dated i local days before today (at 12:00 local, far from any midnight). */
function orderDay(i: number): { y: number; m: number; d: number } {
  const t = localToday()
  const u = new Date(Date.UTC(t.y, t.m - 1, t.d - i))
  return { y: u.getUTCFullYear(), m: u.getUTCMonth() + 1, d: u.getUTCDate() }
}
/** How many active orders fall on local days for which `keep(daysAgo, date)` holds. */
function expected(keep: (i: number, day: { y: number; m: number; d: number }) => boolean): number {
  let n = 0
  for (let i = 0; i < N; i++) if (!INACTIVE.has(i) && keep(i, orderDay(i))) n++
  return n
}

test.beforeAll(async ({ database }) => {
  const actor = { uid: 'e2e-fixture' }
  await database.store.insert(actor, 'auth', 'org', { _id: fac, fullName: `E2E Table Farm ${fac.slice(-8)}`, timezone: TZ, state: 'CA' })
  const clients = []
  for (const [k, name] of CLIENTS.entries()) clients.push(await database.store.insert(actor, fac, 'set_clients', { _id: `${fac}-client-${k}`, name }))
  const products = [await database.store.insert(actor, fac, 'dis_products', { _id: `${fac}-prod-0`, name: 'Blue Dream 3.5g' })]
  const docs = []
  for (let i = 0; i < N; i++) {
    const d = orderDay(i)
    // 12:00 in Los Angeles is 19:00 or 20:00 UTC: take 19:30 UTC (11:30 or 12:30 local)
    const at = new Date(Date.UTC(d.y, d.m - 1, d.d, 19, 30)).toISOString()
    docs.push({
      _id: `${fac}-order-${i}`,
      orderNo: orderNo(i),
      client: clients[i % 3]._id,
      orderDate: at,
      deliveryDate: new Date(Date.parse(at) + 2 * DAY).toISOString(),
      items: Array.from({ length: (i % 3) + 1 }, (_, j) => ({ id: `L${j + 1}`, product: products[0]._id, qty: j + 2, price: 12.5, total: 12.5 * (j + 2) })),
      subtotal: 100 + i,
      exciseTax: 15,
      total: 115 + i + 0.5,
      status: 'Pending',
      terms: 'Net 30',
      paid: i % 2 === 0 ? 'yes' : 'no',
      rep: 'Dana',
      notes: i === 3 ? 'Deliver to the back door, ring twice and wait for security' : '',
      ...(INACTIVE.has(i) ? { IsUsed: 'no' } : {}),
    })
  }
  await database.store.insertMany(actor, fac, 'dis_orders', docs)
})

// the facility goes when the file is done: other tests count the facilities on this server
test.afterAll(async ({ database }) => {
  await database.store.remove({ uid: 'e2e-fixture' }, 'auth', 'org', fac).catch(() => {})
})

test.beforeEach(async ({ createUser }) => {
  user = await createUser({ role: 'user', org: fac, modules: { [fac]: ['dis', 'help'] } } satisfies NewUser)
})

const table = (page: Page) => page.getByRole('table').first()
const bodyRows = (page: Page) => table(page).locator(':scope > tbody > tr')
const firstCells = (page: Page, col: number) => bodyRows(page).locator(`:scope > td:nth-child(${col})`)
/** Column position (1-based) of a header, by its sort link's text. */
async function colOf(page: Page, label: string): Promise<number> {
  const heads = await table(page).locator(':scope > thead th').allInnerTexts()
  const i = heads.findIndex((h) => h.trim().startsWith(label))
  expect(i, `column ${label}`).toBeGreaterThanOrEqual(0)
  return i + 1
}
/** Opens the toolbar's More menu (a <details>; decision 064): Active/All, hidden columns, density, font sizes, Export. */
const more = (page: Page) => page.getByRole('toolbar', { name: 'Table tools' }).getByLabel('More table tools').click()
const countText = (page: Page) => page.getByText(/^\d+–\d+ of \d+ items?$|^0 items$/)

async function open(page: Page, query = '') {
  await login(page, user.email, user.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto(`/DisOrderTable${query}`)
  await expect(page.getByRole('heading', { name: 'Order Table', level: 1 })).toBeVisible()
}

test('sorts each way from the header links, and shows the active records by default', async ({ page }) => {
  await open(page, '?size=10')
  await expect(countText(page)).toHaveText(`1–10 of ${N - INACTIVE.size} items`)
  const col = await colOf(page, 'Order #')
  await table(page).getByRole('link', { name: /^Order #/ }).click()
  await expect(page).toHaveURL(/sort=orderNo&dir=asc/)
  await expect(firstCells(page, col).first()).toHaveText('SO-001')
  await expect(table(page).locator('th[aria-sort="ascending"]')).toContainText('Order #')
  await table(page).getByRole('link', { name: /^Order #/ }).click()
  await expect(page).toHaveURL(/dir=desc/)
  await expect(firstCells(page, col).first()).toHaveText('SO-040')
  // a referenced column sorts by the label shown
  const client = await colOf(page, 'Client')
  await table(page).getByRole('link', { name: /^Client/ }).click()
  await expect(page).toHaveURL(/sort=client&dir=asc/)
  await expect(firstCells(page, client).first()).toHaveText(CLIENTS[0])
  await table(page).getByRole('link', { name: /^Client/ }).click()
  await expect(page).toHaveURL(/sort=client&dir=desc/)
  await expect(firstCells(page, client).first()).toHaveText(CLIENTS[2])

  await more(page)
  await page.getByRole('link', { name: 'Showing Active Records' }).click()
  // the new view closes the menu: open it again once it has arrived
  await expect(page).toHaveURL(/all=1/)
  await more(page)
  await expect(page.getByRole('link', { name: 'Showing All Records' })).toBeVisible()
  await expect(countText(page)).toHaveText(`1–10 of ${N} items`)
})

test('searches a chosen column, including a referenced one', async ({ page }) => {
  await open(page)
  await page.getByLabel('Search column').selectOption({ label: 'Client' })
  await page.getByLabel('Search text').fill('bravo')
  await page.getByLabel('Search text').press('Enter')
  await expect(page).toHaveURL(/col=client&q=bravo/)
  await expect(countText(page)).toHaveText(`1–${expected((i) => i % 3 === 1)} of ${expected((i) => i % 3 === 1)} items`)
  const client = await colOf(page, 'Client')
  for (const c of await firstCells(page, client).allInnerTexts()) expect(c).toBe(CLIENTS[1])

  // the filter icon of a column chooses it for the search
  await page.goto('/DisOrderTable')
  await table(page).getByRole('link', { name: 'Search in Order #' }).click()
  await expect(page.getByLabel('Search column')).toHaveValue('orderNo')
  await page.getByLabel('Search text').fill('SO-01')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(countText(page)).toHaveText('1–10 of 10 items')
  // nothing found: the screen says what to do
  await page.getByLabel('Search text').fill('no such order')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page.getByText('No records match this search or date filter.')).toBeVisible()
  await page.getByRole('link', { name: 'Clear the search and dates' }).click()
  await expect(countText(page)).toHaveText(`1–20 of ${N - INACTIVE.size} items`)
})

test('with JavaScript the search runs a second after typing stops', async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'without JavaScript the search runs on submit')
  await open(page)
  await page.getByLabel('Search text').pressSequentially('SO-00', { delay: 50 })
  await expect(page).toHaveURL(/q=SO-00/, { timeout: 5000 })
  await expect(countText(page)).toHaveText('1–9 of 9 items')
})

test('each date shortcut and a custom range count the orders of those local days', async ({ page }) => {
  const t = localToday()
  const key = (x: { y: number; m: number; d: number }) => x.y * 10000 + x.m * 100 + x.d
  const today = key(t)
  const lastMonth = t.m === 1 ? { y: t.y - 1, m: 12 } : { y: t.y, m: t.m - 1 }
  const cases: Array<[string, number]> = [
    ['Today', expected((i) => i === 0)],
    ['Yesterday', expected((i) => i === 1)],
    ['This week', expected((i) => i <= t.dow)],
    ['Last week', expected((i) => i > t.dow && i <= t.dow + 7)],
    ['Last 7 days', expected((i) => i < 7)],
    ['Last 30 days', expected((i) => i < 30)],
    ['This month', expected((_, d) => d.y === t.y && d.m === t.m)],
    ['Last month', expected((_, d) => d.y === lastMonth.y && d.m === lastMonth.m)],
    ['This year', expected((_, d) => d.y === t.y)],
    ['Last year', expected((_, d) => d.y === t.y - 1)],
  ]
  await open(page)
  for (const [label, n] of cases) {
    await page.getByLabel('Date filter').click()
    await page.getByRole('navigation', { name: 'Date shortcuts' }).getByRole('link', { name: label, exact: true }).click()
    await expect(page.getByLabel('Date filter')).toContainText(label)
    await expect(countText(page), label).toHaveText(n ? `1–${Math.min(20, n)} of ${n} item${n === 1 ? '' : 's'}` : '0 items')
  }
  // a custom range: from 10 days ago to 3 days ago, both days included
  const iso = (x: { y: number; m: number; d: number }) => `${x.y}-${String(x.m).padStart(2, '0')}-${String(x.d).padStart(2, '0')}`
  await page.getByLabel('Date filter').click()
  await page.getByLabel('From', { exact: true }).fill(iso(orderDay(10)))
  await page.getByLabel('To', { exact: true }).fill(iso(orderDay(3)))
  await page.getByRole('button', { name: 'Apply dates' }).click()
  await expect(countText(page)).toHaveText(`1–8 of 8 items`)
  expect(today).toBe(key(orderDay(0)))
})

test('hides and shows columns, changes the font size, page size and page', async ({ page }) => {
  await open(page)
  await table(page).getByRole('link', { name: 'Hide column Terms' }).click()
  await expect(table(page).locator('thead')).not.toContainText('Terms')
  await expect(page).toHaveURL(/hide=terms/)
  await page.getByRole('link', { name: 'Show column Terms' }).click()
  await expect(table(page).locator('thead')).toContainText('Terms')
  // Show Hidden Columns shows what the user hid (and what the schema hides)
  await table(page).getByRole('link', { name: 'Hide column Sales Rep' }).click()
  await expect(table(page).locator('thead')).not.toContainText('Sales Rep')
  await more(page)
  await page.getByRole('link', { name: 'Show Hidden Columns' }).click()
  await expect(table(page).locator('thead')).toContainText('Sales Rep')

  await more(page)
  await page.getByRole('link', { name: 'Font size 10 px' }).click()
  await expect(table(page)).toHaveCSS('font-size', '10px')
  await more(page)
  await page.getByRole('link', { name: 'Font size 12 px' }).click()
  await expect(table(page)).toHaveCSS('font-size', '12px')

  const active = N - INACTIVE.size
  await page.getByRole('group', { name: 'Rows per page' }).getByRole('link', { name: '10', exact: true }).click()
  await expect(bodyRows(page)).toHaveCount(10)
  await expect(countText(page)).toHaveText(`1–10 of ${active} items`)
  await page.getByRole('link', { name: 'Next' }).click()
  await expect(countText(page)).toHaveText(`11–20 of ${active} items`)
  // Next continues after the last row shown (decision 008): the same rows as page 2 counted from the start
  await expect(page).toHaveURL(/page=2&after=/)
  // the order numbers shown, in order (polled: with JavaScript the rows render just after the address changes)
  const shown = () => bodyRows(page).evaluateAll((rows) => rows.map((r) => /SO-\d{3}/.exec(r.textContent ?? '')?.[0] ?? ''))
  const page2 = Array.from({ length: 10 }, (_, i) => orderNo(10 + i))
  await expect.poll(shown).toEqual(page2)
  await page.getByRole('link', { name: 'Next' }).click()
  await expect(page).toHaveURL(/page=3&after=/)
  const page3 = Array.from({ length: 10 }, (_, i) => orderNo(20 + i))
  await expect.poll(shown).toEqual(page3)
  await page.getByRole('link', { name: 'Previous' }).click()
  await expect(page).toHaveURL(/page=2&before=/)
  await expect(page.getByText(`Page 2 of 4`)).toBeVisible()
  await expect.poll(shown).toEqual(page2)
  await page.getByRole('link', { name: 'Last page' }).click()
  await expect(page.getByText(`Page 4 of 4`)).toBeVisible()
  await expect(page).not.toHaveURL(/after=|before=/)
  await expect(countText(page)).toHaveText(`31–40 of ${active} items`)
  await page.getByRole('link', { name: 'Previous' }).click()
  await expect(page.getByText(`Page 3 of 4`)).toBeVisible()
  await expect.poll(shown).toEqual(page3)
  await page.getByRole('group', { name: 'Rows per page' }).getByRole('link', { name: '40', exact: true }).click()
  await expect(bodyRows(page)).toHaveCount(40)
  await page.getByRole('group', { name: 'Rows per page' }).getByRole('link', { name: '30', exact: true }).click()
  await expect(bodyRows(page)).toHaveCount(30)
})

test('expands a row to its nested line items, with referenced labels', async ({ page }) => {
  await open(page, '?sort=orderNo&dir=asc')
  const items = await colOf(page, 'Line Items')
  const link = firstCells(page, items).nth(2).getByRole('link') // SO-003 has 3 line items
  await expect(link).toHaveText(/3 items/)
  await link.click()
  const nested = page.getByRole('table', { name: 'Line Items (3)' })
  await expect(nested).toBeVisible()
  await expect(nested.locator('tbody tr')).toHaveCount(3)
  await expect(nested.locator('tbody')).toContainText('Blue Dream 3.5g')
  await expect(nested.locator('tbody')).toContainText('$12.50')
  await firstCells(page, items).nth(2).getByRole('link').click()
  await expect(nested).toHaveCount(0)
})

test('a check cell toggles yes/no and is saved', async ({ page, database }) => {
  await open(page, '?sort=orderNo&dir=asc')
  const paid = await colOf(page, 'Paid')
  const cell = firstCells(page, paid).first().getByRole('button')
  await expect(cell).toHaveText('Yes') // SO-001 was paid
  await cell.click()
  await expect(firstCells(page, paid).first().getByRole('button')).toHaveText('No')
  await expect.poll(async () => (await database.store.get(fac, 'dis_orders', `${fac}-order-0`))?.paid).toBe('no')
  await page.reload()
  await expect(firstCells(page, paid).first().getByRole('button')).toHaveText('No')
  await firstCells(page, paid).first().getByRole('button').click()
  await expect.poll(async () => (await database.store.get(fac, 'dis_orders', `${fac}-order-0`))?.paid).toBe('yes')
  const history = await database.store.history(fac, 'dis_orders', `${fac}-order-0`)
  expect(history.filter((h) => h.action === 'update').length).toBeGreaterThanOrEqual(2)
})

test('the bin asks "Are you sure you want to delete this item?" and deletes', async ({ page, database }) => {
  const id = `${fac}-extra-${crypto.randomBytes(3).toString('hex')}`
  await database.store.insert({ uid: 'e2e-fixture' }, fac, 'dis_orders', { _id: id, orderNo: 'SO-999', orderDate: new Date().toISOString(), total: 1 })
  await open(page, '?col=orderNo&q=SO-999')
  await expect(countText(page)).toHaveText('1–1 of 1 item')
  await table(page).getByRole('link', { name: 'Delete' }).click()
  await expect(page.getByRole('heading', { name: 'Delete item' })).toBeVisible()
  await expect(page.getByText('Are you sure you want to delete this item?')).toBeVisible()
  await page.getByRole('link', { name: 'Cancel' }).click()
  await expect(countText(page)).toHaveText('1–1 of 1 item')
  await table(page).getByRole('link', { name: 'Delete' }).click()
  await page.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('The item was deleted.').first()).toBeVisible()
  await expect(page.getByText('No records match this search or date filter.')).toBeVisible()
  expect(await database.store.get(fac, 'dis_orders', id)).toBeNull()
})

test('rows per page default from the window height with JavaScript (20 without)', async ({ page, javaScriptEnabled }) => {
  await page.setViewportSize({ width: 1280, height: 1000 })
  await open(page)
  await expect(bodyRows(page)).toHaveCount(javaScriptEnabled ? 30 : 20)
  if (javaScriptEnabled) await expect(page).toHaveURL(/size=30/)
  await page.setViewportSize({ width: 1280, height: 380 })
  await page.goto('/DisOrderTable')
  await expect(bodyRows(page)).toHaveCount(javaScriptEnabled ? 10 : 20)
})

test('Refresh lights up when someone else changes the table', async ({ page, browser, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'the server push needs JavaScript; without it Refresh is a plain link')
  await open(page, '?sort=orderNo&dir=asc')
  await expect(page.getByRole('link', { name: 'Refresh', exact: true })).toBeVisible()
  // a colleague toggles a check cell in another browser
  const ctx = await browser.newContext({ baseURL: new URL(page.url()).origin })
  const other = await ctx.newPage()
  await login(other, user.email, user.password)
  await other.getByRole('region', { name: 'Signed in' }).waitFor()
  await other.goto('/DisOrderTable?sort=orderNo&dir=asc')
  const paid = await colOf(other, 'Paid')
  const before = await firstCells(other, paid).nth(1).innerText()
  await firstCells(other, paid).nth(1).getByRole('button').click()
  await expect(firstCells(other, paid).nth(1).getByRole('button')).not.toHaveText(before)
  await ctx.close()
  const refresh = page.getByRole('link', { name: 'Refresh: this table has changed' })
  await expect(refresh).toBeVisible()
  await refresh.click()
  await expect(page.getByRole('link', { name: 'Refresh', exact: true })).toBeVisible()
  await expect(firstCells(page, paid).nth(1)).not.toHaveText(before)
})

test('Add Item and the edit pencil save through the form, validated, and back to the same view', async ({ page, database }) => {
  const no = `SO-N${crypto.randomBytes(2).toString('hex')}`
  await open(page, '?sort=orderNo&dir=desc')
  await page.getByRole('link', { name: 'Add Item' }).click()
  await expect(page.getByRole('heading', { name: 'New order' })).toBeVisible()
  await expect(page.getByLabel('Order #', { exact: true })).toHaveValue('')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('You must enter a Order # value', { exact: true })).toBeVisible()
  await page.getByLabel('Order #', { exact: true }).fill(no)
  // with JavaScript the form is a dialog over the table, whose header links say 'Hide column Client' and so on: exact labels
  await page.getByLabel('Client', { exact: true }).selectOption({ label: CLIENTS[1] })
  await page.getByLabel('Terms', { exact: true }).selectOption('Net 15')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/DisOrderTable\?sort=orderNo&dir=desc&msg=saved$/)
  await expect(page.getByText('The item was saved.').first()).toBeVisible()
  const [saved] = await database.store.find(fac, 'dis_orders', { orderNo: no }, 1)
  expect(saved).toMatchObject({ client: `${fac}-client-1`, terms: 'Net 15' })

  await page.goto(`/DisOrderTable?col=orderNo&q=${no}`)
  await table(page).getByRole('link', { name: 'Edit' }).click()
  await expect(page.getByRole('heading', { name: 'Edit: Orders' })).toBeVisible()
  await expect(page.getByLabel('Order #', { exact: true })).toHaveValue(no)
  await page.getByLabel('Sales Rep', { exact: true }).fill('Kim')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(new RegExp(`/DisOrderTable\\?col=orderNo&q=${no}&msg=saved$`))
  await expect.poll(async () => (await database.store.get(fac, 'dis_orders', saved._id))?.rep).toBe('Kim')
  const history = await database.store.history(fac, 'dis_orders', saved._id)
  expect(history.map((h) => h.action)).toEqual(['insert', 'update'])
  await database.store.remove({ uid: 'e2e-fixture' }, fac, 'dis_orders', saved._id) // the counts of the other tests stay true
})

test('a plant marked dead without its disposal fields is refused with the SPEC §5 message, nothing saved', async ({ page, createUser, database }) => {
  const grower = await createUser({ modules: { greenleaf: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/culPlants?size=10&sort=tag&dir=asc')
  await table(page).getByRole('link', { name: 'Edit' }).first().click()
  // with JavaScript the form loads into a dialog over the table (a fetch): slower on a loaded machine
  await expect(page.getByRole('heading', { name: 'Edit: Plants' })).toBeVisible({ timeout: 15_000 })
  const tag = await page.getByLabel('Plant Tag', { exact: true }).inputValue()
  const [before] = await database.store.find('greenleaf', 'fac_plants', { tag }, 1)
  await page.getByLabel('Mark As Dead', { exact: true }).check()
  await page.getByRole('button', { name: 'Save' }).click()
  const error = page.getByRole('alert', { name: 'Error' })
  await expect(error).toContainText('Waste Method, Mix Material and Dead Weight should all be specified')
  await expect(page.getByLabel('Mark As Dead', { exact: true })).toBeChecked()
  const [after] = await database.store.find('greenleaf', 'fac_plants', { tag }, 1)
  expect(after.ts).toBe(before.ts)
})

test('a conflicting edit is refused with what the other save changed, and the history shows both', async ({ page, browser, javaScriptEnabled, database }) => {
  const id = `${fac}-conflict-${crypto.randomBytes(3).toString('hex')}`
  await database.store.insert({ uid: 'e2e-fixture' }, fac, 'dis_orders', { _id: id, orderNo: 'SO-CF', rep: 'Ann', client: `${fac}-client-0` })
  await open(page)
  await page.goto(`/DisOrderTable/${id}/edit`)
  // a colleague opens the same record and saves first
  const ctx = await browser.newContext({ javaScriptEnabled, baseURL: new URL(page.url()).origin })
  const other = await ctx.newPage()
  await login(other, user.email, user.password)
  await other.getByRole('region', { name: 'Signed in' }).waitFor()
  await other.goto(`/DisOrderTable/${id}/edit`)
  await other.getByLabel('Sales Rep').fill('Bo')
  await other.getByRole('button', { name: 'Save' }).click()
  await expect(other).toHaveURL(/msg=saved/)
  await ctx.close()

  await page.getByLabel('Sales Rep').fill('Cy')
  await page.getByRole('button', { name: 'Save' }).click()
  const error = page.getByRole('alert', { name: 'Error' })
  await expect(error).toContainText('Someone else saved this record after you opened it')
  await expect(error).toContainText('Sales Rep: Ann → Bo')
  expect((await database.store.get(fac, 'dis_orders', id))?.rep).toBe('Bo')

  await page.getByRole('link', { name: 'History' }).click()
  await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible()
  // the page's own list (the drawer and the breadcrumbs are lists too, decision 061)
  const entries = page.getByRole('region', { name: 'History' }).getByRole('listitem')
  await expect(entries).toHaveCount(2)
  await expect(entries.first()).toContainText('Changed')
  await expect(entries.first().getByRole('row', { name: /Sales Rep/ })).toContainText('Ann')
  await expect(entries.first().getByRole('row', { name: /Sales Rep/ })).toContainText('Bo')
  await expect(entries.last()).toContainText('Created')
  await database.store.remove({ uid: 'e2e-fixture' }, fac, 'dis_orders', id) // the counts of the other tests stay true
})

test('a shared link opens the identical view in a fresh browser', async ({ page, browser, javaScriptEnabled }) => {
  await open(page, '?sort=total&dir=desc&size=10&page=2&col=client&q=a&hide=terms,rep&font=12&all=1')
  const url = page.url()
  const text = await table(page).innerText()
  const ctx = await browser.newContext({ javaScriptEnabled, baseURL: new URL(url).origin })
  const other = await ctx.newPage()
  await login(other, user.email, user.password)
  await other.getByRole('region', { name: 'Signed in' }).waitFor()
  await other.goto(url)
  expect(await table(other).innerText()).toBe(text)
  expect(other.url()).toBe(url)
  await ctx.close()
})

test('bad parameters are dropped with a notice, never a crash', async ({ page }) => {
  await open(page, '?page=abc&size=7&sort=nope&font=99&whatever=1')
  const notice = page.getByRole('status').filter({ hasText: 'Ignored' })
  await expect(notice).toContainText('Ignored page="abc"')
  await expect(notice).toContainText('Ignored size="7"')
  await expect(notice).toContainText('Ignored sort="nope"')
  await expect(notice).toContainText('Ignored "whatever"')
  await expect(countText(page)).toHaveText(`1–20 of ${N - INACTIVE.size} items`)
})

test('exports the current view, every page, as CSV matching the rows shown', async ({ page }) => {
  await open(page, '?sort=orderNo&dir=asc&size=10&col=client&q=alpha')
  const shown = await bodyRows(page).evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll(':scope > td')].map((td) => (td as HTMLElement).innerText.trim())))
  const heads = (await table(page).locator(':scope > thead th').allInnerTexts()).map((h) => h.trim())
  await more(page)
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  const csv = parseCsv((await (await download.createReadStream()).toArray()).join('').replace(/^\uFEFF/, ''))
  const total = expected((i) => i % 3 === 0)
  expect(csv.length - 1).toBe(total) // every page, not only the 10 rows on screen
  const header = csv[0]
  for (const label of ['Order #', 'Client', 'Order Date', 'Total']) {
    const s = heads.findIndex((h) => h.startsWith(label))
    const c = header.indexOf(label)
    expect(c, label).toBeGreaterThanOrEqual(0)
    expect(csv.slice(1, 11).map((r) => r[c]), label).toEqual(shown.map((r) => r[s]))
  }
})
