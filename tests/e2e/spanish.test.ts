/**
 * Issue 32, item 12: a Spanish user sees the table's column headers, the edit form's field labels
 * and list values in Spanish (from the phrase map), while the stored value stays the canonical
 * English one — with JavaScript and without.
 */
import type { Page } from '@playwright/test'
import crypto from 'node:crypto'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'

async function inSpanish(page: Page) {
  await page.locator('summary[aria-label^="User menu"]').click()
  await page.getByRole('button', { name: 'Español' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'es')
}

test('Plantings in Spanish: headers, labels and list values translated, the stored value canonical', async ({ page, createUser, database }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  // a planting of our own, cloned from a demo one (it passes the plantings save rules), from seed and vegetative
  const [demo] = (await database.store.find(FAC, 'fac_plantings', {}, 50)).filter((r) => r.strain && r.room && r.mtag && r.origin && Number(r.orig) >= 1)
  const name = `ES-${crypto.randomBytes(4).toString('hex')}`
  const { _id, ts: _ts, cts: _cts, ...fields } = demo
  void _id
  const mine = await database.store.insert({ uid: 'e2e-fixture' }, FAC, 'fac_plantings', { ...fields, name, type: 'Seed', phase: 'Vegetative', IsUsed: 'yes' })

  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await inSpanish(page)

  await page.goto(`/CulPlantings?col=name&q=${name}&all=1`)
  // column headers
  await expect(page.getByRole('columnheader', { name: /^Lote/ })).toBeVisible()
  await expect(page.getByRole('columnheader', { name: /^Fase de crecimiento/ })).toBeVisible()
  await expect(page.getByRole('columnheader', { name: /^Growth Phase/ })).toHaveCount(0)
  // the search's column list speaks Spanish too
  await expect(page.getByLabel('Columna de búsqueda').locator('option', { hasText: 'Lote' })).toHaveCount(1)
  // list values in the cells
  const row = page.locator('tbody tr').filter({ hasText: name })
  await expect(row).toHaveCount(1)
  await expect(row.getByRole('cell', { name: 'Vegetativo', exact: true })).toBeVisible()
  await expect(row.getByRole('cell', { name: 'Semilla', exact: true })).toBeVisible()

  // the edit form: Spanish labels, Spanish options, canonical values
  await page.goto(`/CulPlantings/${encodeURIComponent(mine._id)}/edit`)
  await expect(page.getByLabel('Lote', { exact: true })).toHaveValue(name)
  await expect(page.getByLabel('Cantidad original', { exact: true })).toBeVisible()
  const phase = page.getByLabel('Fase de crecimiento', { exact: true })
  await expect(phase).toHaveValue('Vegetative')
  await expect(phase.locator('option:checked')).toHaveText('Vegetativo')
  const type = page.getByLabel('Tipo', { exact: true })
  await expect(type.locator('option:checked')).toHaveText('Semilla')
  await type.selectOption({ label: 'Esqueje' })
  await expect(type).toHaveValue('Clone')
  await page.getByRole('button', { name: 'Guardar' }).click()
  await expect(page).toHaveURL(/\/CulPlantings(\?|$)/)
  // stored as the canonical value, shown in Spanish
  await expect.poll(async () => (await database.store.get(FAC, 'fac_plantings', mine._id))?.type).toBe('Clone')
  await page.goto(`/CulPlantings?col=name&q=${name}&all=1`)
  await expect(page.locator('tbody tr').filter({ hasText: name }).getByRole('cell', { name: 'Esqueje', exact: true })).toBeVisible()
})

test('an English user still sees the English words', async ({ page, createUser }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/CulPlantings?all=1')
  await expect(page.getByRole('columnheader', { name: /^Growth Phase/ })).toBeVisible()
  await expect(page.getByRole('columnheader', { name: /^Batch/ })).toBeVisible()
})
