/**
 * Issue 21 in the browser, against the emulator inside the e2e server: a facility linked with a
 * METRC user key that lacks the employees permission. Sync now on /MetrcEmployees: the panel says
 * METRC refused that list, with METRC's words and the permission the key's user needs, and the
 * link is not failing; Sync now on /MetrcPackages works, and the packages show their item (METRC
 * nests it). With and without JavaScript.
 */
import { GROW_LICENSE, NO_EMPLOYEES_USER_KEY } from '../../app/metrc/emulator/model'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'

test('a key without the employees permission: that table shows the refusal, the others sync', async ({ cleanup, page, createUser, database }) => {
  const admin = await createUser({ role: 'admin', modules: { [FAC]: ['metrc'] } })
  cleanup(async () => {
    await database.db.query('DELETE FROM metrc_links WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_sync WHERE org = $1', [FAC])
    await database.db.query(`DELETE FROM c_metrc_packages WHERE org = $1 AND doc ? 'MetrcId'`, [FAC])
  })
  await login(page, admin.email, admin.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/MetrcEmployees')
  const panel = page.getByTestId('metrc-panel')
  await panel.getByLabel('State', { exact: true }).selectOption('CA')
  await panel.getByLabel('State License').fill(GROW_LICENSE)
  await panel.getByLabel('METRC API Key').fill(NO_EMPLOYEES_USER_KEY)
  await panel.getByRole('button', { name: 'Save and check' }).click()
  await expect(page.getByTestId('metrc-panel')).toContainText('This facility is now linked to METRC.')

  await page.getByRole('button', { name: 'Sync now' }).click()
  const refused = page.getByTestId('metrc-sync-refused')
  await expect(refused).toContainText('METRC refused this list for this facility’s key: Authorization has been denied for this request.')
  await expect(refused).toContainText('The key’s METRC user needs the permission Manage Employees or View Employees.')
  await expect(page.getByTestId('metrc-panel')).not.toContainText('METRC stopped accepting this facility’s API key')

  await page.goto('/MetrcPackages')
  await page.getByRole('button', { name: 'Sync now' }).click()
  await expect(page.getByTestId('metrc-sync-state')).toHaveAttribute('data-current', 'yes')
  const synced = await database.db.query<{ label: string; item: string }>(`SELECT doc->>'Label' AS label, doc->>'ItemName' AS item FROM c_metrc_packages WHERE org = $1 AND doc ? 'MetrcId' ORDER BY id LIMIT 1`, [FAC])
  expect(synced.rows[0].item).toBeTruthy()
  await page.goto(`/MetrcPackages?col=Label&q=${encodeURIComponent(synced.rows[0].label)}`)
  await expect(page.locator('tbody')).toContainText(synced.rows[0].item)
  expect((await database.db.query<{ status: string }>('SELECT status FROM metrc_links WHERE org = $1', [FAC])).rows[0].status).toBe('ok')
})
