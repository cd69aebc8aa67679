/**
 * The visitor log (issue 27 item 2) in real browsers, JavaScript on and off: a visitor signs in on
 * the kiosk, the badge is printed by the simulated badge printer (a ZPL file in E2E.printDir), the
 * host is told (a mail through the run's real SMTP server; with JavaScript also a toast on their
 * open page), the desk signs the visitor out, and the day's log exports as CSV and PDF.
 */
import fs from 'node:fs'
import path from 'node:path'
import { E2E } from '../../../tests/e2e/env'
import { expect, login, test } from '../../../tests/e2e/fixtures'
import { mailsIn } from '../../../tests/helpers/smtp'

const modules = { greenleaf: ['oth', 'help'] }

test('a visitor signs in on the kiosk, gets a badge, the host is told, signs out; the day exports', async ({ browser, page, createUser, javaScriptEnabled: js }) => {
  test.setTimeout(120_000)
  const host = await createUser({ modules })
  const desk = await createUser({ modules })
  const visitor = `Robin Visitor ${host.uid.slice(-4)}`
  const hostName = `Test ${host.uid}`

  // the host has Canopy open
  const hostPage = await (await browser.newContext({ javaScriptEnabled: js })).newPage()
  await login(hostPage, host.email, host.password)
  await hostPage.getByRole('region', { name: 'Signed in' }).waitFor()
  if (js) await expect(hostPage.locator('[data-connection="connected"]')).toBeVisible()

  await login(page, desk.email, desk.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/VisLog')
  await page.getByRole('link', { name: 'Kiosk sign-in' }).click()
  await expect(page.getByRole('heading', { name: 'Visitor sign-in' })).toBeVisible()

  // forgetting the staff's ID check is refused with a clear message, nothing lost
  await page.getByLabel('Your name').fill(visitor)
  await page.getByLabel('Company').fill('Acme Irrigation')
  await page.getByLabel('Whom are you visiting?').selectOption({ label: hostName })
  await page.getByLabel('Purpose of the visit').selectOption('Contractor / Maintenance')
  await page.getByLabel('I have read and accept the visitor agreement').check()
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toContainText('A member of staff must check the visitor’s ID')
  await expect(page.getByLabel('Your name')).toHaveValue(visitor)

  await page.getByLabel('ID type').selectOption("Driver's License")
  await page.getByLabel('ID checked by staff').check()
  if (!(await page.getByLabel('I have read and accept the visitor agreement').isChecked())) await page.getByLabel('I have read and accept the visitor agreement').check()
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${visitor}` })).toBeVisible()
  await expect(page.getByText('Your badge is printing at Front Desk Badges.')).toBeVisible()
  await expect(page.getByText(`${hostName} has been told you are here.`)).toBeVisible()
  const id = new URL(page.url()).searchParams.get('done')!

  // the simulated badge printer fetched the label and wrote it
  const printed = () => (fs.existsSync(E2E.printDir) ? fs.readdirSync(E2E.printDir).filter((f) => f.startsWith(`greenleaf-vis_log-${id}-`) && f.endsWith('.zpl')) : [])
  await expect.poll(() => printed().length, { timeout: 15_000 }).toBe(1)
  const zpl = fs.readFileSync(path.join(E2E.printDir, printed()[0]), 'utf8')
  expect(zpl).toMatch(/^\^XA/)
  expect(zpl).toContain(visitor)

  // the host is told: by mail through SMTP, and (with JavaScript) a toast on the open page
  await expect.poll(() => mailsIn(E2E.mailDir).filter((m) => m.to.includes(host.email) && m.subject === `Visitor for you: ${visitor} (Acme Irrigation)`).length, { timeout: 15_000 }).toBe(1)
  if (js) await expect(hostPage.getByText(/Your visitor has arrived: .*Robin Visitor/)).toBeVisible()

  // on site now, and on the evacuation list
  await page.goto('/VisLog')
  await expect(page.getByRole('region', { name: 'On site now' }).getByRole('cell', { name: visitor, exact: true })).toBeVisible()
  await page.getByRole('link', { name: 'Evacuation list' }).click()
  await expect(page.getByRole('heading', { name: /^On site now —/ })).toBeVisible()
  await expect(page.getByRole('cell', { name: visitor, exact: true })).toBeVisible()
  await page.getByRole('link', { name: 'Back to the visitor log' }).click()

  // signed out: gone from on site now, in the day's log with both times
  await page.getByRole('button', { name: `Sign out ${visitor}` }).click()
  await expect(page.getByRole('status').filter({ hasText: `${visitor} signed out at` })).toBeVisible()
  await expect(page.getByRole('region', { name: 'On site now' }).getByRole('cell', { name: visitor, exact: true })).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Visits' }).getByRole('cell', { name: visitor, exact: true })).toBeVisible()

  // the day's log as CSV and PDF
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  const text = fs.readFileSync((await csv.path())!, 'utf8')
  const line = text.split('\r\n').find((l) => l.includes(visitor))!
  expect(line).toContain(`,${visitor},Acme Irrigation,${hostName},Contractor / Maintenance,Driver's License,Yes,Accepted,`)
  expect(line).not.toMatch(/,$/) // signed out: the last column has the time
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export PDF' }).click()])
  expect(pdf.suggestedFilename()).toMatch(/^greenleaf-visitors-\d{4}-\d{2}-\d{2}\.pdf$/)
  expect(fs.readFileSync((await pdf.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-')
  await hostPage.context().close()
})
