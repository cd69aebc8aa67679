/**
 * Issue 32, item 4: a shared table link keeps its way for someone with several facilities. Signed
 * out, it leads through login and the facility choice to the link itself (not /Welcome); a link that
 * names its facility signs in there; signed in at another facility, it shows the named facility's
 * table; the table's own links name their facility. JavaScript on and off.
 */
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'

const both = { greenleaf: ['cul', 'dis'], harbor: ['cul', 'dis'] }
const footer = (page: Page) => page.getByRole('contentinfo')

test('signed out: login and the facility choice lead on to the shared link', async ({ page, createUser }) => {
  const u = await createUser({ modules: both })
  await login(page, u.email, u.password, '/culPlants?col=tag&q=1A4&all=1')
  await expect(page).toHaveURL(/\/Facility\?redirectTo=/)
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  await expect(page).toHaveURL(/\/culPlants\?col=tag&q=1A4&all=1$/)
  await expect(page.getByRole('heading', { name: 'Plants', level: 1 })).toBeVisible()
})

test('signed out: a link that names its facility signs in there, no choice to make', async ({ page, createUser }) => {
  const u = await createUser({ modules: both })
  await login(page, u.email, u.password, '/culPlants?facility=greenleaf&all=1')
  await expect(page).toHaveURL(/\/culPlants\?facility=greenleaf&all=1$/)
  await expect(footer(page)).toContainText('Greenleaf Cultivation, Salinas')
})

test('signed in at Harbor: a Greenleaf link shows Greenleaf’s table; the table’s links name their facility', async ({ page, createUser }) => {
  const u = await createUser({ modules: both })
  await login(page, u.email, u.password)
  await page.getByRole('button', { name: 'Harbor Distribution, Denver' }).click()
  await expect(footer(page)).toContainText('Harbor Distribution, Denver')
  await page.goto('/culPlants?facility=greenleaf&all=1')
  await expect(page.getByRole('heading', { name: 'Plants', level: 1 })).toBeVisible()
  await expect(footer(page)).toContainText('Greenleaf Cultivation, Salinas')
  // a plain table address (from the menu) gets links that carry its facility
  await page.goto('/culPlants')
  const sort = page.locator('thead a').first()
  expect(await sort.getAttribute('href')).toContain('facility=greenleaf')
})

test('a link for a facility the account does not have says so', async ({ page, createUser }) => {
  const u = await createUser({ modules: { greenleaf: ['cul'] } })
  await login(page, u.email, u.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  const r = await page.goto('/culPlants?facility=harbor')
  expect(r?.status()).toBe(403)
  await expect(page.getByText('This link is for a facility your account cannot open').first()).toBeVisible()
})

test('a refused login keeps the email that was typed (item 11)', async ({ page, createUser }) => {
  const u = await createUser()
  await login(page, u.email, 'Wrong#Password1')
  await expect(page.getByRole('alert').or(page.locator('#login-message')).first()).toBeVisible()
  await expect(page.getByLabel('Email')).toHaveValue(u.email)
})
