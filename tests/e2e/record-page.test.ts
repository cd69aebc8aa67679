/**
 * Issue 33 item 4: a record's own page, /{screen}/{id}. A seeded harvest shows its fields read-only in
 * the form's sections, the actions it offers, its last changes, and the records of other tables that
 * name it (its plants), each a link to that record's page; the breadcrumbs of its edit page lead back
 * to it. Links only: the same with JavaScript on and off.
 */
import { expect, signIn, test } from './fixtures'

const FAC = 'greenleaf'

test('a harvest has a page of its own: its sections, its actions, and the plants that name it', async ({ page, createUser, database }, info) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const plants = await database.store.find(FAC, 'fac_plants', {}, 5000)
  const byHarvest = new Map<string, number>()
  for (const p of plants) if (p.harvest) byHarvest.set(String(p.harvest), (byHarvest.get(String(p.harvest)) ?? 0) + 1)
  const [harvestId, count] = [...byHarvest].sort((a, b) => b[1] - a[1])[0]
  const harvest = (await database.store.get(FAC, 'fac_harvests', harvestId))!
  const total = await database.store.count(FAC, 'fac_plants', { harvest: harvestId })

  await page.setViewportSize({ width: 1366, height: 768 })
  await signIn(page, grower.email, grower.password)
  // every row of the table links to its page
  await page.goto(`/CulHarvest?q=${encodeURIComponent(String(harvest.name))}&col=name`)
  await page.getByRole('row').filter({ hasText: String(harvest.name) }).first().getByRole('link', { name: 'Record page' }).click()
  await expect(page).toHaveURL(new RegExp(`/CulHarvest/${encodeURIComponent(harvestId)}$`))
  await expect(page.getByRole('heading', { level: 1, name: String(harvest.name) })).toBeVisible()
  // the fields read-only, in the form's sections
  const weights = page.getByRole('region', { name: 'Weights', exact: true })
  await expect(weights.locator('dt')).toHaveText(['Wet Weight', 'Dry Weight', 'Waste Weight', 'Dry Yield (% of wet)'])
  await expect(page.getByRole('region', { name: 'Harvest', exact: true }).locator('dt').first()).toHaveText('Harvest')
  await expect(page.locator('input, select, textarea').and(page.locator('main *'))).toHaveCount(0)

  // what it offers
  const actions = page.getByRole('navigation', { name: 'Record actions' })
  await expect(actions.getByRole('link', { name: 'Edit', exact: true })).toHaveAttribute('href', `/CulHarvest/${encodeURIComponent(harvestId)}/edit`)
  await expect(actions.getByRole('link', { name: 'Trace', exact: true })).toBeVisible()
  await expect(actions.getByRole('link', { name: 'History', exact: true })).toBeVisible()
  await expect(actions.getByRole('link', { name: 'Record dry weight / waste', exact: true })).toBeVisible()

  // the records that name it: its plants, the first few linked, all of them behind "All n"
  const related = page.getByRole('region', { name: 'Related records' })
  const item = related.getByRole('listitem').filter({ hasText: 'Plants' }).first()
  await expect(item).toContainText('(Harvest)')
  await expect(item.getByRole('link', { name: `All ${total}` })).toHaveAttribute('href', `/culPlants?eq=${encodeURIComponent(`harvest:${harvestId}`)}&all=1`)
  expect(total).toBe(count)
  await expect(item.getByRole('list').getByRole('link')).toHaveCount(Math.min(5, total))
  // its last changes (other tests change the seeded harvests too: whatever they are, the newest first, with who)
  const changes = page.getByRole('region', { name: 'Last changes' })
  await expect(changes.getByRole('listitem').first()).toContainText(/^(Created|Changed) · /)
  expect(await changes.getByRole('listitem').count()).toBeLessThanOrEqual(5)
  // a row action offered here opens with this record selected
  await actions.getByRole('link', { name: 'Record dry weight / waste', exact: true }).click()
  await expect(page).toHaveURL(/\/CulHarvest\/act\/dry\?sel=/)
  await expect(page.getByText(String(harvest.name)).first()).toBeVisible()
  await page.goBack()
  await info.attach('harvest record page 1366x768', { body: await page.screenshot({ fullPage: true, path: info.outputPath('record-1366.png') }), contentType: 'image/png' })

  // a plant's own page, and from the harvest's edit page back to the harvest's through the breadcrumbs
  await item.getByRole('list').getByRole('link').first().click()
  await expect(page).toHaveURL(/\/culPlants\/[^/]+$/)
  await expect(page.getByRole('region', { name: 'Related records' })).toBeVisible()
  await page.goto(`/CulHarvest/${encodeURIComponent(harvestId)}/edit`)
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: String(harvest.name) }).click()
  await expect(page).toHaveURL(new RegExp(`/CulHarvest/${encodeURIComponent(harvestId)}$`))
  await page.setViewportSize({ width: 800, height: 1280 })
  await info.attach('harvest record page 800x1280', { body: await page.screenshot({ fullPage: true, path: info.outputPath('record-800.png') }), contentType: 'image/png' })
})

test('a record of another facility, or one that does not exist, is not found', async ({ page, createUser, database }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  const [other] = await database.store.find('harbor', 'fac_harvests', {}, 1)
  await signIn(page, grower.email, grower.password)
  for (const id of [other?._id ?? 'x', 'no-such-record']) {
    const res = await page.goto(`/CulHarvest/${encodeURIComponent(id)}`)
    expect(res?.status(), id).toBe(404)
  }
})
