/**
 * Issue 20 in Chromium, JavaScript on and off: no Canopy link sends the browser to another site
 * (item 2: every way a browser turns a path into `//host`), cross-site address sign-in asks first
 * (item 7), and the security headers hold in a real browser (item 9: a signed-in page cannot be framed).
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { E2E } from './env'
import { expect, login, signIn, test } from './fixtures'

const OURS = new URL(E2E.baseURL).host

/** Every request the page makes to another host is recorded and stopped there. */
async function fence(page: Page): Promise<string[]> {
  const away: string[] = []
  await page.route(
    (url) => url.host !== OURS,
    (route) => {
      away.push(route.request().url())
      return route.abort()
    },
  )
  return away
}

// what a browser reads as `//evil.example` or `\\evil.example` (another site), and a few that only look like it
const PAYLOADS = [
  '//evil.example/x',
  '///evil.example/x',
  '/\\evil.example/x',
  '\\/evil.example/x',
  '\\\\evil.example/x',
  '/\t/evil.example/x',
  '/\r/evil.example/x',
  '/\n/evil.example/x',
  '/\r\n/evil.example/x',
  '\t//evil.example/x',
  '/\t\\evil.example/x',
  '/\\\t/evil.example/x',
  ' //evil.example/x',
  '/\u0000/evil.example/x',
  'https://evil.example/x',
  'http:evil.example',
  'javascript:alert(1)',
  '/%09/evil.example/x',
  '/%2F/evil.example/x',
  '/%5C/evil.example/x',
]

test('a deep link never leaves the site, whatever the path hides (item 2)', async ({ page }) => {
  const away = await fence(page)
  for (const p of PAYLOADS) {
    const r = await page.goto(`/?type=deepLink&scope=web&path=${encodeURIComponent(p)}`)
    expect(r?.status(), JSON.stringify(p)).toBeLessThan(500)
    expect(new URL(page.url()).host, JSON.stringify(p)).toBe(OURS)
  }
  // the request path itself: `//host` as a path comes back as a path of this site
  for (const p of ['//evil.example/x?jsonData={}', '//evil.example/x?type=deepLink', '/%2F/evil.example?jsonData={}']) {
    const r = await page.goto(`${E2E.baseURL}${p}`)
    expect(r?.status(), p).toBeLessThan(500)
    expect(new URL(page.url()).host, p).toBe(OURS)
  }
  expect(away).toEqual([])
})

test('signing in with a redirectTo never leaves the site (item 2)', async ({ page, createUser }) => {
  test.setTimeout(180_000)
  const u = await createUser()
  const away = await fence(page)
  // (a NUL in the address is refused before the page: the deep-link test above covers it)
  for (const p of PAYLOADS.filter((x) => !x.includes('\u0000'))) {
    await page.context().clearCookies()
    await login(page, u.email, u.password, `/Welcome?redirectTo=${encodeURIComponent(p)}`)
    // signed in and sent on: to the start page, or to a page of this site (a 404 for a path that only looked odd)
    await page.waitForURL((url) => !url.searchParams.has('redirectTo'), { timeout: 10_000 }).catch(() => undefined)
    expect(new URL(page.url()).host, JSON.stringify(p)).toBe(OURS)
    await expect(page.getByRole('group').filter({ hasText: 'User menu' }).or(page.locator('summary[aria-label^="User menu"]')).first(), JSON.stringify(p)).toBeVisible()
  }
  expect(away).toEqual([])
  // an ordinary path still works
  await page.context().clearCookies()
  await login(page, u.email, u.password, `/Welcome?redirectTo=${encodeURIComponent('/Welcome?kiosk=1')}`)
  await expect(page).toHaveURL(/\/Welcome\?kiosk=1$/)
})

/**
 * Another site (item 7): a real second origin. Canopy runs on 127.0.0.1; Chromium resolves
 * `localhost` to the loopback itself, and a page of http://localhost:<port> is another site
 * (its links arrive with Sec-Fetch-Site: cross-site). Every page it serves links to `?to=`.
 */
async function otherSite(): Promise<{ page(to: string): string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://localhost').searchParams.get('to') ?? ''
    const href = to.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(`<!doctype html><title>Another site</title><a href="${href}">Open Canopy</a>`)
  })
  server.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  const { port } = server.address() as AddressInfo
  return {
    page: (to: string) => `http://localhost:${port}/?${new URLSearchParams({ to })}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/** The name the start page says is signed in (createUser names every account "Test <uid>"). */
async function signedInAs(page: Page): Promise<string> {
  await page.goto('/Welcome')
  const region = page.getByRole('region', { name: 'Signed in' })
  return (await region.count()) ? ((await region.textContent()) ?? '') : ''
}

test('a sign-in link from another site asks first; Stay keeps the session, Continue signs in; typed, it signs in at once (item 7)', async ({ page, createUser }) => {
  test.setTimeout(120_000)
  const evil = await otherSite()
  try {
    const victim = await createUser()
    const password = `Other#${crypto.randomBytes(4).toString('hex')}A1`
    const other = await createUser({ password })
    const link = `${E2E.baseURL}/culPlants?${new URLSearchParams({ email: other.email, password })}`
    await signIn(page, victim.email, victim.password)

    // the link, from the other site: the question, not a new session
    await page.goto(evil.page(link))
    await page.getByRole('link', { name: 'Open Canopy' }).click()
    await expect(page).toHaveURL(/\/LinkSignIn$/)
    await expect(page.getByRole('heading', { name: 'Sign in from a link?' })).toBeVisible()
    await expect(page.getByText(`signs you in to Canopy as ${other.email}`)).toBeVisible()
    await expect(page.getByText(`You are signed in now as ${victim.email}.`)).toBeVisible()
    expect(await page.content()).not.toContain(password)
    expect(await page.content()).not.toContain(encodeURIComponent(password))
    expect(page.url()).not.toContain(encodeURIComponent(password))
    // Stay: the link's page, without its credentials, still as the victim
    await page.getByRole('link', { name: `Stay signed in as ${victim.email}` }).click()
    await expect(page).toHaveURL(/\/culPlants$/)
    expect(await signedInAs(page)).toContain(victim.uid)

    // Continue: signed in as the link says, on the link's page
    await page.goto(evil.page(link))
    await page.getByRole('link', { name: 'Open Canopy' }).click()
    await expect(page).toHaveURL(/\/LinkSignIn$/)
    await page.getByRole('button', { name: `Continue as ${other.email}` }).click()
    await expect(page).toHaveURL(/\/culPlants$/)
    expect(await signedInAs(page)).toContain(other.uid)

    // typed in the address bar (Sec-Fetch-Site: none): signs in at once, as before
    await page.goto(`/culPlants?${new URLSearchParams({ email: victim.email, password: victim.password })}`)
    await expect(page).toHaveURL(/\/culPlants$/)
    expect(await signedInAs(page)).toContain(victim.uid)
  } finally {
    await evil.close()
  }
})

test('a token link from another site asks a visitor who is not signed in; Do not sign in stays out (item 7)', async ({ page, createUser, request }) => {
  const evil = await otherSite()
  try {
    const u = await createUser()
    const r = await request.post('/auth/login', { data: { email: u.email, password: u.password } })
    const token = (await r.json())['x-access-token'] as string
    const link = `${E2E.baseURL}/Welcome?token=${token}`
    await page.goto(evil.page(link))
    await page.getByRole('link', { name: 'Open Canopy' }).click()
    await expect(page).toHaveURL(/\/LinkSignIn$/)
    await expect(page.getByText(`signs you in to Canopy as ${u.email}`)).toBeVisible()
    await expect(page.getByText('You are not signed in now.')).toBeVisible()
    expect(await page.content()).not.toContain(token)
    await page.getByRole('link', { name: 'Do not sign in' }).click()
    await expect(page).toHaveURL(/\/Welcome$/)
    await expect(page.getByLabel('Email')).toBeVisible()
    expect(await signedInAs(page)).toBe('')

    await page.goto(evil.page(link))
    await page.getByRole('link', { name: 'Open Canopy' }).click()
    await page.getByRole('button', { name: `Continue as ${u.email}` }).click()
    await expect(page).toHaveURL(/\/Welcome$/)
    await expect(page.getByRole('region', { name: 'Signed in' })).toContainText(u.uid)
  } finally {
    await evil.close()
  }
})
