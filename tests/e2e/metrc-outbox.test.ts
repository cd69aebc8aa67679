/**
 * Issue 9's pushes in the browser, against the METRC emulator inside the e2e server: a grower's new
 * planting goes to METRC through the outbox (the outbox screen says METRC confirmed it, and Sync now
 * on /MetrcPlantBatches brings it back from the emulator); a planting METRC refuses shows METRC's
 * own words on /MetrcOutbox, an admin corrects it there and resends it, and METRC takes it.
 * With and without JavaScript: every step is a link or a form post.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'
import { linkToEmulator } from './metrc-link'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }

async function newPlanting(page: Page, name: string, strain: string) {
  await page.goto('/CulPlantings/new')
  await expect(page.getByRole('heading', { name: 'New planting' })).toBeVisible()
  await page.getByLabel('Batch', { exact: true }).fill(name)
  await page.getByLabel('Strain', { exact: true }).selectOption({ label: strain })
  await page.getByLabel('Room', { exact: true }).selectOption({ label: 'Flower Room 1' })
  await page.getByLabel('Tag Number', { exact: true }).fill(`1A40E2E${crypto.randomBytes(4).toString('hex').toUpperCase()}`)
  await page.getByLabel('Source Pkg', { exact: true }).fill('1A40E2ESOURCE0001')
  await page.getByLabel('Type', { exact: true }).selectOption('Clone')
  await page.getByLabel('Original Count', { exact: true }).fill('6')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect(page).toHaveURL(/\/CulPlantings\?msg=saved$/)
}

/** The outbox item of `label` on a tab, reloading until it has `status` (the worker runs every 500 ms). */
async function outboxItem(page: Page, tab: string, label: string, status: string) {
  const item = page.getByTestId('outbox-item').filter({ hasText: label })
  await expect(async () => {
    await page.goto(`/MetrcOutbox?tab=${tab}`)
    await expect(item).toHaveAttribute('data-status', status, { timeout: 1000 })
  }).toPass({ timeout: 30_000 })
  return item
}

test('a planting reaches METRC through the outbox; one METRC refuses is fixed and resent from /MetrcOutbox', async ({ cleanup, page, createUser, database }) => {
  const admin = await createUser({ role: 'admin', modules: { [FAC]: ['cul', 'metrc'] } })
  const suffix = crypto.randomBytes(3).toString('hex').toUpperCase()
  const good = `PB-E2E-${suffix}`
  const bad = `PB-E2E-${suffix}-X`
  cleanup(async () => {
    for (const name of [good, bad]) for (const p of await database.store.find(FAC, 'fac_plantings', { name }, 5)) await database.store.remove(actor, FAC, 'fac_plantings', p._id)
    await database.db.query('DELETE FROM metrc_outbox WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_links WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_sync WHERE org = $1', [FAC])
    await database.db.query(`DELETE FROM c_metrc_plant_batches WHERE org = $1 AND doc ? 'MetrcId'`, [FAC])
  })
  await login(page, admin.email, admin.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await linkToEmulator(page, '/MetrcPlantBatches')

  // a planting METRC knows the strain of: queued with the record, sent, confirmed with METRC's Id
  await newPlanting(page, good, 'Blue Dream')
  const sent = await outboxItem(page, 'done', `Planting ${good}`, 'confirmed')
  await expect(sent).toContainText('Confirmed by METRC')
  await expect(sent).toContainText(/METRC Id \d+/)
  // who queued it, by name
  await expect(sent).toContainText(`by Test ${admin.uid}`)
  // …and it is in METRC: Sync now brings it back from the emulator
  await page.goto('/MetrcPlantBatches')
  await page.getByRole('button', { name: 'Sync now' }).click()
  await expect(page.getByTestId('metrc-sync-state')).toHaveAttribute('data-current', 'yes')
  await page.goto(`/MetrcPlantBatches?col=Name&q=${encodeURIComponent(good)}`)
  await expect(page.locator('tbody')).toContainText(good)
  await expect(page.locator('tbody')).toContainText('Blue Dream')

  // a strain METRC does not know at this license: METRC's own words, then fixed and resent
  await newPlanting(page, bad, 'Wedding Cake')
  const failed = await outboxItem(page, 'attention', `Planting ${bad}`, 'failed')
  await expect(failed.getByTestId('outbox-message')).toHaveText('METRC says: Strain Wedding Cake does not exist in the current Facility.')
  await failed.getByLabel('Strain', { exact: true }).fill('OG Kush')
  await failed.getByRole('button', { name: 'Resend to METRC' }).click()
  await expect(page.getByText('Queued again: it goes to METRC with the next push.')).toBeVisible()
  await outboxItem(page, 'done', `Planting ${bad}`, 'confirmed')
  const audit = await database.db.query<{ uid: string }>(`SELECT uid FROM audit_log WHERE org = $1 AND collection = 'metrc_outbox' AND after->>'label' = $2`, [FAC, `Planting ${bad}: 6 clones of Wedding Cake in Flower Room 1`])
  expect(audit.rows.map((r) => r.uid)).toEqual([admin.uid])
  const pushed = await database.db.query<{ strain: string }>(`SELECT payload->>'Strain' AS strain FROM metrc_outbox WHERE org = $1 AND label LIKE $2`, [FAC, `Planting ${bad}:%`])
  expect(pushed.rows).toEqual([{ strain: 'OG Kush' }])
})
