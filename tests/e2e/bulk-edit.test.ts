/**
 * Issue 31 item 4 in real browsers, JavaScript on and off: bulk-set the room of 50 plants from the
 * table's selection bar — every row of the view, Bulk edit, choose the room, Preview (what will
 * change, nothing saved), Confirm: one transaction, back on the table with what was done. The
 * test's 50 plants (and the METRC items the change queued) are removed afterwards.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import type { Database } from '../../app/db/index.server'
import type { Doc } from '../../app/db/types'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }

/** 50 plants of the test's own (tags no other test reads), in Veg Room 1; removed when the test ends. */
async function fiftyPlants(database: Database, cleanup: (undo: () => Promise<unknown>) => void): Promise<{ rows: Doc[]; view: string }> {
  const prefix = `E2EBULK${crypto.randomBytes(3).toString('hex').toUpperCase()}`
  const [veg] = await database.store.find(FAC, 'set_rooms', { name: 'Veg Room 1' }, 1)
  const [strain] = await database.store.find(FAC, 'set_strains', {}, 1)
  const rows = await database.db.transaction((tx) =>
    database.store.insertRows(tx, actor, FAC, 'fac_plants', Array.from({ length: 50 }, (_, i) => ({ tag: `${prefix}${String(i + 1).padStart(3, '0')}`, room: veg._id, strain: strain._id, phase: 'Vegetative', alive: 'yes', mark_as_dead: 'no' }))),
  )
  cleanup(async () => {
    await database.db.query(`DELETE FROM c_fac_plants WHERE org = $1 AND doc->>'tag' LIKE $2`, [FAC, `${prefix}%`])
    await database.db.query(`DELETE FROM metrc_outbox WHERE org = $1 AND source_id = ANY($2::text[])`, [FAC, rows.map((r) => r._id)])
  })
  return { rows, view: `/culPlants?col=tag&q=${prefix}` }
}

/** Every row of the view: the selection bar's "Select all n rows that match this view". */
async function selectAll(page: Page) {
  await page.getByLabel(/^Select all 50 rows that match this view/).check()
}

test('bulk edit sets the room of 50 plants, previewed, in one transaction', async ({ page, createUser, database, cleanup }) => {
  test.setTimeout(120_000)
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const { rows, view } = await fiftyPlants(database, cleanup)
  const [room] = await database.store.find(FAC, 'set_rooms', { name: 'Flower Room 2' }, 1)

  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto(view)
  await selectAll(page)
  await page.getByRole('button', { name: 'Bulk edit' }).click()
  await expect(page.getByRole('heading', { name: 'Bulk edit' })).toBeVisible()
  await expect(page.getByTestId('action-summary')).toContainText('50 selected rows')
  // blank fields stay as they are; the tag is not offered (one tag per plant)
  await expect(page.getByLabel('Plant Tag')).toHaveCount(0)
  await page.getByLabel('Room', { exact: true }).selectOption({ label: 'Flower Room 2' })
  await page.getByRole('button', { name: 'Preview' }).click()
  await expect(page.getByTestId('action-summary')).toContainText('Room → Flower Room 2 on 50 rows')
  // the preview saved nothing
  expect((await database.store.get(FAC, 'fac_plants', rows[0]._id))?.room).toBe(rows[0].room)
  await expect(page.getByLabel('Room', { exact: true })).toHaveValue(room._id)

  await page.getByRole('button', { name: /^Confirm/ }).click()
  await expect(page.getByTestId('action-done')).toHaveText('Room → Flower Room 2: 50 of 50 rows changed.', { timeout: 30_000 })
  await expect(page).toHaveURL(/\/culPlants\?/)
  const after = await Promise.all(rows.map((r) => database.store.get(FAC, 'fac_plants', r._id)))
  expect(after.filter((r) => r?.room === room._id)).toHaveLength(50)
  const audits = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE org = $1 AND collection = 'fac_plants' AND uid = $2`, [FAC, grower.uid])
  expect(audits.rows[0].n).toBe(50)
})

test('bulk edit refuses what the form would refuse, and changes nothing', async ({ page, createUser, database, cleanup }) => {
  test.setTimeout(120_000)
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const { rows, view } = await fiftyPlants(database, cleanup)
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto(view)
  await selectAll(page)
  await page.getByRole('button', { name: 'Bulk edit' }).click()
  // a dead plant needs how it was destroyed (SPEC §5): the preview names the rows, Confirm refuses them all
  await page.getByLabel('Mark As Dead', { exact: true }).selectOption('yes')
  await page.getByRole('button', { name: 'Preview' }).click()
  await expect(page.getByTestId('action-summary')).toContainText("of the rows would be refused by the table's rules")
  await page.getByRole('button', { name: /^Confirm/ }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Waste Method, Mix Material and Dead Weight should all be specified' }).first()).toBeVisible()
  const now = await Promise.all(rows.map((r) => database.store.get(FAC, 'fac_plants', r._id)))
  expect(now.map((r) => r?.ts)).toEqual(rows.map((r) => r.ts))
})
