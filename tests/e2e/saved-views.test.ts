/**
 * Saved views (issue 31 item 5, decision 073), with JavaScript on and off: save a view with a sort,
 * a search and a hidden column, shared and pinned, plus a private one; the pinned view is in the
 * drawer and opens the same view; a second user of the facility sees the shared view and not the
 * private one; a user of another facility sees none; a view whose stored settings name a column the
 * table no longer has opens with a notice naming it; delete works. Two fresh facilities per run.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, logout, signIn, test } from './fixtures'

const SCREEN = '/culPlants'
const facA = `e2e-views-a-${crypto.randomBytes(3).toString('hex')}`
const facB = `e2e-views-b-${crypto.randomBytes(3).toString('hex')}`

test.beforeAll(async ({ database }) => {
  const actor = { uid: 'e2e-fixture' }
  for (const fac of [facA, facB]) {
    await database.store.insert(actor, 'auth', 'org', { _id: fac, fullName: `E2E Views ${fac.slice(-8)}`, timezone: 'America/Los_Angeles', state: 'CA' })
    for (let i = 1; i <= 6; i++) await database.store.insert(actor, fac, 'fac_plants', { _id: `${fac}-p${i}`, tag: `VIEW-${i % 2 ? 'ODD' : 'EVEN'}-${i}`, phase: 'Vegetative', alive: 'yes' })
  }
})

test.afterAll(async ({ database }) => {
  const actor = { uid: 'e2e-fixture' }
  for (const fac of [facA, facB]) {
    await database.db.query('DELETE FROM saved_views WHERE org = $1', [fac])
    for (const r of await database.store.find(fac, 'fac_plants')) await database.store.remove(actor, fac, 'fac_plants', r._id)
    await database.store.remove(actor, 'auth', 'org', fac).catch(() => {})
  }
})

const drawer = (page: Page) => page.getByRole('navigation', { name: 'Main menu' })

async function openMore(page: Page) {
  await page.getByRole('toolbar', { name: 'Table tools' }).locator('summary[aria-label="More table tools"]').click()
}

async function saveView(page: Page, name: string, opts: { share?: boolean; pin?: boolean }) {
  await openMore(page)
  await page.getByLabel('Save this view as').fill(name)
  if (opts.share) await page.getByRole('checkbox', { name: 'Share with the facility' }).check()
  if (opts.pin) await page.getByRole('checkbox', { name: 'Pin to the menu' }).check()
  await page.getByRole('button', { name: 'Save view' }).click()
}

test('save, share, pin, open from the drawer, privacy across users and facilities, a gone column, delete', async ({ page, createUser, database }) => {
  const tag = crypto.randomBytes(2).toString('hex')
  const shared = `Odd tags ${tag}`
  const mine = `Only mine ${tag}`
  const owner = await createUser({ org: facA, modules: { [facA]: ['cul', 'help'] } })
  const colleague = await createUser({ org: facA, modules: { [facA]: ['cul', 'help'] } })
  const stranger = await createUser({ org: facB, modules: { [facB]: ['cul', 'help'] } })

  await signIn(page, owner.email, owner.password)
  await page.goto(`${SCREEN}?sort=tag&dir=desc&col=tag&q=ODD&hide=room`)
  await expect(page.locator('tbody tr')).toHaveCount(3)
  await saveView(page, `  ${shared} `, { share: true, pin: true })
  // back on the saved view, with a confirmation
  await expect(page.getByTestId('action-done')).toHaveText(`Saved the view "${shared}", shared with the facility, pinned to the menu.`)
  await expect(page).toHaveURL(/\/culPlants\?sort=tag&dir=desc&col=tag&q=ODD&hide=room/)
  // the confirmation belongs to that page: the next search does not carry it
  await page.getByLabel('Search text').fill('VIEW-ODD-3')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(page.getByTestId('action-done')).toHaveCount(0)
  // a private one of the plain table
  await page.goto(`${SCREEN}?sort=tag`)
  await saveView(page, mine, {})
  await expect(page.getByTestId('action-done')).toHaveText(`Saved the view "${mine}".`)

  // the pinned view is in the drawer; it opens the same view, marked as the current one
  const pinned = drawer(page).getByTestId('pinned-views')
  await expect(pinned.getByRole('link', { name: shared })).toBeVisible()
  await expect(pinned.getByRole('link', { name: mine })).toHaveCount(0)
  await pinned.getByRole('link', { name: shared }).click()
  await expect(page).toHaveURL(/\/culPlants\?sort=tag&dir=desc&col=tag&q=ODD&hide=room/)
  await expect(page.getByLabel('Search text')).toHaveValue('ODD')
  await expect(page.locator('tbody tr')).toHaveCount(3)
  await expect(page.locator('tbody tr').first()).toContainText('VIEW-ODD-5')
  await expect(page.getByRole('columnheader', { name: /Room/ })).toHaveCount(0)
  await expect(pinned.getByRole('link', { name: shared })).toHaveAttribute('aria-current', 'page')
  // the More menu lists both, this one marked
  await openMore(page)
  const list = page.getByTestId('saved-views')
  await expect(list.getByRole('link')).toHaveCount(2)
  await expect(list.getByRole('link', { name: new RegExp(shared) })).toHaveAttribute('aria-current', 'page')
  await logout(page)

  // a colleague of the facility: the shared view, not the private one; may pin it, not change it
  await signIn(page, colleague.email, colleague.password)
  await page.goto(SCREEN)
  await openMore(page)
  await expect(page.getByTestId('saved-views').getByRole('link')).toHaveText([new RegExp(`${shared}\\s*Shared`)])
  await page.getByRole('link', { name: 'Manage views' }).click()
  await expect(page.getByRole('heading', { name: /Saved views/ })).toBeVisible()
  await expect(page.getByTestId('saved-view')).toHaveCount(1)
  await expect(page.getByRole('button', { name: `Delete: ${shared}` })).toHaveCount(0)
  await expect(page.getByRole('button', { name: `Rename: ${shared}` })).toHaveCount(0)
  await page.getByRole('button', { name: `Pin to the menu: ${shared}` }).click()
  await expect(page.getByTestId('action-done')).toHaveText(`Pinned "${shared}" to the menu.`)
  await expect(drawer(page).getByTestId('pinned-views').getByRole('link', { name: shared })).toBeVisible()
  // a forged request for the private view changes nothing
  const privateId = (await database.db.query<{ id: string }>('SELECT id FROM saved_views WHERE org = $1 AND name = $2', [facA, mine])).rows[0].id
  const forged = await page.request.post('/saved-views', { form: { intent: 'delete', screen: SCREEN, id: privateId }, headers: { origin: new URL(page.url()).origin } })
  expect(forged.status()).toBe(400)
  expect(await forged.text()).toContain('There is no such view, or it is not yours to see.')
  await logout(page)

  // another facility: none of them
  await signIn(page, stranger.email, stranger.password)
  await page.goto(SCREEN)
  await openMore(page)
  await expect(page.getByText('No saved views on this screen yet.')).toBeVisible()
  await expect(drawer(page).getByTestId('pinned-views')).toHaveCount(0)
  await logout(page)

  // the schema changed under the owner's view: it opens with a notice that names the gone column
  await database.db.query(`UPDATE saved_views SET query = query || ',old_col' WHERE org = $1 AND name = $2`, [facA, shared])
  await signIn(page, owner.email, owner.password)
  await page.goto(SCREEN)
  await drawer(page).getByTestId('pinned-views').getByRole('link', { name: shared }).click()
  await expect(page.getByText('Ignored hide="old_col": this table has no such column.')).toBeVisible()
  await expect(page.locator('tbody tr')).toHaveCount(3)

  // delete: gone from the menu, the drawer and the colleague's pin
  await page.goto(`/saved-views?screen=${SCREEN}`)
  await page.getByRole('button', { name: `Delete: ${shared}` }).click()
  await expect(page.getByTestId('action-done')).toHaveText(`Deleted the view "${shared}".`)
  await expect(page.getByTestId('saved-view')).toHaveCount(1)
  await expect(drawer(page).getByTestId('pinned-views')).toHaveCount(0)
  expect(await database.db.query('SELECT 1 FROM saved_view_pins WHERE org = $1', [facA]).then((r) => r.rows.length)).toBe(0)
})

test('a refused save says why and keeps what was typed; nothing is saved', async ({ page, createUser, database }) => {
  const u = await createUser({ org: facA, modules: { [facA]: ['cul', 'help'] } })
  await signIn(page, u.email, u.password)
  await page.goto(`${SCREEN}?sort=tag`)
  await saveView(page, 'x'.repeat(61), { pin: true })
  await expect(page.getByRole('alert')).toHaveText("A view's name is at most 60 characters; this one has 61.")
  await expect(page.getByLabel('Save this view as')).toHaveValue('x'.repeat(61))
  await expect(page.getByRole('checkbox', { name: 'Pin to the menu' })).toBeChecked()
  expect((await database.db.query('SELECT 1 FROM saved_views WHERE org = $1 AND owner = $2', [facA, u.uid])).rows.length).toBe(0)
})
