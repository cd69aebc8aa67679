/**
 * Release notes (issue 27 item 5) in real browsers, JavaScript on and off: a super user publishes a
 * note; a person who was already using Canopy sees "What's new" once, dismisses it (a form that
 * posts), does not see it again after a reload, and reads the past notes from the user menu; an
 * admin (who writes the facility's other CRM tables) is refused the add form.
 */
import crypto from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { expect, login, test } from '../../../tests/e2e/fixtures'

const FAC_BUTTON = 'Greenleaf Cultivation, Salinas'

async function open(browser: Browser, js: boolean, u: { email: string; password: string }): Promise<Page> {
  const ctx = await browser.newContext({ javaScriptEnabled: js })
  const page = await ctx.newPage()
  await login(page, u.email, u.password)
  const signedIn = page.getByRole('region', { name: 'Signed in' })
  const choose = page.getByRole('button', { name: FAC_BUTTON })
  await expect(signedIn.or(choose)).toBeVisible()
  if (await choose.isVisible()) await choose.click()
  await signedIn.waitFor()
  return page
}

test('super publishes a note; a reader sees What’s new once, dismisses it, reads past notes; an admin may not write one', async ({ browser, createUser, database, cleanup, javaScriptEnabled: js }) => {
  test.setTimeout(120_000)
  const reader = await createUser({ modules: { greenleaf: ['help'] } })
  const boss = await createUser({ role: 'super', modules: { greenleaf: null } })
  const admin = await createUser({ role: 'admin', modules: { greenleaf: null } })
  // a version newer than any other, unique to this run (the two projects share the database)
  const version = `900.${crypto.randomInt(1, 1_000_000)}.${js ? 1 : 0}`
  const title = `E2E note ${version}`
  cleanup(async () => {
    for (const d of await database.store.find('auth', 'crm_release_notes', { title })) await database.store.remove({ uid: 'e2e-fixture' }, 'auth', 'crm_release_notes', d._id)
  })

  // the reader has been using Canopy: nothing new for them yet
  const page = await open(browser, js, reader)
  await expect(page.getByRole('region', { name: 'What’s new' })).toHaveCount(0)

  // super writes and publishes a note through the table's add form
  const sup = await open(browser, js, boss)
  await sup.goto('/CrmReleaseNotes/new')
  await sup.getByLabel('Version', { exact: true }).fill(version)
  await sup.getByLabel('Title', { exact: true }).fill(title)
  await sup.getByRole('textbox', { name: 'Notes' }).fill('Messages can carry **uploaded files**.')
  await sup.getByLabel('Published', { exact: true }).check()
  await sup.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect(sup).toHaveURL(/\/CrmReleaseNotes\?msg=saved$/)

  // the reader's next page shows it, once
  await page.goto('/Welcome')
  const notice = page.getByRole('region', { name: 'What’s new' })
  await expect(notice).toContainText(title)
  await expect(notice.locator('strong', { hasText: 'uploaded files' })).toBeVisible()
  await notice.getByRole('button', { name: 'Dismiss' }).click()
  await expect(page).toHaveURL(/\/Welcome$/)
  await expect(page.getByRole('region', { name: 'What’s new' })).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('region', { name: 'Signed in' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'What’s new' })).toHaveCount(0)

  // past notes from the user menu
  await page.locator('summary[aria-label^="User menu"]').click()
  await page.getByRole('link', { name: 'Release notes' }).click()
  await expect(page).toHaveURL(/\/ReleaseNotes$/)
  await expect(page.getByRole('region', { name: `Version ${version}` })).toContainText(title)
  await expect(page.getByRole('region', { name: 'Version 4.0.0' })).toContainText('New table engine')
  await expect(page.getByRole('link', { name: 'Write a release note' })).toHaveCount(0)

  // an admin: no Add Item on the table, the add form refused
  const adm = await open(browser, js, admin)
  await adm.goto('/CrmReleaseNotes')
  await expect(adm.getByRole('link', { name: 'Add Item' })).toHaveCount(0)
  const refused = await adm.goto('/CrmReleaseNotes/new')
  expect(refused?.status()).toBe(403)
  await expect(adm.getByRole('heading', { name: /Not allowed/ })).toBeVisible()
  for (const p of [page, sup, adm]) await p.context().close()
})
