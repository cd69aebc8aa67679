/**
 * Support tickets (issue 27 item 3) in real browsers, JavaScript on and off, with the run's real
 * SMTP server: a user opens a ticket from the shell's Support button (the page they came from goes
 * with it) with a file; platform staff see it in the queue, reply (mailed to the user, counted on the
 * user's Support button), the user answers (mailed to staff), staff mark it solved.
 */
import type { Browser, Page } from '@playwright/test'
import { E2E } from '../../../tests/e2e/env'
import { expect, login, test } from '../../../tests/e2e/fixtures'
import { mailsIn } from '../../../tests/helpers/smtp'

const STAFF_MAIL = 'super@canopy.local' // the e2e server's ADMIN_EMAIL (the default)

async function open(browser: Browser, js: boolean, u: { email: string; password: string }, facility?: string): Promise<Page> {
  const page = await (await browser.newContext({ javaScriptEnabled: js })).newPage()
  await login(page, u.email, u.password)
  if (facility) await page.getByRole('button', { name: facility }).click()
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  return page
}
const mailed = (to: string, subject: string) => mailsIn(E2E.mailDir).filter((m) => m.to.includes(to) && m.subject === subject)

test('a ticket goes from new to solved with replies mailed both ways', async ({ browser, createUser, javaScriptEnabled: js }) => {
  test.setTimeout(120_000)
  const user = await createUser({ modules: { greenleaf: ['cul', 'help'] } })
  const staff = await createUser({ role: 'super' })
  const subject = `Label printer offline ${user.uid}`
  const u = await open(browser, js, user)

  // from the plants screen, the shell's Support button: the form knows the page
  await u.goto('/culPlants')
  await u.getByRole('banner').getByRole('link', { name: 'Support' }).click()
  await expect(u.getByLabel('The page you came from')).toHaveValue('/culPlants')
  await u.getByLabel('Subject').fill(subject)
  await u.getByLabel('What happened?').fill('The Flower Room tag printer shows offline since this morning.')
  await u.getByLabel(/Screenshot or file/).setInputFiles({ name: 'printer.txt', mimeType: 'text/plain', buffer: Buffer.from('status: offline\n') })
  await u.getByRole('button', { name: 'Send to support' }).click()
  await expect(u).toHaveURL(/\/SupportTicket\?t=greenleaf(:|%3A)/)
  await expect(u.locator('[data-status="new"]')).toHaveText('New')
  await expect(u.getByRole('link', { name: 'Attached file' })).toHaveAttribute('href', /\/getfiles\/greenleaf\/.+\?subdir=support/)
  await expect.poll(() => mailed(STAFF_MAIL, `[Support] New ticket: ${subject}`).length, { timeout: 15_000 }).toBe(1)

  // the user goes on working; staff: the queue, the ticket, a reply that waits on the customer
  await u.goto('/culPlants')
  if (js) await expect(u.locator('[data-connection="connected"]')).toBeVisible()
  const s = await open(browser, js, staff, 'Greenleaf Cultivation, Salinas')
  await s.goto('/SupportTicket')
  await s.getByRole('navigation', { name: 'Tickets' }).getByRole('link', { name: new RegExp(subject) }).click()
  await expect(s.getByText('The Flower Room tag printer shows offline since this morning.')).toBeVisible()
  await expect(s.getByRole('link', { name: '/culPlants' })).toBeVisible()
  await s.getByLabel('Your reply').fill('Please power-cycle it and tell us what the display says.')
  await s.getByLabel('Status after this reply').selectOption('waiting')
  await s.getByRole('button', { name: 'Send reply' }).click()
  await expect(s.locator('[data-status="waiting"]')).toHaveText('Waiting on customer')
  await expect.poll(() => mailed(user.email, `Re: ${subject} [Waiting on customer]`).length, { timeout: 15_000 }).toBe(1)

  // the user's Support button counts the answer (live with JavaScript)
  if (!js) await u.reload()
  await expect(u.getByTestId('unread-support')).toHaveText('1', { timeout: 10_000 })
  await u.goto('/SupportTicket')
  await u.getByRole('navigation', { name: 'Tickets' }).getByRole('link', { name: new RegExp(subject) }).click()
  await expect(u.getByText('Please power-cycle it and tell us what the display says.')).toBeVisible()
  await expect(u.getByTestId('unread-support')).toHaveCount(0)
  await u.getByLabel('Your reply').fill('It says "ribbon out". Replaced the ribbon, it prints again.')
  await u.getByRole('button', { name: 'Send reply' }).click()
  await expect(u.locator('[data-status="open"]')).toHaveText('Open')
  await expect.poll(() => mailed(STAFF_MAIL, `[Support] Re: ${subject}`).length, { timeout: 15_000 }).toBe(1)

  // staff solve it
  await s.reload()
  await s.getByLabel('Set the status').selectOption('solved')
  await s.getByRole('button', { name: 'Save status' }).click()
  await expect(s.locator('[data-status="solved"]')).toHaveText('Solved')
  await u.reload()
  await expect(u.locator('[data-status="solved"]')).toHaveText('Solved')
  await u.context().close()
  await s.context().close()
})
