/**
 * Issue 32, item 14, on the 800 × 1280 tablet the floor uses: every link and button of the table
 * screen is a 44 × 44 px touch target (and the page still does not scroll sideways); the fields the
 * save rules always need are marked required on Plantings' form; a refused save shows every error
 * at once, each beside its field and together in a summary at the top that links to the fields; cut-off
 * cell text opens with a tap (a <details>, no hover tooltip). JavaScript on and off.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, login, test } from './fixtures'

test.use({ viewport: { width: 800, height: 1280 } })

const FAC = 'greenleaf'
const MIN = 44

async function signedIn(page: Page, createUser: (u?: { modules?: Record<string, string[] | null> }) => Promise<{ email: string; password: string }>) {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
}

/** The table screen: toolbar, selection bar, table and footer (the toolbar's parent). */
const screen = (page: Page) => page.getByRole('toolbar', { name: 'Table tools' }).locator('xpath=..')

/** Every shown link, button and summary inside the table screen smaller than 44 × 44 px, as "name: w×h". */
async function smallTargets(page: Page): Promise<string[]> {
  return screen(page).evaluate((root, min) => {
    const out: string[] = []
    for (const el of root.querySelectorAll<HTMLElement>('a[href], button, summary, input[type="checkbox"]')) {
      const r = el.getBoundingClientRect()
      if (!r.width && !r.height) continue // not shown (a closed <details>)
      // a check box counts by the label around it (the box is the label's target)
      const box = el instanceof HTMLInputElement ? (el.closest('label') ?? el).getBoundingClientRect() : r
      if (box.width < min || box.height < min) out.push(`${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30)}: ${Math.round(box.width)}×${Math.round(box.height)}`)
    }
    return out
  }, MIN)
}

test('every link and button of the table screen is at least 44 × 44 px, and the page is no wider than the screen', async ({ page, createUser }) => {
  await signedIn(page, createUser)
  // Plants: sort links, search/date/hide icons, check cells, edit and delete, the pager, row selection
  for (const path of ['/culPlantings?all=1', '/culPlants?all=1&size=10']) {
    await page.goto(path)
    await expect(page.locator('tbody tr').first()).toBeVisible()
    expect(await screen(page).locator('a[href], button').count()).toBeGreaterThan(20)
    expect(await smallTargets(page), path).toEqual([])
    const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }))
    expect(w.scroll, path).toBe(w.view)
  }
})

test('Plantings: the fields the save rules always need are marked required', async ({ page, createUser }) => {
  await signedIn(page, createUser)
  await page.goto('/CulPlantings/new')
  await expect(page.getByText('Fields marked * are required.')).toBeVisible()
  for (const label of ['Strain', 'Room', 'Tag Number', 'Original Count']) {
    await expect(page.getByLabel(label, { exact: true }), label).toHaveAttribute('aria-required', 'true')
    // the field's block (label, input, error) shows the asterisk
    await expect(page.getByLabel(label, { exact: true }).locator('xpath=ancestor::div[1]'), label).toContainText('*')
  }
  // Source Pkg is needed unless the planting is from seed: not marked as always required
  await expect(page.getByLabel('Source Pkg', { exact: true })).not.toHaveAttribute('aria-required', 'true')
})

test('a refused save shows every error at once: beside each field and in a summary that links to them', async ({ page, createUser, database }) => {
  await signedIn(page, createUser)
  const batch = `E2E-TF-${crypto.randomBytes(3).toString('hex')}`
  await page.goto('/CulPlantings/new')
  // the count first: leaving it shows its error at once (with JavaScript), so nothing moves under the Save click
  await page.getByLabel('Original Count', { exact: true }).fill('0')
  await page.getByLabel('Batch', { exact: true }).fill(batch)
  await page.getByLabel('Type', { exact: true }).selectOption('Clone')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  const summary = page.getByRole('alert', { name: 'Error' })
  await expect(summary).toContainText('The following fields can not be empty: Strain, Room, Tag Number, Source Pkg')
  await expect(summary).toContainText('Original Count must be between 1 and 100')
  // each field says its own error (its description)
  await expect(page.getByLabel('Original Count', { exact: true })).toHaveAccessibleDescription('Original Count must be between 1 and 100')
  await expect(page.getByLabel('Strain', { exact: true })).toHaveAccessibleDescription(/can not be empty/)
  await expect(page.getByLabel('Original Count', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  // the summary's links go to the fields
  await summary.getByRole('link', { name: 'Original Count' }).click()
  await expect(page).toHaveURL(/#.*orig/)
  expect(await database.store.find(FAC, 'fac_plantings', { name: batch }, 5)).toEqual([])
})

test('cut-off cell text opens with a tap and shows the whole text', async ({ page, createUser, database }) => {
  await signedIn(page, createUser)
  // a planting whose notes are longer than the table shows
  const [p] = (await database.store.page(FAC, 'fac_plantings', { offset: 0, limit: 1, sort: { key: 'mtag', dir: 'desc' }, activeOnly: true })).rows
  const { _id: id, cts: _c, ts: _t, ...original } = p
  const tail = `end-${crypto.randomBytes(3).toString('hex')}`
  const notes = `This planting was moved twice because the irrigation line in the first room leaked; ${tail}`
  try {
    await database.store.update({ uid: 'e2e-fixture' }, FAC, 'fac_plantings', id, { notes })
    // a page size in the URL: JavaScript does not re-page the table under the tap
    await page.goto(`/culPlantings?all=1&hidden=1&size=20&col=mtag&q=${encodeURIComponent(String(p.mtag))}`)
    const row = page.locator('tbody tr').first()
    await expect(row).toBeVisible()
    // a tap on the cut-off text (a <details>: no hover, no JavaScript needed) shows all of it, on screen
    await row.getByText('Show all').click()
    const full = row.getByText(notes, { exact: true })
    await expect(full).toBeVisible()
    expect((await full.boundingBox())?.width ?? 0).toBeGreaterThan(100)
  } finally {
    await database.store.update({ uid: 'e2e-fixture' }, FAC, 'fac_plantings', id, original, { replace: true })
  }
})
