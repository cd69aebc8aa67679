/**
 * SPEC §3 scanner settings and set_cannabis (decision 060), with JavaScript and without: a scanner setting
 * whose field is none of `name`, `name:prt`, `name:more` is refused with the message beside the field and
 * nothing is saved; the seeded `id:prt` / `tag:more` settings put a Scan button on the Plants and Inventory
 * tables; the Cannabis Reference is a Settings screen reached from the start page. (A scan itself, over the
 * bus: tests/integration/scan-record.test.ts.)
 */
import { expect, signIn, test } from './fixtures'

const FAC = 'greenleaf'

test('a scanner setting field must be a field name, name:prt or name:more; the seeded ones put Scan on the tables', async ({ page, createUser, database }) => {
  test.setTimeout(120_000)
  const admin = await createUser({ modules: { [FAC]: ['cul', 'set'] } })
  await signIn(page, admin.email, admin.password)
  const table = `fac_e2e_${Date.now()}`
  const stored = () => database.store.find(FAC, 'sen_scanner_settings', { table }, 5)

  await page.goto('/SetScanners/new')
  await page.getByLabel('Table', { exact: true }).fill(table)
  await page.getByLabel('Field', { exact: true }).fill('id:print')
  await page.getByLabel('Type', { exact: true }).selectOption('rfid')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect(page.getByText("Field must be a field name (e.g. tag), or a field name followed by ':prt'").first()).toBeVisible()
  expect(await stored()).toEqual([])

  await page.getByLabel('Field', { exact: true }).fill('id:more')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect.poll(async () => (await stored()).map((r) => r.field)).toEqual(['id:more'])
  for (const r of await stored()) await database.store.remove({ uid: 'e2e-fixture' }, FAC, 'sen_scanner_settings', r._id)

  await page.goto('/culPlants')
  await expect(page.getByRole('button', { name: 'Scan to print a label' })).toBeVisible()
  await page.goto('/culInventory')
  await expect(page.getByRole('button', { name: 'Scan to open a record' })).toBeVisible()
  // the demo's RFID reader mapped to the package tag answers with a tag no package has: the person is told so
  // (with JavaScript beside the button; without it on a page with the way back)
  await page.getByRole('button', { name: 'Scan to open a record' }).click()
  await expect(page.getByText(/^No .+ record has .+ [0-9A-F]{6,}\.$/)).toBeVisible({ timeout: 15_000 })
  await expect(page.getByRole('link', { name: 'Back to the table' }).or(page.getByRole('button', { name: 'Scan to open a record' }))).toBeVisible()
})

test('the Cannabis Reference is a Settings screen: the platform limits per state, read-only', async ({ page, createUser }) => {
  const user = await createUser({ modules: { [FAC]: ['set'] } })
  await signIn(page, user.email, user.password)
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Cannabis Reference' }).click()
  await expect(page).toHaveURL(/\/SetCannabis$/)
  const rows = page.locator('table').first().locator(':scope > tbody > tr')
  await expect(rows.filter({ hasText: 'Edible' }).first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'Add Item' })).toHaveCount(0)
})
