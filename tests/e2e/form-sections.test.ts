/**
 * Issue 33 item 3: the edit form in sections. The seeded Harvests group their fields (Harvest, Weights,
 * Drying and status); the form shows each group as a fieldset with its heading, two columns on a wide
 * screen and one on a tablet, required fields marked, and a refused save summarised at the top with a
 * link to the field, the field's own message beside it. Screenshots of both sizes go with the report.
 */
import { expect, signIn, test } from './fixtures'

const FAC = 'greenleaf'

test('a harvest is edited in sections: headings, two columns wide and one on a tablet, errors at the top and per field', async ({ page, createUser, database }, info) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const [harvest] = await database.store.find(FAC, 'fac_harvests', {}, 1)
  await page.setViewportSize({ width: 1366, height: 768 })
  await signIn(page, grower.email, grower.password)
  await page.goto(`/CulHarvest/${encodeURIComponent(harvest._id)}/edit`)

  const legends = page.locator('form fieldset > legend')
  await expect(legends).toHaveText(['Harvest', 'Weights', 'Drying and status', 'Record'])
  const weights = page.getByRole('group', { name: 'Weights', exact: true })
  await expect(weights.getByLabel('Wet Weight: quantity', { exact: true })).toBeVisible()
  await expect(weights.getByRole('status', { name: 'Dry Yield (% of wet)' })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Harvest', exact: true }).getByLabel('Harvest', { exact: true })).toHaveAttribute('required', '')

  const box = async (label: string) => (await page.getByLabel(label, { exact: true }).boundingBox())!
  // wide: Harvest Date and Plants side by side
  let [name, strain] = [await box('Harvest Date'), await box('Plants')]
  expect(Math.abs(name.y - strain.y)).toBeLessThan(4)
  expect(strain.x).toBeGreaterThan(name.x + name.width)
  await info.attach('harvest form 1366x768', { body: await page.screenshot({ fullPage: true, path: info.outputPath('form-1366.png') }), contentType: 'image/png' })

  // a tablet: one column
  await page.setViewportSize({ width: 800, height: 1280 })
  ;[name, strain] = [await box('Harvest Date'), await box('Plants')]
  expect(strain.y).toBeGreaterThan(name.y + name.height)
  expect(Math.abs(name.x - strain.x)).toBeLessThan(4)
  await info.attach('harvest form 800x1280', { body: await page.screenshot({ fullPage: true, path: info.outputPath('form-800.png') }), contentType: 'image/png' })

  // a refused save: the summary at the top links to the field, which says it too
  await page.getByLabel('Harvest', { exact: true }).fill('')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  const summary = page.getByRole('alert').filter({ hasText: 'Error' })
  await expect(summary.getByRole('link', { name: 'Harvest', exact: true })).toBeVisible()
  await expect(page.getByLabel('Harvest', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  expect((await database.store.get(FAC, 'fac_harvests', harvest._id))!.name).toBe(harvest.name)
})
