/**
 * Issue 32, items 1 and 2: the two bugs that corrupted compliance records. A check cell's one tap
 * runs the same SPEC §5 save rules as the form (a plant marked dead without how it was destroyed
 * opens the form for it; nothing is saved, nothing is queued for METRC), and a save that did not
 * touch a date-time keeps it to the second. JavaScript on and off; every test restores what it changes.
 */
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }

async function signedIn(page: Page, email: string, password: string) {
  await login(page, email, password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
}

test('one tap on Mark As Dead runs the dead-plant rule: the form opens for the disposal data, nothing is saved until it is given', async ({ page, createUser, database }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await signedIn(page, grower.email, grower.password)
  // an alive plant no other test edits (they take the first and the last by tag)
  const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 7, limit: 1, sort: { key: 'tag', dir: 'desc' }, activeOnly: true })).rows
  const { _id: id, cts: _c, ts: _t, ...original } = plant
  const queued = async () => (await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM metrc_outbox WHERE org = $1 AND created_by = $2', [FAC, grower.uid])).rows[0].n
  try {
    await database.store.update(actor, FAC, 'fac_plants', id, { mark_as_dead: 'no', waste_method: null, mix_material: null, dead_weight: null, ed: 'yes' })
    await page.goto(`/culPlants?col=tag&q=${encodeURIComponent(String(plant.tag))}&all=1`)
    await page.getByRole('button', { name: 'Mark As Dead: No' }).first().click()
    // the tap asks for what the rule needs instead of saving a dead plant without it
    await expect(page).toHaveURL(new RegExp(`/culPlants/${encodeURIComponent(id)}/edit`))
    await expect(page.getByRole('heading', { name: 'Edit: Plants' })).toBeVisible()
    await expect(page.getByText('Waste Method, Mix Material and Dead Weight should all be specified').first()).toBeVisible()
    await expect(page.getByLabel('Mark As Dead', { exact: true })).toBeChecked()
    const now = await database.store.get(FAC, 'fac_plants', id)
    expect(now?.mark_as_dead).toBe('no')
    expect(await queued()).toBe(0)

    // giving the data saves it, through the same form
    await page.getByLabel('Waste Method', { exact: true }).selectOption({ index: 1 })
    await page.getByLabel('Mix Material', { exact: true }).selectOption({ index: 1 })
    await page.locator('[name="dead_weight.qty"]').fill('3')
    await page.getByRole('button', { name: 'Save', exact: true }).last().click()
    await expect(page).toHaveURL(/\/culPlants\?.*msg=saved/)
    // back to the view the tap came from, without the form's own parameters
    expect(new URL(page.url()).searchParams.get('q')).toBe(String(plant.tag))
    expect(page.url()).not.toContain('set.')
    await expect.poll(async () => (await database.store.get(FAC, 'fac_plants', id))?.mark_as_dead).toBe('yes')
    const saved = await database.store.get(FAC, 'fac_plants', id)
    expect(saved?.waste_method).toBeTruthy()
    expect(saved?.dead_weight).toEqual({ qty: 3, unit: 'g' })
  } finally {
    await database.store.update(actor, FAC, 'fac_plants', id, original, { replace: true })
    await database.db.query('DELETE FROM metrc_outbox WHERE org = $1 AND created_by = $2', [FAC, grower.uid])
  }
})

test('a check cell whose rule is met still toggles in one tap (Reported to State on Waste)', async ({ page, createUser, database }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await signedIn(page, grower.email, grower.password)
  const [waste] = (await database.store.page(FAC, 'fac_waste', { offset: 5, limit: 1, sort: { key: 'wasteDate', dir: 'desc' } })).rows
  const { _id: id, cts: _c, ts: _t, ...original } = waste
  try {
    await database.store.update(actor, FAC, 'fac_waste', id, { reported: 'no', notes: `toggle-${id}`, ed: 'yes' })
    await page.goto(`/culWaste?col=notes&q=${encodeURIComponent(`toggle-${id}`)}&all=1`)
    await page.getByRole('button', { name: 'Reported to State: No' }).first().click()
    await expect.poll(async () => (await database.store.get(FAC, 'fac_waste', id))?.reported).toBe('yes')
    await expect(page).toHaveURL(/\/culWaste\?/)
  } finally {
    await database.store.update(actor, FAC, 'fac_waste', id, original, { replace: true })
  }
})

test('saving a record with only its notes changed keeps its date-times to the second (Date and Created)', async ({ page, createUser, database }) => {
  const admin = await createUser({ role: 'admin', modules: { [FAC]: ['cul'] } })
  await signedIn(page, admin.email, admin.password)
  const [waste] = (await database.store.page(FAC, 'fac_waste', { offset: 9, limit: 1, sort: { key: 'wasteDate', dir: 'desc' } })).rows
  const { _id: id, cts: _c, ts: _t, ...original } = waste
  const wasteDate = '2026-11-20T16:41:24.000Z'
  const cts = '2026-11-20T16:38:47.000Z'
  try {
    await database.store.update(actor, FAC, 'fac_waste', id, { wasteDate, cts, ed: 'yes' }, { allowCts: true })
    const before = await database.store.get(FAC, 'fac_waste', id)
    expect(new Date(String(before?.cts)).toISOString()).toBe(cts)
    await page.goto(`/culWaste/${encodeURIComponent(id)}/edit`)
    await expect(page.getByRole('heading', { name: 'Edit: Waste' })).toBeVisible()
    await page.getByLabel('Notes', { exact: true }).fill(`only the notes ${id}`)
    await page.getByRole('button', { name: 'Save', exact: true }).last().click()
    await expect(page).toHaveURL(/\/culWaste\?msg=saved/)
    const after = await database.store.get(FAC, 'fac_waste', id)
    expect(after?.notes).toBe(`only the notes ${id}`)
    expect(after?.wasteDate).toBe(before?.wasteDate)
    expect(new Date(String(after?.wasteDate)).toISOString()).toBe(wasteDate)
    expect(new Date(String(after?.cts)).toISOString()).toBe(cts)
  } finally {
    await database.store.update(actor, FAC, 'fac_waste', id, original, { replace: true })
  }
})

test('a date-time the user picks is still held to the picker’s 5-minute step', async ({ page, createUser, database, javaScriptEnabled }) => {
  const admin = await createUser({ role: 'admin', modules: { [FAC]: ['cul'] } })
  await signedIn(page, admin.email, admin.password)
  const [waste] = (await database.store.page(FAC, 'fac_waste', { offset: 10, limit: 1, sort: { key: 'wasteDate', dir: 'desc' } })).rows
  const { _id: id, cts: _c, ts: _t, ...original } = waste
  try {
    await database.store.update(actor, FAC, 'fac_waste', id, { ed: 'yes' })
    await page.goto(`/culWaste/${encodeURIComponent(id)}/edit`)
    const date = page.getByLabel('Date', { exact: true })
    await date.fill('2026-11-21T09:07')
    if (javaScriptEnabled) {
      await page.getByRole('button', { name: 'Save', exact: true }).last().click()
      await expect(page.getByText('Date must be on a 5-minute step, like 2:05 or 2:10').first()).toBeVisible()
    } else {
      // without JavaScript the browser's own check holds the picked value to the step
      expect(await date.evaluate((el: HTMLInputElement) => el.validity.stepMismatch)).toBe(true)
    }
    expect((await database.store.get(FAC, 'fac_waste', id))?.wasteDate).toBe(waste.wasteDate)
  } finally {
    await database.store.update(actor, FAC, 'fac_waste', id, original, { replace: true })
  }
})

test('a table keeps its cells when the page revalidates: a check toggle waiting for its answer is not remounted', async ({ page, createUser, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'revalidation is what the script does')
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await signedIn(page, grower.email, grower.password)
  await page.goto('/culPlants?size=10&sort=tag&dir=asc')
  await expect(page.locator('[data-connection="connected"]')).toBeVisible()
  const toggle = page.getByRole('button', { name: /^Mark As Dead: / }).first()
  // an expando lives on the element itself: a remounted cell is a new element without it
  await toggle.evaluate((el) => ((el as unknown as { kept: boolean }).kept = true))
  // Refresh: the same view loaded again (a new loader answer, as after a toggle's save or a live refresh)
  const answered = page.waitForResponse((r) => r.url().includes('/culPlants') && r.url().includes('_data='))
  await page.getByRole('link', { name: /^Refresh/ }).click()
  await answered
  // the router settles once the answer is in the page
  await page.waitForFunction(() => (window as unknown as { __remixRouter: { state: { navigation: { state: string } } } }).__remixRouter.state.navigation.state === 'idle')
  await expect(page.getByRole('link', { name: /^Refresh/ })).toBeVisible()
  expect(await toggle.evaluate((el) => (el as unknown as { kept?: boolean }).kept === true)).toBe(true)
})
