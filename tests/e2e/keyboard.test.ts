/**
 * Issue 31 items 1 and 2 (decision 067): the skip link, and the keyboard shortcuts and scanner jump.
 * Keyboard only (page.keyboard): sign in, the table, `n` adds, fill, save; ArrowDown/Enter open a
 * row's record; `/` searches; `?` lists the shortcuts; a keyboard-wedge scan opens the one record it
 * matches. Without JavaScript: the skip link and the footer's list of shortcuts. The file seeds its own
 * facility with two orders and removes everything it added when done.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, signIn, test } from './fixtures'

const fac = `e2e-kbd-${crypto.randomBytes(4).toString('hex')}`
const actor = { uid: 'e2e-fixture' }
const ORDERS = ['SO-K01', 'SO-K02']
let user: { email: string; password: string }

test.beforeAll(async ({ database }) => {
  await database.store.insert(actor, 'auth', 'org', { _id: fac, fullName: `E2E Keyboard Farm ${fac.slice(-8)}`, timezone: 'America/Los_Angeles', state: 'CA' })
  await database.store.insert(actor, fac, 'set_clients', { _id: `${fac}-client`, name: 'Alpha Dispensary' })
  for (const [k, orderNo] of ORDERS.entries()) await database.store.insert(actor, fac, 'dis_orders', { _id: `${fac}-order-${k}`, orderNo, client: `${fac}-client`, rep: 'Ann', terms: 'Net 30' })
})

test.afterAll(async ({ database }) => {
  for (const c of ['dis_orders', 'set_clients']) for (const r of await database.store.find(fac, c)) await database.store.remove(actor, fac, c, r._id)
  await database.store.remove(actor, 'auth', 'org', fac).catch(() => {})
})

test.beforeEach(async ({ createUser }) => {
  user = await createUser({ role: 'user', org: fac, modules: { [fac]: ['dis', 'help'] } })
})

const TABLE = '/DisOrderTable?sort=orderNo&dir=asc'
const focused = (page: Page) => page.locator(':focus')
/** the shortcuts listen once React has taken over the page (the shell's menu toggle is then a button) */
const hydrated = (page: Page) => expect(page.locator('button#menu-toggle')).toHaveCount(1)

/**
 * A keyboard-wedge scanner: the code's keys then Enter, dispatched in the page one right after the other
 * (keydown on the focused element, bubbling to the window as a device's keys do). Playwright's own key
 * presses cross a process boundary each and, on a loaded machine, come further apart than a scanner's.
 */
async function wedge(page: Page, code: string) {
  await page.evaluate((keys) => {
    const at = document.activeElement ?? document.body
    for (const key of keys) at.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  }, [...code, 'Enter'])
}

/** Tab until `target` has the focus (at most `max` presses) */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 60) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((el) => el === document.activeElement)) return
  }
  throw new Error(`Tab never reached ${target}`)
}

test('the first Tab lands on "Skip to content", which is visible then and moves past the menus', async ({ page }) => {
  await signIn(page, user.email, user.password)
  await page.goto(TABLE)
  await expect(page.getByRole('heading', { name: 'Order Table', level: 1 })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/#shell-content$/)
  // the next Tab goes on inside the content: not the top bar, not the side menu
  await page.keyboard.press('Tab')
  expect(await focused(page).evaluate((el) => !!el.closest('#shell-content') && !el.closest('nav[aria-label="Main menu"], header'))).toBe(true)
})

test('without JavaScript the footer lists the shortcuts', async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, 'the no-JS view of the list')
  await signIn(page, user.email, user.password)
  await page.locator('footer summary', { hasText: 'Keyboard shortcuts' }).click()
  await expect(page.locator('footer').getByText('Search the table')).toBeVisible()
})

test.describe('with JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'the shortcuts need JavaScript')

  test('keyboard only: sign in, the table, n adds, fill and save', async ({ page, database, cleanup }) => {
    await page.goto('/Welcome')
    await tabTo(page, page.getByLabel('Email'))
    await page.keyboard.type(user.email)
    await page.keyboard.press('Tab')
    await page.keyboard.type(user.password)
    await page.keyboard.press('Enter')
    await page.getByRole('region', { name: 'Signed in' }).waitFor()
    await page.goto(TABLE)
    await expect(page.getByRole('heading', { name: 'Order Table', level: 1 })).toBeVisible()
    await hydrated(page)
    await page.keyboard.press('n')
    const dialog = page.getByRole('dialog', { name: 'New order' })
    await expect(dialog).toBeVisible()
    const orderNo = dialog.getByLabel('Order #', { exact: true })
    await expect(orderNo).toBeFocused()
    const no = `SO-K${crypto.randomBytes(2).toString('hex')}`
    await page.keyboard.type(no) // typing in a field: its n and / are letters, not shortcuts
    await expect(orderNo).toHaveValue(no)
    // the client: a select picked by typing its first letters
    await tabTo(page, dialog.getByLabel('Client'))
    await page.keyboard.type('Alpha')
    await expect(dialog.getByLabel('Client')).toHaveValue(`${fac}-client`)
    await tabTo(page, dialog.getByRole('button', { name: 'Save' }))
    await page.keyboard.press('Enter')
    await expect(dialog).toBeHidden()
    await expect(page.getByText('The item was saved.').first()).toBeVisible()
    await expect.poll(async () => (await database.store.find(fac, 'dis_orders', { orderNo: no })).length).toBe(1)
    // the other tests count the file's two orders
    cleanup(async () => {
      for (const r of await database.store.find(fac, 'dis_orders', { orderNo: no })) await database.store.remove(actor, fac, 'dis_orders', r._id)
    })
  })

  test('ArrowDown/ArrowUp move a visible focus through the rows, Enter opens the record; / searches; ? lists the shortcuts', async ({ page }) => {
    await signIn(page, user.email, user.password)
    await page.goto(TABLE)
    const rows = page.locator('table.data-table > tbody > tr')
    await expect(rows).toHaveCount(2)
    await hydrated(page)
    await page.keyboard.press('ArrowDown')
    await expect(rows.nth(0)).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(rows.nth(1)).toBeFocused()
    // a visible focus: the row's outline
    expect(await rows.nth(1).evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none')
    await page.keyboard.press('ArrowUp')
    await expect(rows.nth(0)).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/DisOrderTable/${fac}-order-0$`))

    await page.goto(TABLE)
    await expect(rows).toHaveCount(2)
    await hydrated(page)
    await page.keyboard.press('/')
    const search = page.getByRole('searchbox', { name: 'Search text' })
    await expect(search).toBeFocused()
    await expect(search).toHaveValue('') // the / itself was not typed
    // in a field, n and ? type: no dialog opens
    await page.keyboard.type('n?')
    await expect(search).toHaveValue('n?')
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await page.keyboard.press('Escape')
    await search.evaluate((el) => (el as HTMLElement).blur())
    // a modifier held: no shortcut
    await page.keyboard.press('Control+n').catch(() => undefined)
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await page.keyboard.press('Shift+?')
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await expect(help).toBeVisible()
    await expect(help).toContainText('Move through the table rows')
    await page.keyboard.press('Escape')
    await expect(help).toBeHidden()
  })

  test('a keyboard-wedge scan outside a field opens the record it matches; a person typing does nothing', async ({ page }) => {
    await signIn(page, user.email, user.password)
    await page.goto(TABLE)
    await expect(page.locator('table.data-table > tbody > tr')).toHaveCount(2)
    await hydrated(page)
    // a person: slow keys, then Enter: no jump
    await page.keyboard.type('SO-K02', { delay: 150 })
    await page.keyboard.press('Enter')
    await expect(page.getByRole('dialog')).toHaveCount(0)
    expect(new URL(page.url()).search).toBe('?sort=orderNo&dir=asc')
    // a scanner: the code in a burst, then Enter: the one matching record opens
    await wedge(page, 'SO-K02')
    await expect(page).toHaveURL(new RegExp(`/DisOrderTable/${fac}-order-1$`))
    // a code that matches both: the filtered table
    await page.goto(TABLE)
    await expect(page.locator('table.data-table > tbody > tr')).toHaveCount(2)
    await hydrated(page)
    await wedge(page, 'SO-K0')
    await expect(page).toHaveURL(/[?&]q=SO-K0(&|$)/)
    await expect(page.locator('table.data-table > tbody > tr')).toHaveCount(2)
  })
})
