/**
 * Issue 8 item 5, labels: a plant's edit form links to its label (the demo's Flower Room tag
 * printer prints the `tag` field with plant_tag_rfid); the preview (SVG), the PDF and the ZPL are
 * the real thing and carry the plant's tag; a record of another organisation is not found. The
 * harbor plant this file adds is removed when it is done.
 */
import type { APIRequestContext } from '@playwright/test'
import type { Doc } from '../../app/db/types'
import { expect, PASSWORD, signIn, test } from './fixtures'

const actor = { uid: 'e2e-fixture' }
const GROWER = 'grower@greenleaf.demo'
let plant: Doc & { tag: string }
let foreign: Doc | null = null

test.beforeAll(async ({ database }) => {
  const plants = await database.store.find('greenleaf', 'fac_plants', {}, 20)
  plant = plants.find((p) => typeof p.tag === 'string' && p.tag.length > 0) as Doc & { tag: string }
  expect(plant, 'a demo plant with a tag').toBeTruthy()
  // the same table in another facility: greenleaf's users must never reach it
  foreign = await database.store.insert(actor, 'harbor', 'fac_plants', { tag: 'HARBOR-E2E-PLANT', strain: '', room: '', phase: 'Vegetative' })
})

test.afterAll(async ({ database }) => {
  if (foreign) await database.store.remove(actor, 'harbor', 'fac_plants', foreign._id).catch(() => {})
})

async function get(request: APIRequestContext, url: string, headers: Record<string, string> = {}) {
  const r = await request.get(url, { headers })
  return { status: r.status(), type: r.headers()['content-type'] ?? '', disposition: r.headers()['content-disposition'] ?? '', body: await r.body() }
}

test('the edit form links to the label; preview, PDF and ZPL carry the tag', async ({ page }) => {
  await signIn(page, GROWER, PASSWORD)
  await page.goto(`/culPlants/${plant._id}/edit`)
  const preview = page.getByRole('link', { name: 'Label preview' })
  await expect(preview).toHaveAttribute('href', `/labels/fac_plants/${plant._id}?template=plant_tag_rfid&format=svg`)
  await expect(page.getByRole('link', { name: 'Label PDF' })).toHaveAttribute('target', '_blank')

  // the preview opens in a new tab (a plain link: the same without JavaScript) and shows the tag
  const [tab] = await Promise.all([page.waitForEvent('popup'), preview.click()])
  await expect(tab.locator('svg text', { hasText: plant.tag })).toBeVisible()
  await expect(tab.locator('svg path[data-barcode]')).toHaveAttribute('data-barcode', plant.tag)
  await tab.close()

  const svg = await get(page.request, `/labels/fac_plants/${plant._id}?template=plant_tag_rfid&format=svg`)
  expect(svg.status).toBe(200)
  expect(svg.type).toContain('image/svg+xml')
  expect(svg.body.toString()).toMatch(/^<svg [^>]*width="3in" height="1in"/) // the printer's 1" x 3" label
  expect(svg.body.toString()).toContain(`>${plant.tag}</text>`)

  const pdf = await get(page.request, `/labels/fac_plants/${plant._id}?format=pdf`)
  expect(pdf.status).toBe(200)
  expect(pdf.type).toBe('application/pdf')
  expect(pdf.disposition).toMatch(/^inline; filename="fac_plants-.*\.pdf"$/)
  const pdfText = pdf.body.toString('latin1')
  expect(pdfText.startsWith('%PDF-1.4')).toBe(true)
  expect(pdfText).toContain(`(${plant.tag}) Tj`)
  expect(pdfText).toContain('/MediaBox [0 0 216 72]')
  // the cross-reference table points at each object
  const xref = Number(/startxref\n(\d+)\n%%EOF/.exec(pdfText)![1])
  expect(pdfText.slice(xref, xref + 4)).toBe('xref')

  // no format asked: the printer's (a Zebra: ZPL)
  const zpl = await get(page.request, `/labels/fac_plants/${plant._id}`)
  expect(zpl.status).toBe(200)
  expect(zpl.type).toContain('text/plain')
  const z = zpl.body.toString()
  expect(z.startsWith('^XA\n')).toBe(true)
  expect(z.trimEnd().endsWith('^XZ')).toBe(true)
  expect(z).toContain(`^FH^FD${plant.tag}^FS`)
  expect(z).toMatch(/\^BQN,2,\d+\^FH\^FDLA,/)
})

test('another organisation’s record, an unknown id or template, and no sign-in are refused', async ({ page, playwright, baseURL }) => {
  await signIn(page, GROWER, PASSWORD)
  const other = await get(page.request, `/labels/fac_plants/${foreign!._id}?format=pdf`)
  expect(other.status).toBe(404)
  expect(other.body.toString()).not.toContain('HARBOR-E2E-PLANT')
  expect((await get(page.request, `/labels/fac_plants/000000000000000000000000?format=svg`)).status).toBe(404)
  expect((await get(page.request, `/labels/no_such_table/${plant._id}`)).status).toBe(404)
  const bad = await get(page.request, `/labels/fac_plants/${plant._id}?template=nope`)
  expect(bad.status).toBe(400)
  expect(bad.body.toString()).toContain('plant_tag_rfid')
  expect((await get(page.request, `/labels/fac_plants/${plant._id}?format=docx`)).status).toBe(400)

  // an API client: the access token, and the JSON envelope for refusals
  const anon = await playwright.request.newContext({ baseURL })
  try {
    expect((await get(anon, `/labels/fac_plants/${plant._id}?format=zpl`)).status).toBe(401)
    const login = await anon.post('/auth/login', { data: { email: GROWER, password: PASSWORD } })
    const token = (await login.json())['x-access-token'] as string
    const zpl = await get(anon, `/labels/fac_plants/${plant._id}?format=zpl`, { 'x-access-token': token })
    expect(zpl.status).toBe(200)
    expect(zpl.body.toString()).toContain(plant.tag)
    const refused = await get(anon, `/labels/fac_plants/${foreign!._id}?format=zpl`, { 'x-access-token': token })
    expect(refused.status).toBe(404)
    expect(JSON.parse(refused.body.toString()).errors[0].code).toBe('NOT_FOUND')
  } finally {
    await anon.dispose()
  }
})
