/**
 * Issue 32 item 13: the words and signs a person reads. A bad table URL is answered in plain words
 * (never zod's "Expected number, received nan" or "Invalid enum value"); a new record's form is
 * titled "New planting" or "Add a record to Products", not "Add: Plantings"; Create Order has no
 * two fields labelled "Created"; an order's lines count from 1; the top bar and Print label show
 * the app's own SVG icons, not emoji that render as empty boxes. JavaScript on and off.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }
const ZOD_ENGLISH = /Expected|received|Invalid enum|Invalid input|Required/
const EMOJI = /[\u2600-\u27BF\u{1F300}-\u{1FAFF}]/u

async function signIn(page: Page, user: { email: string; password: string }) {
  await login(page, user.email, user.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
}

test('a table URL with bad values is answered in plain words', async ({ page, createUser }) => {
  await signIn(page, await createUser({ modules: { [FAC]: ['cul'] } }))
  await page.goto('/CulPlantings?page=abc&dir=up')
  const notice = page.getByRole('status').filter({ hasText: 'Ignored' })
  await expect(notice).toContainText('Ignored dir="up": choose one of asc, desc.')
  await expect(notice).toContainText('Ignored page="abc": enter a number.')
  await expect(notice).not.toContainText(ZOD_ENGLISH)
})

test('a new record is titled by what it is: "New planting", "Add a record to Products"', async ({ page, createUser }) => {
  await signIn(page, await createUser({ modules: { [FAC]: ['cul'] } }))
  await page.goto('/CulPlantings/new')
  await expect(page.getByRole('heading', { name: 'New planting', level: 1 })).toBeVisible()
  await page.goto('/culProducts/new')
  await expect(page.getByRole('heading', { name: 'Add a record to Products', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: /^Add:/ })).toHaveCount(0)
})

test('Create Order has no two fields labelled "Created": Order Started and Record Created', async ({ page, createUser }) => {
  await signIn(page, await createUser({ role: 'admin', modules: { [FAC]: null } }))
  await page.goto('/DisCart/new')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByLabel('Order Started', { exact: true })).toBeVisible()
  await expect(page.getByLabel('Record Created', { exact: true })).toBeVisible()
  const labels = (await page.locator('form label').allInnerTexts()).map((s) => s.replace(/\s*\*$/, '').trim()).filter(Boolean)
  expect(labels.filter((l) => l === 'Created')).toEqual([])
  expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([])
})

test("an order's lines are numbered from 1", async ({ page, createUser, database }) => {
  const orderNo = `E2E-W-${crypto.randomBytes(3).toString('hex')}`
  const order = await database.store.insert(actor, FAC, 'dis_orders', {
    orderNo,
    items: [
      { id: '0', qty: 2, price: 5, total: 10 },
      { id: '1', qty: 3, price: 5, total: 15 },
    ],
  })
  try {
    await signIn(page, await createUser({ modules: { [FAC]: ['dis'] } }))
    await page.goto(`/DisOrderTable?col=orderNo&q=${orderNo}&all=1`)
    await page.getByRole('link', { name: /2 items/ }).click()
    const nested = page.getByRole('table', { name: 'Line Items (2)' })
    await expect(nested.getByRole('columnheader', { name: 'Line', exact: true })).toBeVisible()
    const headers = await nested.getByRole('columnheader').allInnerTexts()
    const line = headers.findIndex((h) => h.trim() === 'Line')
    expect(line, 'a Line column').toBeGreaterThanOrEqual(0)
    const rows = nested.locator('tbody tr')
    await expect(rows.nth(0).getByRole('cell').nth(line)).toHaveText('1')
    await expect(rows.nth(1).getByRole('cell').nth(line)).toHaveText('2')
  } finally {
    await database.store.remove(actor, FAC, 'dis_orders', order._id)
  }
})

test('the top bar and Print label show the app’s SVG icons, no emoji', async ({ page, createUser, database }) => {
  await signIn(page, await createUser({ modules: { [FAC]: ['cul'] } }))
  const header = page.locator('header').first()
  // the drawer's menu toggle (narrow screens) and its collapse button (wide ones, decision 061)
  await expect(header.locator('[aria-label="Menu"] svg')).toHaveCount(1)
  await expect(header.getByRole('button', { name: 'Side menu', exact: true }).locator('svg')).toHaveCount(1)
  await expect(header.locator('summary[aria-label^="User menu"] svg')).toHaveCount(1)
  expect(await header.innerText()).not.toMatch(EMOJI)

  const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 0, limit: 1, sort: { key: 'tag', dir: 'desc' }, activeOnly: true })).rows
  await page.goto(`/culPlants/${encodeURIComponent(plant._id)}/edit`)
  const print = page.getByRole('button', { name: 'Print label', exact: true })
  await expect(print).toBeVisible()
  await expect(print.locator('svg')).toHaveCount(1)
  expect(await print.innerText()).not.toMatch(EMOJI)
})
