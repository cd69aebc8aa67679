/**
 * Issue 6: with JavaScript the table's edit pencil and Add Item open the form in a dialog over the
 * table, posting to the pages' action; without it (and with a ctrl-click) they go to the pages.
 * The file seeds its own facility with two orders and removes everything it added when done.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, signIn, test } from './fixtures'

const fac = `e2e-dlg-${crypto.randomBytes(4).toString('hex')}`
const actor = { uid: 'e2e-fixture' }
const CLIENTS = ['Alpha Dispensary', 'Bravo Wellness']
const first = `${fac}-order-1`
let user: { email: string; password: string }

test.beforeAll(async ({ database }) => {
  await database.store.insert(actor, 'auth', 'org', { _id: fac, fullName: `E2E Dialog Farm ${fac.slice(-8)}`, timezone: 'America/Los_Angeles', state: 'CA' })
  for (const [k, name] of CLIENTS.entries()) await database.store.insert(actor, fac, 'set_clients', { _id: `${fac}-client-${k}`, name })
  await database.store.insert(actor, fac, 'dis_orders', { _id: first, orderNo: 'SO-D01', client: `${fac}-client-0`, rep: 'Ann', terms: 'Net 30' })
  await database.store.insert(actor, fac, 'dis_orders', { _id: `${fac}-order-2`, orderNo: 'SO-D02', client: `${fac}-client-1`, rep: 'Bo', terms: 'Net 30' })
})

// everything this file added goes: other tests count records and facilities
test.afterAll(async ({ database }) => {
  for (const c of ['dis_orders', 'set_clients']) for (const r of await database.store.find(fac, c)) await database.store.remove(actor, fac, c, r._id)
  await database.store.remove(actor, 'auth', 'org', fac).catch(() => {})
})

test.beforeEach(async ({ createUser }) => {
  user = await createUser({ role: 'user', org: fac, modules: { [fac]: ['dis', 'help'] } })
})

const table = (page: Page) => page.locator('table').first()
const rowOf = (page: Page, orderNo: string) => table(page).locator('tbody > tr', { hasText: orderNo })

async function open(page: Page) {
  await signIn(page, user.email, user.password)
  await page.goto('/DisOrderTable?sort=orderNo&dir=asc')
  await expect(page.getByRole('heading', { name: 'Order Table', level: 1 })).toBeVisible()
}

test.describe('with JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'the dialog needs JavaScript')

  test('the edit pencil opens the form over the table: Esc closes it unsaved, Enter saves', async ({ page, database }) => {
    await open(page)
    const url = page.url()
    const pencil = rowOf(page, 'SO-D01').getByRole('link', { name: 'Edit' })
    await expect(pencil).toHaveAttribute('href', new RegExp(`/DisOrderTable/${first}/edit\\?sort=orderNo&dir=asc$`))
    await pencil.click()
    const dialog = page.getByRole('dialog', { name: 'Edit: Orders' })
    await expect(dialog).toBeVisible()
    expect(page.url()).toBe(url)
    // the table stays behind it, and focus is in the form
    await expect(rowOf(page, 'SO-D02')).toBeVisible()
    await expect(dialog.getByLabel('Order #', { exact: true })).toHaveValue('SO-D01')
    await expect(dialog.getByLabel('Order #', { exact: true })).toBeFocused()

    await dialog.getByLabel('Sales Rep').fill('Zed')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(pencil).toBeFocused()
    expect((await database.store.get(fac, 'dis_orders', first))?.rep).toBe('Ann')
    await expect(rowOf(page, 'SO-D01')).toContainText('Ann')

    // opened again, it shows what is stored; Enter in a text field saves
    await pencil.click()
    await expect(dialog.getByLabel('Sales Rep')).toHaveValue('Ann')
    await dialog.getByLabel('Sales Rep').fill('Kim')
    await dialog.getByLabel('Sales Rep').press('Enter')
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(/\/DisOrderTable\?sort=orderNo&dir=asc&msg=saved$/)
    await expect(page.getByText('The item was saved.').first()).toBeVisible()
    await expect(rowOf(page, 'SO-D01')).toContainText('Kim')
    expect((await database.store.get(fac, 'dis_orders', first))?.rep).toBe('Kim')

    // a refused save (someone else saved meanwhile) keeps the dialog open with the message; Cancel closes it
    await pencil.click()
    await expect(dialog.getByLabel('Sales Rep')).toHaveValue('Kim')
    await database.store.update(actor, fac, 'dis_orders', first, { rep: 'Lou' })
    await dialog.getByLabel('Sales Rep').fill('Max')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog.getByRole('alert', { name: 'Error' })).toContainText('Someone else saved this record after you opened it')
    await expect(dialog).toBeVisible()
    expect((await database.store.get(fac, 'dis_orders', first))?.rep).toBe('Lou')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(pencil).toBeFocused()

    // the browser's Back leaves no dialog behind
    await pencil.click()
    await expect(dialog).toBeVisible()
    await page.goBack()
    await expect(page).toHaveURL(/\/DisOrderTable\?sort=orderNo&dir=asc$/)
    await expect(dialog).toBeHidden()
    await expect(rowOf(page, 'SO-D01')).toBeVisible()
  })

  test('Add Item opens an empty form in a dialog: a field error keeps it open and saves nothing', async ({ page, database }) => {
    await open(page)
    await page.getByRole('link', { name: 'Add Item' }).click()
    const dialog = page.getByRole('dialog', { name: 'New order' })
    await expect(dialog.getByLabel('Order #', { exact: true })).toHaveValue('')
    await expect(table(page)).toBeVisible()
    await dialog.getByLabel('Sales Rep').fill('Nia')
    await dialog.getByRole('button', { name: 'Save' }).click()
    // the field's own error (the summary at the top repeats it, with a link)
    await expect(dialog.getByText('You must enter a Order # value', { exact: true })).toBeVisible()
    await expect(dialog.getByLabel('Order #', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    expect(await database.store.find(fac, 'dis_orders', { rep: 'Nia' })).toEqual([])

    const no = `SO-N${crypto.randomBytes(2).toString('hex')}`
    await dialog.getByLabel('Order #', { exact: true }).fill(no)
    await dialog.getByLabel('Client').selectOption({ label: CLIENTS[1] })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByText('The item was saved.').first()).toBeVisible()
    await expect(rowOf(page, no)).toContainText(CLIENTS[1])
    const saved = await database.store.find(fac, 'dis_orders', { orderNo: no })
    expect(saved).toHaveLength(1)
    expect(saved[0]).toMatchObject({ rep: 'Nia', client: `${fac}-client-1` })
  })

  test('a ctrl-click on the pencil still opens the edit page in a new tab', async ({ page, context }) => {
    await open(page)
    const [tab] = await Promise.all([context.waitForEvent('page'), rowOf(page, 'SO-D02').getByRole('link', { name: 'Edit' }).click({ modifiers: ['ControlOrMeta'] })])
    await tab.waitForLoadState()
    expect(new URL(tab.url()).pathname).toBe(`/DisOrderTable/${fac}-order-2/edit`)
    await expect(tab.getByRole('heading', { name: 'Edit: Orders', level: 1 })).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await tab.close()
  })
})

test('without JavaScript the pencil and Add Item go to the pages', async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, 'with JavaScript they open the dialog')
  await open(page)
  await rowOf(page, 'SO-D01').getByRole('link', { name: 'Edit' }).click()
  await expect(page).toHaveURL(new RegExp(`/DisOrderTable/${first}/edit\\?sort=orderNo&dir=asc$`))
  await expect(page.getByRole('heading', { name: 'Edit: Orders', level: 1 })).toBeVisible()
  await page.getByRole('link', { name: 'Cancel' }).click()
  await page.getByRole('link', { name: 'Add Item' }).click()
  await expect(page).toHaveURL(/\/DisOrderTable\/new\?sort=orderNo&dir=asc$/)
  await expect(page.getByRole('heading', { name: 'New order', level: 1 })).toBeVisible()
})

test('the edit form offers Active (SPEC §3) on a table whose schema has no such field: unticked, the record leaves the active view', async ({ page }) => {
  await open(page)
  await page.goto(`/DisOrderTable/${encodeURIComponent(`${fac}-order-2`)}/edit?sort=orderNo&dir=asc`)
  const active = page.getByRole('checkbox', { name: 'Active' })
  await expect(active).toBeChecked()
  // a user is not offered the row locks
  await expect(page.getByRole('checkbox', { name: /Editable/ })).toHaveCount(0)
  await active.uncheck()
  await page.getByRole('button', { name: 'Save' }).last().click()
  await expect(page).toHaveURL(/\/DisOrderTable\?/)
  await expect(rowOf(page, 'SO-D02')).toHaveCount(0)
  await page.goto('/DisOrderTable?sort=orderNo&dir=asc&all=1')
  await expect(rowOf(page, 'SO-D02')).toHaveCount(1)
  await page.goto(`/DisOrderTable/${encodeURIComponent(`${fac}-order-2`)}/edit?sort=orderNo&dir=asc&all=1`)
  await page.getByRole('checkbox', { name: 'Active' }).check()
  await page.getByRole('button', { name: 'Save' }).last().click()
  await expect(page).toHaveURL(/\/DisOrderTable\?/) // saved (going on at once could cut the save off)
  await page.goto('/DisOrderTable?sort=orderNo&dir=asc')
  await expect(rowOf(page, 'SO-D02')).toHaveCount(1)
})
