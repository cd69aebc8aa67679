/**
 * SPEC §2.6 field types with their own widget, with JavaScript and without: a gaugearray (the seeded
 * Harvests' Moisture Checks, 0–100 %) is one input per reading beside a gauge, plus a blank one for the
 * next; what is saved is the list, and the edit form shows it again with its gauges. A remote field (the seeded
 * Trim's Shake) is read by its Remote button from the scale mapped to it. A function field (the seeded
 * Harvests' Dry Yield) is computed from the weights, never typed. A document field (the platform's mail
 * templates' Body) is its HTML beside a sandboxed preview.
 */
import { PLATFORM_ORG } from '#app/route-map'
import { expect, login, signIn, test } from './fixtures'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }

test('gaugearray: a reading per input, each with its gauge; saved as a list and shown again', async ({ page, createUser, database, cleanup }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const [harvest] = await database.store.find(FAC, 'fac_harvests', {}, 1)
  const before = harvest.moisture
  cleanup(async () => {
    const now = (await database.store.get(FAC, 'fac_harvests', harvest._id))!
    await database.store.update(actor, FAC, 'fac_harvests', harvest._id, { ...now, moisture: before ?? [] })
  })
  await signIn(page, grower.email, grower.password)
  await page.goto(`/CulHarvest/${encodeURIComponent(harvest._id)}/edit`)
  await page.getByLabel('Moisture Checks (%) 1', { exact: true }).fill('62')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect.poll(async () => (await database.store.get(FAC, 'fac_harvests', harvest._id))?.moisture).toEqual([62])

  await page.goto(`/CulHarvest/${encodeURIComponent(harvest._id)}/edit`)
  await expect(page.getByLabel('Moisture Checks (%) 1', { exact: true })).toHaveValue('62')
  await expect(page.getByRole('meter', { name: 'Moisture Checks (%) 1: 62' })).toHaveAttribute('value', '62')
  // the next reading goes in the blank input after the last one
  await page.getByLabel('Moisture Checks (%) 2', { exact: true }).fill('58.5')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect.poll(async () => (await database.store.get(FAC, 'fac_harvests', harvest._id))?.moisture).toEqual([62, 58.5])
})

test("remote: the Remote button reads the field from the scale mapped to it (the seeded Trim's Shake)", async ({ page, createUser, database, javaScriptEnabled }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const [trim] = await database.store.find(FAC, 'fac_trim', {}, 1)
  await signIn(page, grower.email, grower.password)
  await page.goto(`/culTrim/${encodeURIComponent(trim._id)}/edit`)
  const remote = page.getByRole('button', { name: 'Remote', exact: true })
  if (!javaScriptEnabled) {
    // device buttons need JavaScript: shown, disabled, and the form says why
    await expect(remote).toBeDisabled()
    await expect(page.getByText('Device buttons need JavaScript').first()).toBeVisible()
    return
  }
  await expect(page.getByLabel('Shake (remote scale)', { exact: true })).toHaveValue('')
  await remote.click()
  // the demo's trim-room scale answers read_weight: its reading is the field's value
  await expect(page.getByLabel('Shake (remote scale)', { exact: true })).toHaveValue(/^\d+(\.\d+)?$/, { timeout: 15_000 })
})

test('function: the Dry Yield is computed from the weights, live as they are typed with JavaScript, stored on save', async ({ page, createUser, database, javaScriptEnabled, cleanup }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const [harvest] = await database.store.find(FAC, 'fac_harvests', {}, 1)
  cleanup(async () => {
    const now = (await database.store.get(FAC, 'fac_harvests', harvest._id))!
    await database.store.update(actor, FAC, 'fac_harvests', harvest._id, { ...now, wetWeight: harvest.wetWeight ?? null, dryWeight: harvest.dryWeight ?? null })
  })
  await signIn(page, grower.email, grower.password)
  await page.goto(`/CulHarvest/${encodeURIComponent(harvest._id)}/edit`)
  const out = page.getByRole('status', { name: 'Dry Yield (% of wet)' })
  await expect(out).toBeVisible()
  await expect(out).toHaveAccessibleDescription('Computed from: round(Dry Weight / Wet Weight × 100, 1)')
  // no input for it: it is computed, never typed
  await expect(page.locator('[name="dryYield"]')).toHaveCount(0)
  await page.getByLabel('Wet Weight: quantity', { exact: true }).fill('2')
  await page.getByLabel('Wet Weight: unit', { exact: true }).selectOption('lb')
  await page.getByLabel('Dry Weight: quantity', { exact: true }).fill('8')
  await page.getByLabel('Dry Weight: unit', { exact: true }).selectOption('oz')
  if (javaScriptEnabled) await expect(out).toHaveText('25')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect.poll(async () => (await database.store.get(FAC, 'fac_harvests', harvest._id))?.dryYield).toBe(25)
  await page.goto(`/CulHarvest/${encodeURIComponent(harvest._id)}/edit`)
  await expect(out).toHaveText('25')
  if (javaScriptEnabled) {
    await page.getByLabel('Dry Weight: quantity', { exact: true }).fill('')
    await expect(out).toHaveText('—')
  }
})

test("document: a mail template's HTML beside its preview in a frame that runs nothing; what is saved is cleaned, and shown again without JavaScript", async ({ page, createUser, database, javaScriptEnabled, cleanup }) => {
  const sup = await createUser({ role: 'super' })
  const [tpl] = await database.store.find(PLATFORM_ORG, 'sup_email_structure', { name: 'email_verify' }, 1)
  cleanup(async () => {
    const now = (await database.store.get(PLATFORM_ORG, 'sup_email_structure', tpl._id))!
    await database.store.update(actor, PLATFORM_ORG, 'sup_email_structure', tpl._id, { ...now, body: tpl.body })
  })
  await login(page, sup.email, sup.password)
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto(`/SupEmailStructure/${encodeURIComponent(tpl._id)}/edit`)
  const body = page.getByLabel('Body', { exact: true })
  await expect(body).toHaveValue(String(tpl.body))
  const frame = page.getByTitle('Body: Preview', { exact: true })
  // no scripts, no forms, no same-origin rights, whatever the HTML holds
  await expect(frame).toHaveAttribute('sandbox', '')
  const preview = page.frameLocator('iframe[title="Body: Preview"]')
  await expect(preview.getByRole('link', { name: 'this link' })).toHaveAttribute('href', '{link}')

  await body.fill('<h2>Confirm your address</h2><p onclick="alert(1)">Open <a href="{link}">the link</a> or <a href="javascript:alert(2)">this</a>.<script>alert(3)</script></p>')
  if (javaScriptEnabled) await expect(preview.getByRole('heading', { name: 'Confirm your address' })).toBeVisible()
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  // stored as the documents' sanitiser leaves it: the merge-tag link stays, the handler, the script and the script link go
  await expect.poll(async () => (await database.store.get(PLATFORM_ORG, 'sup_email_structure', tpl._id))?.body)
    .toBe('<h2>Confirm your address</h2><p>Open <a href="{link}">the link</a> or <a>this</a>.</p>')
  await page.goto(`/SupEmailStructure/${encodeURIComponent(tpl._id)}/edit`)
  await expect(preview.getByRole('heading', { name: 'Confirm your address' })).toBeVisible()
  await expect(preview.getByRole('link', { name: 'the link' })).toHaveAttribute('href', '{link}')
})
