/**
 * Issue 32 item 7: idle logout never throws away typed work. Typing counts as activity; a minute
 * before the end a warning offers "Stay signed in"; at the end what was typed is kept in the tab
 * and put back once after the same person signs in again (never for someone else); without
 * JavaScript, signing in again brings the person back to the page they were on.
 * The browser's clock is driven by Playwright (`page.clock`); the server's idle clock by moving the
 * session's `last_seen` back, as tests/e2e/sign-in.test.ts does.
 */
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'
import type { Database } from '../../app/db/index.server'

const jsOnly = () => test.skip(test.info().project.name !== 'js', 'the warning, the activity pings and the kept drafts are the page\'s script')
const NEW_PLANTING = '/CulPlantings/new'

async function signedInOn(page: Page, email: string, password: string, path: string) {
  await login(page, email, password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto(path)
  await page.waitForLoadState('load')
  // with JavaScript: hydrated, the idle watch is running
  if (test.info().project.name === 'js') await page.waitForFunction(() => document.documentElement.dataset.idleWatch === 'on')
}

const makeIdle = (database: Database, uid: string) => database.db.query(`UPDATE auth_sessions SET last_seen = now() - interval '2 hours' WHERE uid = $1 AND ended_at IS NULL`, [uid])

test('a minute before the idle logout a warning counts down; "Stay signed in" keeps the session', async ({ page, createUser, database }) => {
  jsOnly()
  const u = await createUser()
  await page.clock.install()
  await signedInOn(page, u.email, u.password, NEW_PLANTING)
  const warning = page.getByRole('alertdialog', { name: 'Still there?' })
  await expect(warning).toHaveCount(0)
  // 40 s before the hour is up, on the server (it is asked before the warning shows) and in the browser
  await database.db.query(`UPDATE auth_sessions SET last_seen = now() - interval '3560 seconds' WHERE uid = $1 AND ended_at IS NULL`, [u.uid])
  await page.clock.fastForward('59:20')
  await expect(warning).toBeVisible()
  await expect(warning).toContainText('signed out in')
  const stay = warning.getByRole('button', { name: 'Stay signed in' })
  await expect(stay).toBeFocused()
  const ping = page.waitForResponse((r) => r.url().endsWith('/session-keepalive') && r.request().method() === 'POST')
  await stay.click()
  expect((await ping).status()).toBe(200)
  await expect(warning).toHaveCount(0)
  // the server counted it: the session's last_seen moved to now
  const { rows } = await database.db.query<{ age: number }>(`SELECT extract(epoch FROM now() - last_seen)::float AS age FROM auth_sessions WHERE uid = $1 AND ended_at IS NULL`, [u.uid])
  expect(rows[0].age).toBeLessThan(30)
})

test('typing counts as activity: the page tells the server, so no warning comes while someone types', async ({ page, createUser }) => {
  jsOnly()
  const u = await createUser()
  await page.clock.install()
  await signedInOn(page, u.email, u.password, NEW_PLANTING)
  await page.clock.fastForward('40:00')
  const ping = page.waitForRequest((r) => r.url().endsWith('/session-keepalive') && r.method() === 'POST')
  await page.getByLabel('Batch', { exact: true }).pressSequentially('B-1')
  await ping
  // 40 + 40 minutes after the page loaded, but only 40 after the typing: no warning, still signed in
  await page.clock.fastForward('40:00')
  await expect(page.getByRole('alertdialog', { name: 'Still there?' })).toHaveCount(0)
  await expect(page).toHaveURL(new RegExp(`${NEW_PLANTING}$`))
})

test('signed out for idleness, what was typed comes back once after signing in again', async ({ page, createUser, database }) => {
  jsOnly()
  const u = await createUser()
  await page.clock.install()
  await signedInOn(page, u.email, u.password, NEW_PLANTING)
  const batch = `Idle draft ${Date.now()}`
  await page.getByLabel('Batch', { exact: true }).fill(batch)
  await page.getByLabel('Type', { exact: true }).selectOption('Clone')
  await makeIdle(database, u.uid)
  await page.clock.fastForward('01:01:00')
  await expect(page).toHaveURL(/\/Welcome\?msg=idle&redirectTo=%2FCulPlantings%2Fnew$/)
  await expect(page.getByText('You have been logged out due to extended inactivity. Please login again.')).toBeVisible()
  // nothing was saved: the sign-in ended before any post
  expect((await database.store.find('greenleaf', 'fac_plantings', { name: batch }, 5)).length).toBe(0)
  await page.getByLabel('Email').fill(u.email)
  await page.getByLabel('Password', { exact: true }).fill(u.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(new RegExp(`${NEW_PLANTING}$`))
  await expect(page.getByLabel('Batch', { exact: true })).toHaveValue(batch)
  await expect(page.getByLabel('Type', { exact: true })).toHaveValue('Clone')
  await expect(page.getByText('What you typed before you were signed out is back. Check it and save.')).toBeVisible()
  // once: a new visit shows the empty form
  await page.reload()
  await expect(page.getByLabel('Batch', { exact: true })).toHaveValue('')
})

test('someone else signing in on the tablet never sees what the last person typed', async ({ page, createUser, database }) => {
  jsOnly()
  const first = await createUser()
  const second = await createUser()
  await page.clock.install()
  await signedInOn(page, first.email, first.password, NEW_PLANTING)
  const batch = `Not yours ${Date.now()}`
  await page.getByLabel('Batch', { exact: true }).fill(batch)
  await makeIdle(database, first.uid)
  await page.clock.fastForward('01:01:00')
  await expect(page).toHaveURL(/\/Welcome\?msg=idle/)
  expect(await page.evaluate(() => sessionStorage.getItem('canopy:drafts'))).toContain(batch)
  await page.getByLabel('Email').fill(second.email)
  await page.getByLabel('Password', { exact: true }).fill(second.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(new RegExp(`${NEW_PLANTING}$`))
  await expect(page.getByLabel('Batch', { exact: true })).toHaveValue('')
  expect(await page.evaluate(() => sessionStorage.getItem('canopy:drafts'))).toBeNull()
})

test('signed out for idleness, signing in again leads back to the page (with or without JavaScript)', async ({ page, createUser, database }) => {
  const u = await createUser()
  await signedInOn(page, u.email, u.password, '/CulPlantings?sort=name')
  await page.goto('about:blank')
  await makeIdle(database, u.uid)
  await page.goto('/CulPlantings?sort=name')
  await expect(page).toHaveURL(/\/Welcome\?msg=idle&redirectTo=/)
  await page.getByLabel('Email').fill(u.email)
  await page.getByLabel('Password', { exact: true }).fill(u.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/CulPlantings\?sort=name$/)
  await expect(page.getByRole('heading', { name: 'Plantings' })).toBeVisible()
})
