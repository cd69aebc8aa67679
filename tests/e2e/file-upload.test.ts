/**
 * Issue 6 file drop (SPEC §2.6), with JavaScript (the drop zone uploads at once through POST
 * /files/{org}, showing progress) and without (a file input in the multipart form; the save stores
 * it). A product's Image is a fileDND field. The file seeds its own facility and removes it, its
 * records and its files when done. The e2e server's limit is the default 10 MB.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { E2E } from './env'
import { expect, signIn, test } from './fixtures'

const fac = `e2e-file-${crypto.randomBytes(4).toString('hex')}`
const actor = { uid: 'e2e-fixture' }
const folder = path.join(E2E.dataDir, 'files', fac)
let user: { email: string; password: string }

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360f8cf500f0004ff01fea0d3b4d70000000049454e44ae426082',
  'hex',
)
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>')
const TOO_BIG = 11 * 1_048_576

test.beforeAll(async ({ database }) => {
  await database.store.insert(actor, 'auth', 'org', { _id: fac, fullName: `E2E File Farm ${fac.slice(-8)}`, timezone: 'America/Los_Angeles', state: 'CA' })
})

test.afterAll(async ({ database }) => {
  for (const r of await database.store.find(fac, 'fac_products')) await database.store.remove(actor, fac, 'fac_products', r._id)
  await database.store.remove(actor, 'auth', 'org', fac).catch(() => {})
  fs.rmSync(folder, { recursive: true, force: true })
})

test.beforeEach(async ({ createUser }) => {
  user = await createUser({ role: 'user', org: fac, modules: { [fac]: ['cul', 'help'] } })
})

const stored = () => (fs.existsSync(folder) ? fs.readdirSync(folder) : [])
const imageInput = (page: Page) => page.getByLabel('Image', { exact: true })

async function newProduct(page: Page, name: string) {
  await signIn(page, user.email, user.password)
  await page.goto('/culProducts/new')
  await expect(page.getByRole('heading', { name: 'Add a record to Products', level: 1 })).toBeVisible()
  await page.getByLabel('Product', { exact: true }).fill(name)
}

test('a PNG chosen for a product (its name holding `;` and `=`) is stored, shown in the table and served back', async ({ page, database, javaScriptEnabled }) => {
  const name = `Upload ${javaScriptEnabled ? 'js' : 'nojs'} ${crypto.randomBytes(3).toString('hex')}`
  await newProduct(page, name)
  if (javaScriptEnabled) {
    // the upload leaves at once; hold its answer to see the progress bar
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    await page.route('**/files/**', async (route) => {
      await held
      await route.continue()
    })
    await imageInput(page).setInputFiles({ name: 'leaf; lot=7.png', mimeType: 'image/png', buffer: PNG })
    const bar = page.getByRole('progressbar', { name: 'Upload progress' })
    await expect(bar).toBeVisible()
    await expect(page.getByText(/^\d{1,3}%$/)).toBeVisible()
    release()
    await expect(bar).toBeHidden()
    // the file is stored already; the form shows it with a preview
    await expect(page.getByRole('link', { name: 'leaf; lot=7.png' })).toBeVisible()
    await expect(page.getByRole('img', { name: 'Image: leaf; lot=7.png' })).toBeVisible()
    expect(stored()).toHaveLength(1)
  } else {
    await imageInput(page).setInputFiles({ name: 'leaf; lot=7.png', mimeType: 'image/png', buffer: PNG })
  }
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect(page).toHaveURL(/\/culProducts\?msg=saved$/)

  const [row] = (await database.store.find(fac, 'fac_products', {})).filter((r) => r.name === name)
  expect(row.image).toMatch(new RegExp(`^/getfiles/${fac}/leaf-lot-7-[0-9a-f]{12}\\.png$`))
  // the table shows the image, and the link gives the very bytes back
  const cell = page.locator('tbody > tr', { hasText: name }).getByRole('img', { name: 'Image' })
  await expect(cell).toHaveAttribute('src', String(row.image))
  const got = await page.request.get(String(row.image))
  expect(got.status()).toBe(200)
  expect(got.headers()['content-type']).toBe('image/png')
  expect(Buffer.from(await got.body()).equals(PNG)).toBe(true)

  // the edit page shows the stored file, and saving without a new one keeps it
  await page.goto(`/culProducts/${row._id}/edit`)
  await expect(page.getByText('Current file:')).toBeVisible()
  await expect(page.getByRole('link', { name: /^leaf-lot-7-[0-9a-f]{12}\.png$/ })).toHaveAttribute('href', String(row.image))
  await page.getByLabel('SKU').fill('SKU-FILE-1')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect(page).toHaveURL(/\/culProducts\?msg=saved$/)
  expect((await database.store.get(fac, 'fac_products', row._id))!).toMatchObject({ sku: 'SKU-FILE-1', image: row.image })
})

test('a file over the limit and a forbidden type are refused with their message, nothing saved', async ({ page, database, javaScriptEnabled }) => {
  const name = `Refused ${javaScriptEnabled ? 'js' : 'nojs'} ${crypto.randomBytes(3).toString('hex')}`
  const before = stored()
  await newProduct(page, name)
  const cases = [
    { file: { name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(TOO_BIG)]) }, message: 'big.png is larger than 10 MB, the most a file may be.' },
    { file: { name: 'page.html', mimeType: 'text/html', buffer: HTML }, message: 'page.html: SVG and HTML files are not accepted, because they can carry scripts.' },
    // named like an image, but HTML inside: only the server can tell, by its first bytes
    { file: { name: 'photo.png', mimeType: 'image/png', buffer: HTML }, message: 'photo.png is not really a PNG image: its contents do not match its name.' },
  ]
  for (const { file, message } of cases) {
    await imageInput(page).setInputFiles(file)
    if (!javaScriptEnabled) {
      await page.getByRole('button', { name: 'Save', exact: true }).last().click()
      await expect(page.getByRole('heading', { name: 'Add a record to Products', level: 1 })).toBeVisible()
      // the rest of the form comes back as typed
      await expect(page.getByLabel('Product', { exact: true })).toHaveValue(name)
    }
    await expect(page.getByText(message, { exact: true })).toBeVisible()
    expect(stored()).toEqual(before)
  }
  await expect(page.getByText('Current file:')).toHaveCount(0)
  expect((await database.store.find(fac, 'fac_products', {})).filter((r) => r.name === name)).toEqual([])
})

test('in the dialog over the table, a file dragged onto the drop zone is uploaded and saved with the record', async ({ page, database, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'drag and drop and the dialog need JavaScript')
  const name = `Dialog ${crypto.randomBytes(3).toString('hex')}`
  const row = await database.store.insert(actor, fac, 'fac_products', { name })
  await signIn(page, user.email, user.password)
  await page.goto('/culProducts')
  await page.locator('tbody > tr', { hasText: name }).getByRole('link', { name: 'Edit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit: Products' })
  await expect(dialog).toBeVisible()
  const drop = await page.evaluateHandle((b64) => {
    const dt = new DataTransfer()
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'dropped.png', { type: 'image/png' }))
    return dt
  }, PNG.toString('base64'))
  await dialog.getByText('Drop a file here or tap to choose one').dispatchEvent('drop', { dataTransfer: drop })
  await expect(dialog.getByRole('img', { name: 'Image: dropped.png' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect(dialog).toBeHidden()
  const saved = (await database.store.get(fac, 'fac_products', row._id))!
  expect(saved.image).toMatch(new RegExp(`^/getfiles/${fac}/dropped-[0-9a-f]{12}\\.png$`))
  await expect(page.locator('tbody > tr', { hasText: name }).getByRole('img', { name: 'Image' })).toHaveAttribute('src', String(saved.image))
})
