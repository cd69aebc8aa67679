/**
 * SPEC §2.5 display formats: every format appears in a seeded schema, and each one renders as
 * it should on a real table screen of the demo facility (opened by super with every column shown).
 */
import type { Page } from '@playwright/test'
import { ROUTES, type RouteEntry } from '../../app/route-map'
import { formatOf, refOf } from '../../app/schemas/table-schema'
import type { FieldDef } from '../../app/schemas/table-schema'
import { expect, login, test } from './fixtures'

const FORMATS = ['id', 'date', 'currency', 'measure', 'tax', 'image', 'pdf', 'check', 'array', 'trim', 'qrcode', 'status'] as const
type Format = (typeof FORMATS)[number]
const kind = (f: FieldDef): string => formatOf(f).split(':')[0]

/** What a cell of each format must show (cells left empty by the data are skipped). */
async function checkCell(cell: ReturnType<Page['locator']>, format: Format, labels: Set<string>): Promise<boolean> {
  const text = (await cell.innerText()).trim()
  switch (format) {
    case 'id':
      if (!text) return false
      expect(labels.has(text), `"${text}" is a label of the referenced table`).toBe(true)
      return true
    case 'date':
      if (!text) return false
      expect(text).toMatch(/^\d{2}\/\d{2}\/\d{4}( \d{2}:\d{2} (AM|PM))?$/)
      return true
    case 'currency':
      if (!text) return false
      expect(text).toMatch(/^-?\$\d{1,3}(,\d{3})*\.\d{2}$/)
      return true
    case 'measure':
      if (!text) return false
      expect(text).toMatch(/^-?[\d,]+(\.\d+)? (g|kg|oz|lb|units|packages|ml|l|fl oz|gal|mg)$/)
      return true
    case 'tax':
      if (!text) return false
      expect(['Pending', 'Due', 'Paid']).toContain(text)
      return true
    case 'image': {
      const img = cell.locator('img')
      if (!(await img.count())) return false
      expect(await img.getAttribute('src')).toMatch(/^(https?:\/\/|\/)/)
      return true
    }
    case 'pdf': {
      const a = cell.getByRole('link', { name: /PDF/ })
      if (!(await a.count())) return false
      expect(await a.getAttribute('href')).toMatch(/^(https?:\/\/|\/)/)
      expect(await a.getAttribute('target')).toBe('_blank')
      return true
    }
    case 'check':
      expect(['Yes', 'No']).toContain(text)
      return true
    case 'array':
      expect(text).toMatch(/^(0|[▸▾] \d+ items?)$/)
      return true
    case 'trim': {
      // shortened to 12 characters on screen; the whole value one tap away (a <details>: touch screens show no tooltip)
      const details = cell.locator('details')
      if (!(await details.count())) return false
      const full = ((await details.locator('p').textContent()) ?? '').trim()
      expect(full.length).toBeGreaterThan(12)
      await expect(details.locator('summary > span').first()).toHaveText(`${[...full].slice(0, 12).join('')}…`)
      await details.locator('summary').click()
      await expect(details.locator('p')).toBeVisible()
      return true
    }
    case 'qrcode': {
      const img = cell.locator('img')
      if (!(await img.count())) return false
      expect(await img.getAttribute('alt')).toMatch(/^QR code: .+/)
      expect(await img.getAttribute('width')).toBe('125')
      expect(await img.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/)
      return true
    }
    case 'status':
      expect(['Active', 'Inactive']).toContain(text)
      expect(await cell.locator('.dot').count()).toBe(1)
      // green when active, red when not (tailwind.css .dot-on / .dot-off)
      await expect(cell.locator('.dot')).toHaveCSS('background-color', text === 'Active' ? 'rgb(34, 197, 94)' : 'rgb(239, 68, 68)')
      return true
  }
}

test('every display format of SPEC §2.5 is in a seeded schema and renders as it should', async ({ page, createUser, database }) => {
  test.setTimeout(180_000)
  const sup = await createUser({ role: 'super' })
  await login(page, sup.email, sup.password)
  await page.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
  await page.getByRole('region', { name: 'Signed in' }).waitFor()

  // where each format is used: the routes whose schema has a column of it
  const uses = new Map<Format, Array<{ route: RouteEntry; field: FieldDef }>>()
  for (const route of ROUTES.filter((r) => r.kind === 'table' && r.collection)) {
    const schema = await database.schemas.get(route.collection!)
    for (const field of schema?.fields ?? []) {
      const k = kind(field) as Format
      if (FORMATS.includes(k)) uses.set(k, [...(uses.get(k) ?? []), { route, field }])
    }
  }
  expect(FORMATS.filter((f) => !uses.has(f)), 'formats no seeded schema uses').toEqual([])

  for (const format of FORMATS) {
    let checked = 0
    for (const { route, field } of uses.get(format)!.slice(0, 6)) {
      const ref = refOf(field.format ?? '')
      const labels = new Set<string>()
      if (ref) for (const d of await database.store.find(ref.collection.startsWith('sup_') ? 'auth' : 'greenleaf', ref.collection, {}, 5000)) labels.add(String(d[ref.labelField] ?? ''))
      const res = await page.goto(`${route.path}?hidden=1&all=1&size=40`)
      expect(res?.status(), route.path).toBe(200)
      const heads = (await page.locator('table').first().locator(':scope > thead th').allInnerTexts()).map((h) => h.trim())
      const col = heads.findIndex((h) => h.startsWith(field.label))
      if (col < 0) continue
      const cells = page.locator('table').first().locator(`:scope > tbody > tr > td:nth-child(${col + 1})`)
      for (let i = 0; i < Math.min(await cells.count(), 40) && checked < 5; i++) if (await checkCell(cells.nth(i), format, labels)) checked++
      if (checked >= 5) break
    }
    expect(checked, `${format}: cells checked`).toBeGreaterThan(0)
  }
})
