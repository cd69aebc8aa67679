/**
 * Issue 26 "done when", with JavaScript on (the rich-text editor) and off (Markdown): a manager
 * writes a policy with a heading, a list and a table, publishes it to a growers' group; a grower
 * sees it waiting, reads and acknowledges it; the manager's list shows who signed; a second version
 * asks again; the versions are compared; the first is restored.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, signIn, test } from '../../../tests/e2e/fixtures'

async function writeBody(page: Page, js: boolean, heading: string) {
  if (js) {
    await page.locator('[data-rich-editor="ready"]').waitFor()
    const ed = page.getByRole('textbox', { name: 'Document text' })
    await ed.click()
    await page.keyboard.press('Control+a')
    await page.keyboard.press('Delete')
    await page.keyboard.type(`## ${heading}`)
    await page.keyboard.press('Enter')
    await page.keyboard.type('- Wear gloves in every room')
    await page.keyboard.press('Enter')
    await page.keyboard.type('Wash hands before entering')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Table', exact: true }).click()
    await page.keyboard.type('Room')
    await page.keyboard.press('Tab')
    await page.keyboard.type('Gloves')
  } else {
    await page.locator('#markdown').fill(`## ${heading}\n\n- Wear gloves in every room\n- Wash hands before entering\n\n| Room | Gloves |\n| --- | --- |\n| Flower 1 | Nitrile |\n`)
    await page.getByRole('button', { name: 'Preview' }).click()
    await expect(page.locator('.doc-content h2', { hasText: heading })).toBeVisible()
  }
}

test('a policy is written, published to a group, acknowledged, versioned, compared and restored', async ({ page, browser, createUser, database }) => {
  const js = test.info().project.name === 'js'
  const tag = crypto.randomBytes(3).toString('hex')
  const manager = await createUser({ role: 'admin', modules: { greenleaf: null } })
  const grower = await createUser({ modules: { greenleaf: ['cul', 'help'] } })
  const groupName = `Growers ${tag}`
  await database.store.insert({ uid: 'e2e-fixture' }, 'greenleaf', 'team_groups', { _id: `g${tag}`, name: groupName, department: 'Cultivation', member_uids: [grower.uid] })
  const title = `Glove policy ${tag}`

  // the manager writes and publishes it
  await signIn(page, manager.email, manager.password)
  await page.goto('/PolDocs/new')
  await page.locator('#m-title').fill(title)
  await writeBody(page, js, 'Gloves on the floor')
  await page.getByRole('checkbox', { name: groupName }).check()
  await page.getByRole('button', { name: 'Save and publish' }).click()
  await expect(page.getByText('Published version 1')).toBeVisible()
  const id = new URL(page.url()).pathname.split('/')[2]
  const stored = await database.store.get('greenleaf', 'pol_docs', id)
  expect(String(stored!.body)).toMatch(/<h2>Gloves on the floor<\/h2>/)
  expect(String(stored!.body)).toMatch(/<ul>\s*<li>(<p>)?Wear gloves in every room/)
  expect(String(stored!.body)).toContain('<table>')

  // the grower sees it waiting, reads and acknowledges it
  const growerCtx = await browser.newContext({ javaScriptEnabled: js })
  const gp = await growerCtx.newPage()
  await signIn(gp, grower.email, grower.password)
  // the start page says it waits, and so does /MyPolicies
  await expect(gp.locator('#waiting-title ~ ul').getByRole('link', { name: new RegExp(title) })).toBeVisible()
  await gp.goto('/MyPolicies')
  await gp.getByRole('link', { name: new RegExp(title) }).click()
  await expect(gp.getByRole('heading', { name: 'Gloves on the floor' })).toBeVisible()
  await expect(gp.locator('article table')).toBeVisible()
  await gp.getByRole('checkbox', { name: /I have read and understood/ }).check()
  await gp.getByRole('button', { name: 'Acknowledge' }).click()
  await expect(gp.getByText('your acknowledgement of version 1 is recorded')).toBeVisible()
  await gp.goto('/MyPolicies')
  await expect(gp.locator('#waiting-title ~ ul').getByRole('link', { name: new RegExp(title) })).toHaveCount(0)

  // the manager sees who signed, and can export it
  await page.goto(`/PolDocs/${id}/signatures`)
  await expect(page.getByRole('row', { name: new RegExp(`${grower.uid}.*Acknowledged`) })).toBeVisible()
  await expect(page.getByText('Version 1: 1 of 1 acknowledged.')).toBeVisible()
  const csv = await page.request.get(`/PolDocs/${id}/signatures.csv`)
  expect(csv.status()).toBe(200)
  expect(await csv.text()).toContain(`${grower.email},Acknowledged`)

  // a second version asks again
  await page.goto(`/PolDocs/${id}`)
  await writeBody(page, js, 'Gloves everywhere')
  await page.getByRole('button', { name: 'Save and publish' }).click()
  await expect(page.getByText('Published version 2')).toBeVisible()
  await gp.goto('/MyPolicies')
  await expect(gp.getByRole('link', { name: new RegExp(`${title}.*version 2`) })).toBeVisible()
  await growerCtx.close()

  // compare the versions, restore the first
  await page.goto(`/PolDocs/${id}/versions`)
  await page.locator('select[name="a"]').selectOption('1')
  await page.locator('select[name="b"]').selectOption('2')
  await page.getByRole('button', { name: 'Compare' }).click()
  await expect(page.getByRole('heading', { name: 'Changes from version 1 to version 2' })).toBeVisible()
  await expect(page.getByTestId('diff').locator('del', { hasText: 'on the floor' })).toBeVisible()
  await expect(page.getByTestId('diff').locator('ins', { hasText: 'everywhere' })).toBeVisible()
  await page.getByRole('button', { name: 'Restore version 1' }).click()
  await expect(page.getByText('Version 1 was restored as version 3')).toBeVisible()
  expect(String((await database.store.get('greenleaf', 'pol_docs', id))!.body)).toContain('Gloves on the floor')
  const audit = await database.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE org = 'greenleaf' AND collection = 'pol_docs' AND doc_id = $1 AND uid = $2 AND action = 'update'", [id, manager.uid])
  expect(audit.rows[0].n).toBeGreaterThanOrEqual(4)
})

test('the file lists open their files and preview images and PDFs; an upload named with `;` and `=` is listed; a script file is refused', async ({ page, createUser }) => {
  const u = await createUser({ role: 'admin', modules: { greenleaf: null } })
  const name = `Inspection report; lot=${crypto.randomBytes(3).toString('hex')}.pdf`
  await signIn(page, u.email, u.password)
  await page.goto('/DocFileUpload')
  const first = page.locator('tbody tr a[target="_blank"]').first()
  const href = await first.getAttribute('href')
  expect((await page.request.get(href!)).status()).toBe(200)
  // an image's preview is the image, shown on the page
  const image = page.locator('tbody tr', { has: page.locator('img') }).first()
  const imageName = (await image.locator('a[target="_blank"]').textContent())!.trim()
  await image.getByRole('link', { name: `Preview ${imageName}` }).first().click()
  await expect(page.getByRole('heading', { name: `Preview: ${imageName}` })).toBeVisible()
  await expect(page.getByRole('img', { name: imageName, exact: true })).toBeVisible()
  expect(await page.getByRole('img', { name: imageName, exact: true }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)

  await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') })
  await page.getByRole('button', { name: 'Upload' }).click()
  await expect(page.getByText(`${name} was uploaded`)).toBeVisible()
  const link = page.getByRole('link', { name, exact: true })
  const got = await page.request.get((await link.getAttribute('href'))!)
  expect(got.status()).toBe(200)
  expect(got.headers()['content-type']).toBe('application/pdf')
  // a PDF's preview is the PDF in the browser's viewer, on the page
  await page.getByRole('link', { name: `Preview ${name}` }).first().click()
  const frame = page.locator(`iframe[title="PDF preview of ${name}"]`)
  await expect(frame).toBeVisible()
  expect((await page.request.get((await frame.getAttribute('src'))!)).headers()['content-type']).toBe('application/pdf')
  await page.getByRole('link', { name: 'Close preview' }).click()
  await expect(frame).toHaveCount(0)

  // search by name
  await page.getByRole('searchbox', { name: 'Search by name' }).fill(name.slice(0, -4))
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible()

  await page.locator('input[type=file]').setInputFiles({ name: 'evil.html', mimeType: 'text/html', buffer: Buffer.from('<script>alert(1)</script>') })
  await page.getByRole('button', { name: 'Upload' }).click()
  await expect(page.getByText('evil.html: SVG and HTML files are not accepted, because they can carry scripts.')).toBeVisible()

  // the register: every document's PDF opens and previews
  await page.goto('/DocList')
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible()
  const pdfs = page.locator('tbody tr a[target="_blank"]')
  expect(await pdfs.count()).toBeGreaterThan(20)
  for (const h of await pdfs.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) expect((await page.request.get(h)).status(), h).toBe(200)
  await page.getByRole('link', { name: 'License', exact: true }).click()
  await expect(page.locator('tbody tr').first()).toContainText('License')
  const doc = (await page.locator('tbody tr a[target="_blank"]').first().textContent())!.trim()
  await page.getByRole('link', { name: `Preview ${doc}` }).first().click()
  await expect(page.locator(`iframe[title="PDF preview of ${doc}"]`)).toBeVisible()
})
