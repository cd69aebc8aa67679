/**
 * Issue 32, item 9: no page of the demo asks for a file that answers 4xx. Super walks every screen of
 * the route map in Greenleaf with hidden columns shown; every response the page caused, and every
 * image, object and stylesheet it names (lazy images included, fetched directly), must answer below 400.
 */
import { ROUTES } from '../../app/route-map'
import { expect, login, test } from './fixtures'

test('every screen of the demo: no file request answers 4xx (logo, product images, face photos)', async ({ page, createUser }) => {
  test.setTimeout(400_000)
  const boss = await createUser({ role: 'super', modules: { greenleaf: null, harbor: null } })
  const bad = new Map<string, number>()
  page.on('response', (r) => {
    const u = new URL(r.url())
    if (r.status() >= 400 && u.origin === new URL(page.url() || 'http://x').origin) bad.set(u.pathname + u.search, r.status())
  })
  await login(page, boss.email, boss.password)
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  const files = new Set<string>()
  let pages = 0
  for (const r of ROUTES.filter((x) => !x.path.includes(':'))) {
    const res = await page.goto(`${r.path}${r.kind === 'table' ? '?hidden=1&all=1' : ''}`)
    if (!res || res.status() >= 400) continue
    pages++
    const named = await page.evaluate(() =>
      [...document.querySelectorAll('img[src], object[data], link[rel="stylesheet"][href], link[rel="icon"][href]')]
        .map((e) => e.getAttribute('src') ?? e.getAttribute('data') ?? e.getAttribute('href') ?? '')
        .filter((s) => s.startsWith('/')),
    )
    for (const f of named) files.add(f)
  }
  expect(pages).toBeGreaterThan(40)
  expect(files.size).toBeGreaterThan(3)
  for (const f of files) {
    const r = await page.request.get(f)
    if (r.status() >= 400) bad.set(f, r.status())
  }
  expect([...bad]).toEqual([])
})
