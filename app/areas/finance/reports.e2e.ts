/**
 * Issue 24 item 4, the PDF downloads, with JavaScript on and off: on /DisReports, /FinReports and
 * /TaxReceivables a click on the PDF link beside the CSV link downloads a PDF named after the view,
 * and the PDF (read back with a PDF text extractor) holds the Total the page shows.
 */
import fs from 'node:fs'
import { extractText } from 'unpdf'
import type { Page } from '@playwright/test'
import { expect, signIn, test } from '../../../tests/e2e/fixtures'

const ORG = 'harbor'
const FROM = '2020-01-01'

async function download(page: Page, name: string | RegExp): Promise<{ file: string; text: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name, exact: typeof name === 'string' }).click()])
  const bytes = fs.readFileSync((await d.path())!)
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
  return { file: d.suggestedFilename(), text: (await extractText(new Uint8Array(bytes), { mergePages: true })).text.replace(/\s+/g, ' ') }
}

test('each report downloads as a PDF holding the figures of the page', async ({ page, createUser }) => {
  const user = await createUser({ org: ORG, modules: { [ORG]: ['dis', 'fin', 'help'] } })
  await signIn(page, user.email, user.password)
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Denver', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())

  await page.goto(`/DisReports?from=${FROM}&to=${today}&by=month`)
  const salesTotal = (await page.getByTestId('sales-report').getByTestId('report-total').locator('td').allTextContents()).join(' ')
  const sales = await download(page, 'Download PDF')
  expect(sales.file).toBe(`sales-by-month-${FROM}-to-${today}.pdf`)
  expect(sales.text).toContain(salesTotal)
  expect(sales.text).toContain('Harbor Distribution, Denver')

  await page.goto(`/FinReports?from=${FROM}&to=${today}`)
  const taxTotal = (await page.getByTestId('tax-report').getByTestId('report-total').locator('td').allTextContents()).join(' ')
  const tax = await download(page, 'Download tax PDF')
  expect(tax.file).toBe(`tax-${FROM}-to-${today}.pdf`)
  expect(tax.text).toContain(taxTotal)
  const ageingTotal = (await page.getByTestId('ageing-report').getByTestId('report-total').locator('td').allTextContents()).join(' ')
  const ageing = await download(page, 'Download ageing PDF')
  expect(ageing.file).toBe(`receivables-ageing-${today}.pdf`)
  expect(ageing.text).toContain(ageingTotal)

  await page.goto('/TaxReceivables')
  const owed = await page.getByTestId('ageing-total').textContent()
  const rec = await download(page, 'Download PDF')
  expect(rec.file).toBe(`receivables-${today}.pdf`)
  expect(rec.text).toContain(`${owed}`)
  expect(rec.text).toContain('Open invoices')
})
