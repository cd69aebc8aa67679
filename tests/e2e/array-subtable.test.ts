/**
 * Array sub-tables in the edit form (issue 6, SPEC §2.6), with JavaScript on and off (both
 * projects run every test): Add row and Remove change the rows and save nothing, Save stores them
 * with ids, a bad value in a row is shown beside it. The file seeds its own facility and order
 * and removes them at the end (other tests count rows and facilities).
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, login, test, type NewUser } from './fixtures'

const fac = `e2e-arr-${crypto.randomBytes(4).toString('hex')}`
const actor = { uid: 'e2e-fixture' }
const PRODUCTS = ['Blue Dream 3.5g', 'Sour Diesel 1g', 'Gelato Pre-roll']
const prod = (k: number) => `${fac}-prod-${k}`
let user: { email: string; password: string }
let orderId: string

test.beforeAll(async ({ database }) => {
  await database.store.insert(actor, 'auth', 'org', { _id: fac, fullName: `E2E Array Farm ${fac.slice(-8)}`, timezone: 'America/Los_Angeles', state: 'CA' })
  await database.store.insert(actor, fac, 'set_clients', { _id: `${fac}-client-0`, name: 'Alpha Dispensary' })
  for (const [k, name] of PRODUCTS.entries()) await database.store.insert(actor, fac, 'dis_products', { _id: prod(k), name })
})

test.afterAll(async ({ database }) => {
  await database.store.remove(actor, 'auth', 'org', fac).catch(() => {})
})

test.beforeEach(async ({ createUser, database }) => {
  user = await createUser({ role: 'user', org: fac, modules: { [fac]: ['dis'] } } satisfies NewUser)
  // a fresh order per test, two stored line items with read-only totals
  orderId = `${fac}-order-${crypto.randomBytes(3).toString('hex')}`
  await database.store.insert(actor, fac, 'dis_orders', {
    _id: orderId,
    orderNo: `SO-A${crypto.randomBytes(2).toString('hex')}`,
    client: `${fac}-client-0`,
    items: [
      { id: '0', product: prod(0), qty: 2, price: 10, total: 20 },
      { id: '1', product: prod(1), qty: 1, price: 5, total: 5 },
    ],
  })
})

test.afterEach(async ({ database }) => {
  await database.store.remove(actor, fac, 'dis_orders', orderId).catch(() => {})
})

const qty = (page: Page, row: number) => page.getByLabel(`Qty, row ${row}`, { exact: true })
const rows = (page: Page) => page.getByRole('group', { name: 'Line Items' }).locator('tbody > tr')

async function openEdit(page: Page) {
  await login(page, user.email, user.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto(`/DisOrderTable/${orderId}/edit`)
  await expect(page.getByRole('heading', { name: 'Edit: Orders' })).toBeVisible()
}

test('Add row and Remove change the rows without saving; Save stores them, each row with an id', async ({ page, database, javaScriptEnabled }) => {
  const before = (await database.store.get(fac, 'dis_orders', orderId))!
  await openEdit(page)
  const posts: string[] = []
  page.on('request', (r) => {
    if (r.method() === 'POST') posts.push(new URL(r.url()).pathname)
  })
  await expect(rows(page)).toHaveCount(2)
  await expect(qty(page, 1)).toHaveValue('2')
  await expect(page.getByLabel('Product, row 2', { exact: true }).locator('option:checked')).toHaveText(PRODUCTS[1])

  await page.getByRole('button', { name: 'Add row: Line Items' }).click()
  await expect(rows(page)).toHaveCount(3)
  await expect(qty(page, 3)).toHaveValue('')
  await page.getByLabel('Product, row 3', { exact: true }).selectOption({ label: PRODUCTS[2] })
  await qty(page, 3).fill('6')
  await page.getByLabel('Unit Price, row 3', { exact: true }).fill('2.50')

  await page.getByRole('button', { name: 'Remove row 1' }).click()
  await expect(rows(page)).toHaveCount(2)
  await expect(qty(page, 1)).toHaveValue('1') // the stored second row is first now
  await expect(qty(page, 2)).toHaveValue('6') // what was typed in the added row is kept
  // with JavaScript the buttons work in the browser; without it each one posts the form and the action answers with the rows changed
  expect(posts).toEqual(javaScriptEnabled ? [] : [`/DisOrderTable/${orderId}/edit`, `/DisOrderTable/${orderId}/edit`])
  // only intents so far: the record is as it was
  const untouched = (await database.store.get(fac, 'dis_orders', orderId))!
  expect(untouched.ts).toBe(before.ts)
  expect(untouched.items).toEqual(before.items)

  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/DisOrderTable\?msg=saved$/)
  const saved = (await database.store.get(fac, 'dis_orders', orderId))!
  const items = saved.items as Array<Record<string, unknown>>
  expect(items).toHaveLength(2)
  // the read-only total is kept; the Package Tag left blank is saved as cleared (null), like a top-level field
  expect(items[0]).toEqual({ id: '1', product: prod(1), tag: null, qty: 1, price: 5, total: 5 })
  expect(items[1]).toMatchObject({ product: prod(2), qty: 6, price: 2.5 })
  expect(items[1].id).toMatch(/^[0-9]{8}$/)
  expect((await database.store.history(fac, 'dis_orders', orderId)).map((h) => h.action)).toEqual(['insert', 'update'])

  // the edit page shows the saved rows, the new one with its id
  await page.goto(`/DisOrderTable/${orderId}/edit`)
  await expect(rows(page)).toHaveCount(2)
  await expect(qty(page, 2)).toHaveValue('6')
  await expect(rows(page).nth(1).locator('input[type="hidden"][name="items[1].id"]')).toHaveValue(String(items[1].id))
  // and the table's nested row
  await page.goto(`/DisOrderTable?col=orderNo&q=${saved.orderNo}`)
  await page.getByRole('link', { name: /2 items/ }).click()
  const nested = page.getByRole('table', { name: 'Line Items (2)' })
  await expect(nested.locator('tbody tr')).toHaveCount(2)
  await expect(nested.locator('tbody')).toContainText(PRODUCTS[2])
  await expect(nested.locator('tbody')).not.toContainText(PRODUCTS[0])
})

test('a bad value in a row is shown beside it and nothing is saved; removing every row saves none', async ({ page, database }) => {
  const before = (await database.store.get(fac, 'dis_orders', orderId))!
  await openEdit(page)
  await qty(page, 2).fill('0')
  await page.getByRole('button', { name: 'Save' }).click()
  // beside the row, and in the form's error summary with a link to the field (issue 32 item 14)
  await expect(page.getByText('Qty must be at least 1', { exact: true })).toBeVisible()
  await expect(page.getByRole('alert', { name: 'Error' })).toContainText('Qty must be at least 1')
  await expect(qty(page, 2)).toHaveAttribute('aria-invalid', 'true')
  expect((await database.store.get(fac, 'dis_orders', orderId))!.ts).toBe(before.ts)

  await page.getByRole('button', { name: 'Remove row 2' }).click()
  await page.getByRole('button', { name: 'Remove row 1' }).click()
  await expect(page.getByText('No rows yet.')).toBeVisible()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/msg=saved/)
  expect((await database.store.get(fac, 'dis_orders', orderId))!.items).toEqual([])
})

test('Enter in a text field saves the record (SPEC §2.6), it does not press a row button', async ({ page, database }) => {
  await openEdit(page)
  await page.getByLabel('Sales Rep').fill('Kim')
  await page.getByLabel('Sales Rep').press('Enter')
  await expect(page).toHaveURL(/msg=saved/)
  const saved = (await database.store.get(fac, 'dis_orders', orderId))!
  expect(saved.rep).toBe('Kim')
  expect((saved.items as Array<{ id: string }>).map((r) => r.id)).toEqual(['0', '1'])
})
