/**
 * Issue 23's "done when", in Chromium with JavaScript on and off: a grower starts a batch of 12
 * clones from a mother, tags 10 with a starting tag, moves them to flowering in another room,
 * destroys 1 with its waste, harvests 9 weighing each (the simulated Remote Scale with JavaScript,
 * typed without), records the dry weight, makes 3 packages and splits one — every step by ticking rows (or
 * "select all that match this view"), an action button and its confirm page. Then /MetrcOutbox
 * shows the pushes in that order, each confirmed by the METRC emulator inside the e2e server, and
 * a package's Trace link shows the harvest and the plants it came from.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { GROW_LICENSE } from '../../metrc/emulator/model'
import { E2E } from '../../../tests/e2e/env'
import { expect, login, test } from '../../../tests/e2e/fixtures'
import { linkToEmulator } from '../../../tests/e2e/metrc-link'

const FAC = 'greenleaf'
const fixture = { uid: 'e2e-fixture' }

/** What the emulator inside the server holds now (its state file): unused tags, a mother plant, an item. */
function emulator() {
  const s = JSON.parse(fs.readFileSync(path.join(E2E.dataDir, 'metrc-emulator', 'state.json'), 'utf8')) as { facilities: Record<string, { tags: { plant: string[]; package: string[] }; plants: Array<Record<string, unknown>>; items: Array<Record<string, unknown>> }> }
  const f = s.facilities[GROW_LICENSE]
  return {
    plantTag: f.tags.plant[0],
    packageTags: f.tags.package.slice(0, 4),
    mother: String(f.plants.find((p) => p.GrowthPhase === 'Mother' && p.State === 'Tracked')!.Label),
    item: String(f.items.find((i) => i.QuantityType === 'WeightBased')!.Name),
  }
}

async function confirm(page: Page, done: RegExp) {
  await page.getByRole('button', { name: /^Confirm/ }).click()
  await expect(page.getByTestId('action-done')).toHaveText(done, { timeout: 30_000 })
}

test('the lifecycle as actions, reported to METRC in order', async ({ cleanup, page, createUser, database, javaScriptEnabled }) => {
  test.setTimeout(240_000)
  const admin = await createUser({ role: 'admin', modules: { [FAC]: ['cul', 'metrc'] } })
  const sfx = `${javaScriptEnabled ? 'J' : 'N'}${crypto.randomBytes(2).toString('hex').toUpperCase()}`
  const emu = emulator()
  const id = async (table: string, name: string) => (await database.store.find(FAC, table, { name }, 1))[0]._id
  const mom = await database.store.insert(fixture, FAC, 'fac_moms', { name: `MOM-${sfx}`, tag: emu.mother, strain: await id('set_strains', 'Blue Dream'), room: await id('set_rooms', 'Mother Room'), active: 'yes', clonesTaken: 0 })
  // this facility's /MetrcPrefs hold destroys, harvests and packages for an approver: set aside for the test
  const prefs = await database.store.find(FAC, 'metrc_prefs', {}, 500)
  for (const p of prefs) await database.store.remove(fixture, FAC, 'metrc_prefs', p._id)
  const batch = `PB-${sfx}`
  const harvest = `H-${sfx}`
  cleanup(async () => {
    for (const p of prefs) await database.store.upsert(fixture, FAC, 'metrc_prefs', p._id, Object.fromEntries(Object.entries(p).filter(([k]) => !['_id', 'cts', 'ts'].includes(k)))).catch(() => {})
    await database.store.remove(fixture, FAC, 'fac_moms', mom._id).catch(() => {})
    await database.db.query('DELETE FROM metrc_outbox WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_links WHERE org = $1', [FAC])
  })
  await login(page, admin.email, admin.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await linkToEmulator(page, '/MetrcPlantBatches')
  const seq0 = Number((await database.db.query<{ s: string }>('SELECT coalesce(max(seq), 0) AS s FROM metrc_outbox WHERE org = $1', [FAC])).rows[0].s)

  // 1. 12 clones from the mother
  await page.goto(`/CulMoms?col=name&q=MOM-${sfx}`)
  await page.getByLabel(`Select MOM-${sfx}`).check()
  await page.getByRole('button', { name: 'Take clones' }).click()
  await expect(page.getByRole('heading', { name: 'Take clones' })).toBeVisible()
  await expect(page.getByTestId('action-summary')).toContainText(`clones cut from mother MOM-${sfx} (tag ${emu.mother})`)
  await page.getByLabel('New batch name').fill(batch)
  await page.getByLabel('Clones taken (1–100)').fill('12')
  await page.getByRole('combobox', { name: 'Room', exact: true }).selectOption({ label: 'Veg Room 1' })
  await page.getByLabel('Batch tag').fill(`BATCH-${sfx}`)
  await confirm(page, new RegExp(`Batch ${batch}: 12 clones from MOM-${sfx} in Veg Room 1\\.`))

  // 2. tag 10 of them from a starting tag
  await page.goto(`/CulPlantings?col=name&q=${batch}`)
  await page.getByLabel(`Select ${batch}`).check()
  await page.getByRole('button', { name: 'Tag plants' }).click()
  await expect(page.getByTestId('action-summary')).toContainText(`Batch ${batch} has 12 untagged plants`)
  await page.getByLabel('How many plants to tag').fill('10')
  await page.getByLabel('Starting tag').fill(emu.plantTag)
  await confirm(page, new RegExp(`10 plants tagged from batch ${batch} .*; 2 left untagged\\.`))

  // 3. all 10 (every row that matches the view) to flowering in another room
  const view = `/culPlants?col=planting&q=${batch}`
  await page.goto(view)
  await expect(page.locator('tbody tr')).toHaveCount(10)
  await page.getByLabel(/^Select all 10 rows that match this view/).check()
  await page.getByRole('button', { name: 'Change phase' }).click()
  await page.getByLabel('New growth phase').selectOption('Flowering')
  await page.getByLabel('Move to room (optional)').selectOption({ label: 'Flower Room 2' })
  await confirm(page, /^10 plants now Flowering in Flower Room 2\.$/)

  // 4. destroy 1 with its waste
  await page.goto(view)
  const first = await page.locator('tbody tr').first().locator('input[name="sel"]').getAttribute('data-scan')
  await page.getByLabel(`Select ${first}`).check()
  await page.getByRole('button', { name: 'Destroy', exact: true }).click()
  await expect(page.getByTestId('action-summary')).toContainText(`1 plant are destroyed (${first})`)
  await page.getByLabel('Waste reason (METRC)').selectOption('Male Plants')
  await page.getByLabel('Waste method').selectOption('Compost')
  await page.getByLabel('Mix material').selectOption('Soil')
  await page.getByLabel('Waste weight (all selected plants together)').fill('120')
  await confirm(page, /^1 plant destroyed \(120 g waste\)\.$/)

  // 5. harvest the 9 left, weighing each
  await page.goto(view)
  await expect(page.locator('tbody tr')).toHaveCount(9)
  await page.getByLabel(/^Select all 9 rows that match this view/).check()
  await page.getByRole('button', { name: 'Harvest', exact: true }).click()
  await page.getByLabel('Harvest name').fill(harvest)
  await page.getByLabel('Drying room').selectOption({ label: 'Dry Room' })
  if (javaScriptEnabled) {
    for (let i = 1; i <= 9; i++) {
      await page.getByTestId('weigh').click()
      await expect(page.getByTestId('weigh-total')).toContainText(`${i} / 9 weighed`, { timeout: 15_000 })
    }
  } else {
    const inputs = page.locator('input[name^="wet."][inputmode="decimal"]:not([name="wet.total"])')
    await expect(inputs).toHaveCount(9)
    for (let i = 0; i < 9; i++) await inputs.nth(i).fill(String(400 + i))
  }
  await confirm(page, new RegExp(`^Harvest ${harvest}: 9 plants, [\\d.]+ (g|oz|lb) wet, drying in Dry Room\\.$`))

  // 6. dry weight, 7. three packages
  await page.goto(`/CulHarvest?col=name&q=${harvest}`)
  await page.getByLabel(`Select ${harvest}`).check()
  await page.getByRole('button', { name: 'Record dry weight / waste' }).click()
  await page.getByLabel('Dry weight').fill('0.5')
  await page.getByRole('combobox', { name: 'Unit', exact: true }).selectOption('g')
  await confirm(page, new RegExp(`^Harvest ${harvest}: 0.5 g dry\\.$`))
  await page.getByLabel(`Select ${harvest}`).check()
  await page.getByRole('button', { name: 'Make packages' }).click()
  for (const [i, tag] of emu.packageTags.slice(0, 3).entries()) {
    await page.getByLabel(`Package tag ${i + 1}`).fill(tag)
    await page.getByLabel(`Item ${i + 1}`).fill(emu.item)
    await page.getByLabel(`Quantity ${i + 1}`).fill('0.1')
    await page.getByLabel(`Unit ${i + 1}`).selectOption('Grams')
  }
  await confirm(page, new RegExp(`^3 packages made from harvest ${harvest}\\.$`))

  // 8. split the first package: a new one of half of it, found by its tag on /MetrcPackages. First METRC
  // confirms the new packages (the push writes METRC's Id onto each: a split opened before that is refused as changed)
  await expect.poll(async () => (await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM c_metrc_packages WHERE org = $1 AND doc ? 'MetrcId' AND doc->>'Label' = ANY($2::text[])`, [FAC, emu.packageTags.slice(0, 3)])).rows[0].n, { timeout: 60_000 }).toBe(3)
  await page.goto(`/MetrcPackages?col=Label&q=${emu.packageTags[0]}`)
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await page.getByLabel(/^Select all 1 rows that match this view/).check()
  await page.getByRole('button', { name: 'Split', exact: true }).click()
  await expect(page.getByTestId('action-summary')).toContainText(`Package ${emu.packageTags[0]} (0.1 Grams of ${emu.item}) is split`)
  await page.getByLabel('Package tag 1').fill(emu.packageTags[3])
  await page.getByLabel('Quantity 1').fill('0.05')
  await confirm(page, new RegExp(`^Package ${emu.packageTags[0]} split into 1 new package \\(0.05 Grams\\); 0.05 Grams left in it\\.$`))

  // the pushes, in that order, each confirmed by METRC
  const expected = ['POST /plants/v2/plantings', 'POST /plantbatches/v2/growthphase', ...Array(10).fill('PUT /plants/v2/growthphase'), 'DELETE /plants/v2', ...Array(9).fill('PUT /plants/v2/harvest'), ...Array(3).fill('POST /harvests/v2/packages'), 'POST /packages/v2']
  const ours = async () => (await database.db.query<{ endpoint: string; status: string; label: string; message: string | null }>('SELECT endpoint, status, label, message FROM metrc_outbox WHERE org = $1 AND seq > $2 ORDER BY seq', [FAC, seq0])).rows
  expect((await ours()).map((r) => r.endpoint)).toEqual(expected)
  await expect.poll(async () => (await ours()).filter((r) => r.status !== 'confirmed').map((r) => `${r.endpoint} ${r.status} ${r.message ?? ''}`), { timeout: 60_000 }).toEqual([])
  await page.goto('/MetrcOutbox?tab=done')
  const items = page.getByTestId('outbox-item')
  for (const label of [`Planting ${batch}: 12 clones of Blue Dream from mother ${emu.mother} in Veg Room 1`, `Batch ${batch}: 10 plants tagged from ${emu.plantTag}, Vegetative in Veg Room 1`, `Destroy plant ${first}`, `Harvest plant`, `New package ${emu.packageTags[0]}`, `New package ${emu.packageTags[3]}: 0.05 Grams of ${emu.item} from ${emu.packageTags[0]}`]) {
    await expect(items.filter({ hasText: label }).first()).toHaveAttribute('data-status', 'confirmed')
  }
  // on the screen, in the order they were queued (the list shows the newest first)
  const shown = await items.evaluateAll((els) => els.map((e) => e.textContent ?? ''))
  const order = [`Planting ${batch}`, `Batch ${batch}:`, `to Flowering in Flower Room 2`, `Destroy plant ${first}`, `into ${harvest}`, `New package ${emu.packageTags[0]}`, `New package ${emu.packageTags[3]}`].map((l) => shown.findIndex((s) => s.includes(l)))
  expect(order.every((i) => i >= 0)).toBe(true)
  expect([...order].sort((a, b) => b - a)).toEqual(order)

  // 9. the package's row → its trace: the harvest and the plants it came from (issue 23 item 3)
  const harvested = (await database.db.query<{ tag: string }>(`SELECT p.doc->>'tag' AS tag FROM c_fac_plants p JOIN c_fac_harvests h ON h.org = p.org AND h.id = p.doc->>'harvest' WHERE p.org = $1 AND h.doc->>'name' = $2`, [FAC, harvest])).rows.map((r) => r.tag)
  expect(harvested).toHaveLength(9)
  await page.goto(`/MetrcPackages?col=Label&q=${emu.packageTags[0]}`)
  await page.locator('tbody tr').first().getByRole('link', { name: 'Trace' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trace: Package ${emu.packageTags[0]}`)
  const from = page.getByTestId('trace-from')
  await expect(from).toContainText(`Harvest ${harvest}`)
  for (const tag of harvested) await expect(from).toContainText(tag)
  // and where it went: the package split off it
  await expect(page.getByTestId('trace-to')).toContainText(emu.packageTags[3])
})
