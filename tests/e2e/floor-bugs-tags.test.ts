/**
 * Issue 32, item 3: METRC tags are read and searched as text on Plantings and Inventory. The tag
 * column shows the tag itself (its QR code one tap away), and typing a tag into the table's search
 * finds its row — with JavaScript and without.
 */
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'

async function searchFor(page: Page, column: string, text: string) {
  await page.getByLabel('Search column').selectOption({ label: column })
  await page.getByLabel('Search text').fill(text)
  await page.getByRole('button', { name: 'Search', exact: true }).click()
}

for (const { path, table, key, column } of [
  { path: '/CulPlantings', table: 'fac_plantings', key: 'mtag', column: 'Tag Number' },
  { path: '/culInventory', table: 'fac_inventory', key: 'tag', column: 'Package Tag' },
]) {
  test(`${path}: the ${column} shows as text and typing a tag into the search finds its row`, async ({ page, createUser, database }) => {
    const grower = await createUser({ modules: { [FAC]: ['cul'] } })
    await login(page, grower.email, grower.password)
    await page.getByRole('region', { name: 'Signed in' }).waitFor()
    // a record some way down the table, so finding it is the search's doing
    const rows = await database.store.find(FAC, table, {}, 40)
    const target = rows.filter((r) => typeof r[key] === 'string' && String(r[key]).length > 8).at(-1)!
    const tag = String(target[key])
    await page.goto(`${path}?all=1`)
    // the first rows' tags are readable text, not only a picture's alt
    await expect(page.locator('tbody')).toContainText(/1A4[0-9A-Z]{6,}/)
    await searchFor(page, column, tag)
    await expect(page).toHaveURL(new RegExp(`col=${key}`))
    await expect(page.getByText('that column cannot be searched')).toHaveCount(0)
    await expect(page.locator('tbody tr').first()).toContainText(tag)
    await expect(page.locator('tbody tr')).toHaveCount(1)
    // part of a tag finds it too (the last 6 characters, as a grower reads them off a plant label)
    await searchFor(page, column, tag.slice(-6))
    await expect(page.locator('tbody')).toContainText(tag)
    // the QR code is one tap away
    const qr = page.locator('tbody tr').filter({ hasText: tag }).first().locator('summary', { hasText: 'QR' }).first()
    await qr.click()
    await expect(page.getByRole('img', { name: `QR code: ${tag}` }).first()).toBeVisible()
  })
}
