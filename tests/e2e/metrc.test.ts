/**
 * METRC in the browser (issue 9): "Sync now" on a read-only Metrc screen fills the table from the
 * METRC emulator that runs inside the e2e server (the demo facility greenleaf is linked to its
 * cultivation license) and the panel then says when it was last synced and that it is current —
 * with JavaScript and without (a plain form post). An administrator's METRC connection form on
 * /MetrcLicense refuses a license METRC does not list and changes nothing.
 * The lobby's credentials flow against the emulator is in sign-in.test.ts.
 */
import { GROW_LICENSE } from '../../app/metrc/emulator/model'
import { linkOf } from '../../app/metrc/sync/links.server'
import { syncStatus } from '../../app/metrc/sync/run.server'
import { expect, signIn, test } from './fixtures'

test('Sync now fills a Metrc table from METRC and says when it was last synced', async ({ page, createUser, database }) => {
  const u = await createUser({ role: 'admin', org: 'greenleaf', modules: { greenleaf: ['metrc', 'help'] } })
  const before = new Set((await database.store.find('greenleaf', 'metrc_units', {}, 1000)).map((d) => d._id))
  const was = await syncStatus(database, 'greenleaf', 'metrc_units')
  try {
    await signIn(page, u.email, u.password)
    await page.goto('/MetrcUnits')
    const panel = page.getByTestId('metrc-sync')
    await expect(panel).toBeVisible()
    await panel.getByRole('button', { name: 'Sync now' }).click()
    await expect(panel.getByRole('status')).toContainText('Last synced', { timeout: 20_000 })
    await expect(panel.getByRole('status')).toContainText('current')
    const st = await syncStatus(database, 'greenleaf', 'metrc_units')
    expect(st?.okAt).toBeTruthy()
    if (was?.okAt) expect(Date.parse(st!.okAt!)).toBeGreaterThan(Date.parse(was.okAt))
    // the emulator's units are in the table now (stable ids: a second run adds nothing)
    const after = await database.store.find('greenleaf', 'metrc_units', {}, 1000)
    expect(after.map((d) => d.Name)).toEqual(expect.arrayContaining(['Each', 'Grams', 'Kilograms']))
    await expect(page.getByRole('cell', { name: 'Kilograms', exact: true }).first()).toBeVisible()
  } finally {
    // leave the table as it was: the rows this sync added, and its sync row
    for (const d of await database.store.find('greenleaf', 'metrc_units', {}, 1000)) if (!before.has(d._id)) await database.store.remove({ uid: 'e2e' }, 'greenleaf', 'metrc_units', d._id)
    if (!was) await database.db.query(`DELETE FROM metrc_sync WHERE org = 'greenleaf' AND collection = 'metrc_units'`)
  }
})

test("an administrator's METRC connection form refuses a license METRC does not list, changing nothing", async ({ page, createUser, database }) => {
  const u = await createUser({ role: 'admin', org: 'greenleaf', modules: { greenleaf: ['metrc', 'help'] } })
  await signIn(page, u.email, u.password)
  await page.goto('/MetrcLicense')
  const form = page.getByRole('form', { name: 'METRC connection' })
  await expect(form.getByLabel('License')).toHaveValue(GROW_LICENSE)
  // the key is write-only: the field is empty, its placeholder shows only the last characters
  await expect(form.getByLabel('METRC user API key')).toHaveValue('')
  await form.getByLabel('License').fill('999-NOPE')
  await form.getByRole('button', { name: 'Check and save' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'State License was incorrect' })).toBeVisible()
  expect((await linkOf(database, 'greenleaf'))?.license).toBe(GROW_LICENSE)
})
