/**
 * Issue 24 "done when", with JavaScript on and off: a cart of 3 lines (one a partial package) whose
 * totals match an independent computation; submit, confirm, fulfil by scanning tags, ship; the
 * packages fell by exactly the ordered amounts; the manifest and invoice PDFs (read back with a PDF
 * text extractor) hold the lines and totals; two partial payments take the receivable to 0 and the
 * tax state to Paid; the day's sales report shows the sale, its figures the sums of its rows.
 */
import crypto from 'node:crypto'
import { extractText } from 'unpdf'
import type { Page } from '@playwright/test'
import type { Doc } from '../../db/types'
import { expect, signIn, test } from '../../../tests/e2e/fixtures'

const ORG = 'harbor'
const usd = (c: number) => `$${(c / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
const cents = (s: string) => Math.round(Number(s.replace(/[$,]/g, '')) * 100)

async function search(page: Page, q: string) {
  await page.getByRole('searchbox', { name: /Search packages and products/ }).fill(q)
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await page.waitForURL((u) => u.searchParams.get('q') === q.toLowerCase() || u.searchParams.get('q') === q)
}

async function addLine(page: Page, label: string, qty: string, price: string, discount: string) {
  await page.getByLabel(`Quantity of ${label}`, { exact: true }).fill(qty)
  await page.getByLabel(`Unit price of ${label}`, { exact: true }).fill(price)
  await page.getByLabel(`Discount on ${label}`, { exact: true }).fill(discount)
  const n = await page.getByTestId('cart-line').count()
  await page.getByRole('button', { name: `Add ${label}`, exact: true }).click()
  await expect(page.getByTestId('cart-line')).toHaveCount(n + 1)
}

test('cart → order → fulfil → ship → PDFs → two payments → report', async ({ page, createUser, database }) => {
  const js = test.info().project.name === 'js'
  const tag = crypto.randomBytes(4).toString('hex').toUpperCase()
  const user = await createUser({ org: ORG, modules: { [ORG]: ['dis', 'fin', 'help'] } })
  const products = (await database.store.find(ORG, 'dis_products', { active: 'yes' }, 50)).filter((p) => Number(p.wholesale) > 0)
  const fixture = { uid: 'e2e-fixture' }
  const pa = await database.store.insert(fixture, ORG, 'dis_inventory', { tag: `1A4E2E${tag}A00000001`, product: products[0]._id, qty: { qty: 50, unit: 'units' } })
  const pb = await database.store.insert(fixture, ORG, 'dis_inventory', { tag: `1A4E2E${tag}B00000001`, product: products[1]._id, qty: { qty: 6, unit: 'units' } })
  const product = products[2]
  const pc = await database.store.insert(fixture, ORG, 'dis_inventory', { tag: `1A4E2E${tag}C00000001`, product: product._id, qty: { qty: 20, unit: 'units' } })
  const clients = (await database.store.find(ORG, 'set_clients', {}, 50)).filter((c) => c.IsUsed !== 'no' && c.license && new Date(String(c.license_exp)).getTime() > Date.now() && c.client_type !== 'Testing Lab')
  const client = clients[js ? 0 : 1]

  await signIn(page, user.email, user.password)
  await page.goto('/DisCart')
  await page.getByRole('combobox', { name: 'Client' }).selectOption(client._id)
  await page.getByRole('button', { name: 'Use this client' }).click()
  await expect(page.getByTestId('cart-client')).toContainText(String(client.name))

  await search(page, String(pa.tag))
  await addLine(page, String(pa.tag), '7.5', '10.99', '5') // a partial package
  await search(page, String(pb.tag))
  await addLine(page, String(pb.tag), '6', '3.33', '0') // the whole package
  await search(page, String(product.name))
  await addLine(page, String(product.name), '3', '19.95', '12.5') // from the price list

  // independent computation: plain arithmetic in cents, half up once per line and per tax
  const l1 = Math.round(7.5 * 1099 * 0.95)
  const l2 = 6 * 333
  const l3 = Math.round(3 * 1995 * 0.875)
  const sub = l1 + l2 + l3
  const rates = (await database.store.find(ORG, 'set_tax', {}, 100)).filter(
    (t) => t.IsUsed !== 'no' && Number(t.rate) > 0 && ['Gross receipts', 'Wholesale price', 'Average market rate'].includes(String(t.basis)) &&
      (t.jurisdiction === client.state || t.jurisdiction === `${String(client.city)}, ${String(client.state)}`) && !(t.tax_type === 'Sales' && client.tax_exempt === 'yes'),
  )
  const tax = rates.reduce((s, t) => s + Math.round((sub * Number(t.rate)) / 100), 0)
  expect(await page.getByTestId('line-total').allTextContents()).toEqual([usd(l1), usd(l2), usd(l3)])
  await expect(page.getByTestId('subtotal')).toHaveText(usd(sub))
  await expect(page.getByTestId('tax')).toHaveCount(rates.length)
  await expect(page.getByTestId('total')).toHaveText(usd(sub + tax))

  // the cart is kept: leave and come back
  await page.goto('/DisSales')
  await page.goto('/DisCart')
  await expect(page.getByTestId('cart-line')).toHaveCount(3)

  await page.getByRole('button', { name: 'Submit order' }).click()
  await expect(page.getByTestId('order-status')).toHaveText('Draft')
  await expect(page.getByTestId('total')).toHaveText(usd(sub + tax))
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed')
  await page.getByLabel(/Scan or type the package tags/).fill(`${String(pa.tag)}\n${String(pb.tag)}\n${String(pc.tag)}`)
  await page.getByRole('button', { name: 'Fulfil' }).click()
  await expect(page.getByTestId('order-status')).toHaveText('Picking')
  const qty = async (d: Doc) => Number(((await database.store.get(ORG, 'dis_inventory', d._id))!.qty as { qty: number }).qty)
  expect([await qty(pa), await qty(pb), await qty(pc)]).toEqual([42.5, 0, 17])
  await page.getByRole('button', { name: 'Ship' }).click()
  await expect(page.getByTestId('order-status')).toHaveText('Shipped')

  // the papers, read back
  const pdfText = async (name: RegExp) => {
    const href = await page.getByRole('link', { name }).getAttribute('href')
    const res = await page.request.get(href!)
    expect(res.status()).toBe(200)
    expect(res.headers()['content-type']).toContain('application/pdf')
    return (await extractText(new Uint8Array(await res.body()), { mergePages: true })).text.replace(/\s+/g, " ")
  }
  const invoice = await pdfText(/^Invoice INV-/)
  for (const s of [usd(l1), usd(l2), usd(l3), usd(sub), usd(sub + tax), String(pa.tag), String(product.name), String(client.name)]) expect(invoice).toContain(s)
  const manifest = await pdfText(/^Transfer manifest/)
  for (const s of [String(pa.tag), String(pb.tag), String(pc.tag), '7.5 units', usd(sub + tax), String(client.license)]) expect(manifest).toContain(s)

  // two partial payments
  const total = sub + tax
  const first = Math.floor(total / 2)
  const order = (await database.db.query<{ id: string; invoice: string }>(`SELECT id, doc->>'invoice' AS invoice FROM c_dis_orders WHERE org = $1 AND doc->>'rep' = $2`, [ORG, user.uid])).rows[0]
  await page.getByRole('link', { name: 'Record a payment' }).click()
  await expect(page.getByRole('combobox', { name: 'Invoice' })).toHaveValue(order.invoice)
  await page.getByLabel('Amount $').fill(((total + 100) / 100).toFixed(2))
  await page.getByRole('button', { name: 'Record payment' }).click()
  await expect(page.getByRole('alert')).toContainText('more than is owed')
  await page.getByRole('combobox', { name: 'Invoice' }).selectOption(order.invoice)
  await page.getByLabel('Amount $').fill((first / 100).toFixed(2))
  await page.getByRole('radio', { name: 'Check' }).check()
  await page.getByLabel(/Reference/).fill('1042')
  await page.getByRole('button', { name: 'Record payment' }).click()
  await expect(page.getByText(/Payment PAY-\d{4}-\d{5} recorded/)).toBeVisible()
  await page.getByRole('combobox', { name: 'Invoice' }).selectOption(order.invoice)
  await page.getByLabel('Amount $').fill(((total - first) / 100).toFixed(2))
  await page.getByRole('radio', { name: 'Cash' }).check()
  await page.getByRole('button', { name: 'Record payment' }).click()
  await expect(page.getByText(/Payment PAY-\d{4}-\d{5} recorded/)).toBeVisible()

  await page.goto(`/DisSales/${order.id}`)
  await expect(page.getByTestId('invoice-summary')).toContainText('balance $0.00')
  await expect(page.getByTestId('invoice-summary')).toContainText('tax state Paid')

  // the day's report shows the sale; its total is the sum of its rows
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Denver', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
  await page.goto(`/DisReports?from=${day}&to=${day}&by=client`)
  const row = page.getByTestId('report-row').filter({ hasText: String(client.name) })
  await expect(row).toHaveCount(1)
  const rows = await page.getByTestId('report-row').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
  const sumOfRows = rows.reduce((s, r) => s + cents(r[2]), 0)
  const totalCells = await page.getByTestId('report-total').locator('td').allTextContents()
  expect(cents(totalCells[2])).toBe(sumOfRows)
  const clientSales = cents((await row.locator('td').allTextContents())[2])
  expect(clientSales).toBeGreaterThanOrEqual(sub)
  const csv = await page.request.get(`/DisReports.csv?from=${day}&to=${day}&by=client`)
  expect(csv.status()).toBe(200)
  const csvText = await csv.text()
  expect(csvText).toContain(String(client.name))
  expect(csvText).toContain(`Total,${rows.reduce((s, r) => s + Number(r[1]), 0)},${(sumOfRows / 100).toFixed(2)}`)
})
