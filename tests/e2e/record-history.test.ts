/**
 * Issue 32 items 8 and 10, with JavaScript on and off: a record's history and its delete
 * confirmation name references by their label (never the id), list only the fields that changed,
 * and show text whole (a long note behind "Show all"); a slow save shows "Saving…".
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, signIn, test } from './fixtures'

const fac = `e2e-hist-${crypto.randomBytes(4).toString('hex')}`
const id = `${fac}-order`
const actor = { uid: 'e2e-fixture' }
const LONG = `Deliver to the back door. ${'Ring twice and wait for security. '.repeat(15)}End of the note.`
let user: { email: string; password: string }

test.beforeAll(async ({ database }) => {
  await database.store.insert(actor, 'auth', 'org', { _id: fac, fullName: `E2E History Farm ${fac.slice(-8)}`, timezone: 'America/Los_Angeles', state: 'CA' })
  await database.store.insert(actor, fac, 'set_clients', { _id: `${fac}-alpha`, name: 'Alpha Dispensary' })
  await database.store.insert(actor, fac, 'set_clients', { _id: `${fac}-bravo`, name: 'Bravo Wellness' })
  await database.store.insert(actor, fac, 'dis_orders', { _id: id, orderNo: 'SO-H1', client: `${fac}-alpha`, orderDate: '2026-03-02T19:30:00.000Z', paid: 'no', notes: 'short' })
  // a change of client and notes, in a save that also stored paid and rep differently (not changes)
  await database.store.update(actor, fac, 'dis_orders', id, { client: `${fac}-bravo`, notes: LONG, paid: false, rep: '' })
  // a save that changed nothing a person can see
  await database.store.update(actor, fac, 'dis_orders', id, { paid: 'no' })
})

test.afterAll(async ({ database }) => {
  await database.store.remove(actor, 'auth', 'org', fac).catch(() => {})
})

test.beforeEach(async ({ page, createUser }) => {
  user = await createUser({ role: 'user', org: fac, modules: { [fac]: ['dis', 'help'] } })
  await signIn(page, user.email, user.password)
})

// the page's own list (the drawer and the breadcrumbs are lists too, decision 061)
const entries = (page: Page) => page.getByRole('region', { name: 'History' }).getByRole('listitem')

test('the history names the client, lists only what changed and shows the whole note', async ({ page }) => {
  await page.goto(`/DisOrderTable/${id}/history`)
  await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible()
  await expect(entries(page)).toHaveCount(3)
  // newest first: the save that changed nothing, then the real change
  await expect(entries(page).nth(0)).toContainText('No field changed')
  const change = entries(page).nth(1)
  const client = change.getByRole('row', { name: /^Client/ })
  await expect(client).toContainText('Alpha Dispensary')
  await expect(client).toContainText('Bravo Wellness')
  await expect(change).not.toContainText(`${fac}-`)
  await expect(change.getByRole('row')).toHaveCount(3) // the header, Client and Notes: not Paid, not Sales Rep
  const notes = change.getByRole('row', { name: /^Notes/ })
  await expect(notes.getByText('End of the note.')).toBeHidden()
  await notes.getByText('Show all').click()
  await expect(notes.getByText('End of the note.')).toBeVisible()
  await expect(entries(page).nth(2)).toContainText('Alpha Dispensary')
})

test('the delete confirmation names the client, not its id', async ({ page }) => {
  await page.goto(`/DisOrderTable/${id}/delete`)
  await expect(page.getByRole('heading', { name: 'Delete item' })).toBeVisible()
  await expect(page.getByRole('definition').filter({ hasText: 'Bravo Wellness' })).toBeVisible()
  await expect(page.locator('body')).not.toContainText(`${fac}-bravo`)
})

test('a slow save says "Saving…" on a disabled, busy Save button until the answer comes', async ({ page, javaScriptEnabled, database }) => {
  test.skip(!javaScriptEnabled, 'without JavaScript the browser shows its own loading sign while the form posts')
  // its own record: the history above stays as seeded
  const slow = `${fac}-slow-${crypto.randomBytes(3).toString('hex')}`
  await database.store.insert(actor, fac, 'dis_orders', { _id: slow, orderNo: 'SO-SLOW', client: `${fac}-alpha`, orderDate: '2026-03-02T19:30:00.000Z' })
  await page.goto(`/DisOrderTable/${slow}/edit`)
  let release = () => {}
  const held = new Promise<void>((r) => (release = r))
  await page.route('**/*', async (route) => {
    if (route.request().method() === 'POST') await held
    await route.fallback()
  })
  await page.getByLabel('Sales Rep').fill('Dana')
  await page.getByRole('button', { name: 'Save' }).click()
  const saving = page.getByRole('button', { name: 'Saving…' })
  await expect(saving).toBeDisabled()
  await expect(saving).toHaveAttribute('aria-busy', 'true')
  await expect(page.getByRole('status').filter({ hasText: 'Saving…' })).toBeAttached()
  expect((await database.store.get(fac, 'dis_orders', slow))?.rep).toBeUndefined()
  release()
  await expect(page).toHaveURL(/msg=saved/)
  await expect(saving).toBeHidden()
  expect((await database.store.get(fac, 'dis_orders', slow))?.rep).toBe('Dana')
})
