/**
 * A file uploaded while writing a message (issue 27), in real browsers, JavaScript on and off (the
 * compose form posts multipart either way): the recipient sees it in the conversation and downloads
 * it whole; someone of the facility outside the conversation gets 404 for the same address; a file
 * over the size limit is refused with its reason and nothing is sent.
 */
import fs from 'node:fs'
import type { Browser, Page } from '@playwright/test'
import { expect, login, test } from '../../../tests/e2e/fixtures'

const modules = { greenleaf: ['oth', 'help'] }
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

async function open(browser: Browser, js: boolean, u: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext({ javaScriptEnabled: js })).newPage()
  await login(page, u.email, u.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  return page
}

test('a message with an uploaded file: the recipient downloads it, an outsider cannot', async ({ browser, createUser, javaScriptEnabled: js }) => {
  test.setTimeout(120_000)
  const [a, b, c] = [await createUser({ modules }), await createUser({ modules }), await createUser({ modules })]
  const subject = `Scale certificate ${a.uid}`
  const pageA = await open(browser, js, a)
  await pageA.goto(`/MsgMessages?new=1&to=user:${b.uid}`)
  await pageA.getByLabel('Subject', { exact: true }).fill(subject)
  await pageA.getByLabel('Message', { exact: true }).fill('The new calibration certificate.')
  await pageA.getByLabel('Upload files').setInputFiles({ name: 'calibration certificate.pdf', mimeType: 'application/pdf', buffer: PDF })
  await pageA.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(pageA).toHaveURL(/\/MsgMessages\?c=/)
  await expect(pageA.getByRole('region', { name: 'Conversation' }).getByRole('link', { name: 'calibration certificate.pdf' })).toBeVisible()

  // the recipient opens the conversation and downloads the file
  const pageB = await open(browser, js, b)
  await pageB.goto('/MsgMessages')
  await pageB.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: new RegExp(subject) }).click()
  const link = pageB.getByRole('region', { name: 'Conversation' }).getByRole('link', { name: 'calibration certificate.pdf' })
  await expect(link).toBeVisible()
  const [download] = await Promise.all([pageB.waitForEvent('download'), link.click()])
  expect(download.suggestedFilename()).toBe('calibration certificate.pdf')
  expect(fs.readFileSync((await download.path())!).equals(PDF)).toBe(true)

  // someone else of the facility, signed in, asks for the same address: not found
  const href = (await link.getAttribute('href'))!
  const pageC = await open(browser, js, c)
  expect((await pageC.request.get(href)).status()).toBe(404)

  // an upload over the limit (MAX_UPLOAD_MB) in a reply: refused with the reason, nothing sent
  const big = Buffer.concat([PDF, Buffer.alloc(11 * 1_048_576, 0x20)])
  await pageB.getByLabel('Your reply').fill('Here is a bigger one.')
  await pageB.getByLabel('Upload files').setInputFiles({ name: 'huge.pdf', mimeType: 'application/pdf', buffer: big })
  await pageB.getByRole('button', { name: 'Send reply' }).click()
  await expect(pageB.getByRole('alert').filter({ hasText: 'huge.pdf is larger than' })).toBeVisible()
  await pageB.goto(`/MsgMessages?c=${new URL(pageA.url()).searchParams.get('c')}`)
  await expect(pageB.getByRole('region', { name: 'Conversation' }).getByText('Here is a bigger one.')).toHaveCount(0)
  for (const p of [pageA, pageB, pageC]) await p.context().close()
})
