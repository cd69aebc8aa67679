/**
 * Issue 6 / SPEC §5: the plantings save rules with every message, step by step as a grower fills
 * the form, and a scale measure entered in lb stored and shown in the g its column keeps — with
 * JavaScript (checked in the browser first) and without (checked by the action). Nothing is saved
 * until the record is right; the test removes what it adds and restores what it changes.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }

async function save(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
}
const errorBox = (page: Page) => page.getByRole('alert', { name: 'Error' })

test('plantings: Strain, Room, Tag Number, Source Pkg and Original Count answer with the SPEC §5 messages, then the planting saves', async ({ page, createUser, database }) => {
  // eight round trips without JavaScript: more than the default minute on a loaded machine
  test.setTimeout(120_000)
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  // markup in a text field is stored as text and shown as text, never run
  const batch = `E2E-PB-${crypto.randomBytes(3).toString('hex')} <img src=x onerror="document.title='pwned'">`
  const tag = `1A40E2E${crypto.randomBytes(4).toString('hex').toUpperCase()}`
  const stored = async () => database.store.find(FAC, 'fac_plantings', { name: batch }, 5)
  await page.goto('/CulPlantings/new')
  await expect(page.getByRole('heading', { name: 'New planting' })).toBeVisible()
  try {
    await page.getByLabel('Batch', { exact: true }).fill(batch)
    await page.getByLabel('Type', { exact: true }).selectOption('Clone')
    await save(page)
    await expect(errorBox(page)).toContainText('The following fields can not be empty: Strain, Room, Tag Number, Source Pkg')
    expect(await stored()).toEqual([])

    // exactly the ones still empty
    await page.getByLabel('Strain', { exact: true }).selectOption({ index: 1 })
    await page.getByLabel('Room', { exact: true }).selectOption({ index: 1 })
    await page.getByLabel('Tag Number', { exact: true }).fill(tag)
    await save(page)
    await expect(errorBox(page)).toContainText('The following fields can not be empty: Source Pkg')
    await expect(errorBox(page)).not.toContainText('Strain')
    expect(await stored()).toEqual([])

    // from seed, no source package is needed; the original count still is
    await page.getByLabel('Type', { exact: true }).selectOption('Seed')
    await save(page)
    await expect(errorBox(page)).toContainText('Original Count must be between 1 and 100')
    for (const bad of ['0', '101', '2.5']) {
      await page.getByLabel('Original Count', { exact: true }).fill(bad)
      await save(page)
      await expect(errorBox(page)).toContainText('Original Count must be between 1 and 100')
    }
    expect(await stored()).toEqual([])

    await page.getByLabel('Original Count', { exact: true }).fill('24')
    await save(page)
    await expect(page).toHaveURL(/\/CulPlantings\?msg=saved$/)
    await expect(page.getByText('The item was saved.').first()).toBeVisible()
    const [p] = await stored()
    expect(p).toMatchObject({ name: batch, type: 'Seed', mtag: tag, orig: 24 })
    expect(p.origin ?? '').toBe('')
    await page.goto(`/CulPlantings?col=name&q=${encodeURIComponent(batch.slice(0, 13))}`)
    await expect(page.locator('tbody')).toContainText(`<img src=x onerror="document.title='pwned'">`)
    await expect(page.locator('tbody img[src="x"]')).toHaveCount(0)
    expect(await page.title()).not.toBe('pwned')
  } finally {
    for (const p of await stored()) await database.store.remove(actor, FAC, 'fac_plantings', p._id)
  }
})

test('a dead weight entered in lb is saved and shown in g, the unit the column keeps', async ({ page, createUser, database, javaScriptEnabled }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  // a plant other tests do not edit (they take the first by tag): the last one
  const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 0, limit: 1, sort: { key: 'tag', dir: 'desc' }, activeOnly: true })).rows
  const { _id: id, cts: _c, ts: _t, ...original } = plant
  try {
    await page.goto(`/culPlants/${encodeURIComponent(id)}/edit`)
    await expect(page.getByRole('heading', { name: 'Edit: Plants' })).toBeVisible()
    // the field's scale (sen_input_devices) gives a Remote Scale button; it needs JavaScript
    if (javaScriptEnabled) await expect(page.locator('button[data-device="scale"][aria-describedby*="-dead_weight-"]') /* the dead weight's Remote Scale (the form has others) */).toBeEnabled()
    else {
      await expect(page.locator('button[data-device="scale"][aria-describedby*="-dead_weight-"]') /* the dead weight's Remote Scale (the form has others) */).toBeDisabled()
      await expect(page.getByText('Device buttons need JavaScript').first()).toBeVisible()
    }
    await page.getByLabel('Mark As Dead', { exact: true }).check()
    await page.getByLabel('Waste Method', { exact: true }).selectOption({ index: 1 })
    await page.getByLabel('Mix Material', { exact: true }).selectOption({ index: 1 })
    await page.locator('[name="dead_weight.qty"]').fill('2')
    await page.locator('[name="dead_weight.unit"]').selectOption('lb')
    await save(page)
    await expect(page).toHaveURL(/\/culPlants\?msg=saved$/)
    await expect.poll(async () => (await database.store.get(FAC, 'fac_plants', id))?.dead_weight).toEqual({ qty: 907.184, unit: 'g' })

    await page.goto(`/culPlants?col=tag&q=${encodeURIComponent(String(plant.tag))}&all=1`)
    const header = page.locator('thead th')
    const names = await header.allInnerTexts()
    const col = names.findIndex((n) => n.includes('Dead Weight'))
    expect(col).toBeGreaterThanOrEqual(0)
    await expect(page.locator('tbody tr').first().locator('td').nth(col)).toHaveText('907.184 g')
    // the form shows it in g too
    await page.goto(`/culPlants/${encodeURIComponent(id)}/edit`)
    await expect(page.locator('[name="dead_weight.qty"]')).toHaveValue('907.184')
    await expect(page.locator('[name="dead_weight.unit"]')).toHaveValue('g')
  } finally {
    await database.store.update(actor, FAC, 'fac_plants', id, original, { replace: true })
  }
})

test('a long list gets a search box with JavaScript: typing narrows it, Enter picks the first match', async ({ page, createUser, javaScriptEnabled }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/CulPlantings/new')
  const strain = page.getByLabel('Strain', { exact: true })
  const names = (await strain.locator('option').allInnerTexts()).slice(1)
  expect(names.length).toBeGreaterThan(10)
  const search = page.getByRole('searchbox', { name: 'Search Strain' })
  if (!javaScriptEnabled) {
    // the plain select: every option, no search box
    await expect(search).toHaveCount(0)
    return
  }
  const target = names[names.length - 1]
  await search.fill(target.slice(0, 6).toLowerCase())
  const left = names.filter((n) => n.toLowerCase().includes(target.slice(0, 6).toLowerCase()))
  await expect(page.getByText(`${left.length} ${left.length === 1 ? 'match' : 'matches'}`)).toBeVisible()
  await expect(strain.locator('option:not([hidden])')).toHaveCount(left.length + 1) // and "Choose…"
  await search.press('Enter')
  // Enter picked the match and did not save the form
  await expect(page.getByRole('heading', { name: 'New planting' })).toBeVisible()
  await expect(strain.locator('option:checked')).toHaveText(left[0])
})
