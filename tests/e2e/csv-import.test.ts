/**
 * CSV import (issue 31 item 3, decision 070), with JavaScript and without: the More menu offers
 * Import CSV and the template; a 1,000-row file with 3 bad rows (a missing Plant Tag, an unknown
 * strain, a dead weight that is no number) → the preview names the 3 rows and their cells →
 * importing the good rows creates exactly 997 plants, each with its audit row → Undo import
 * removes exactly them. What a failed run leaves is removed by the cleanup.
 */
import crypto from 'node:crypto'
import { csvLine, parseCsv } from '../../app/screens/csv'
import { expect, signIn, test } from './fixtures'

const FAC = 'greenleaf'
const N = 1000

function file(prefix: string): string {
  let s = `\uFEFF${csvLine(['Plant Tag', 'Strain', 'Room', 'Growth Phase', 'Planted', 'Dead Weight', 'Notes'])}`
  for (let i = 1; i <= N; i++) {
    const row = i + 1
    s += csvLine([
      row === 120 ? '' : `${prefix}${String(i).padStart(4, '0')}`,
      row === 450 ? 'No Such Strain' : 'Blue Dream',
      'Veg Room 1',
      'Vegetative',
      '03/07/2026 01:05 PM',
      row === 901 ? 'heavy g' : '12.5 g',
      `imported, row "${row}"`,
    ])
  }
  return s
}

test('a 1,000-row file with 3 bad rows: preview names them, the 997 good rows import with audit rows, undo removes them', async ({ page, database, createUser, cleanup }, info) => {
  test.setTimeout(180_000)
  const prefix = `CSV-${info.project.name}-${crypto.randomBytes(3).toString('hex')}-`
  const like = `${prefix}%`
  const count = async (sql: string) => Number((await database.db.query<{ n: string }>(sql, [FAC, like])).rows[0].n)
  const plants = () => count(`SELECT count(*) AS n FROM c_fac_plants WHERE org = $1 AND doc->>'tag' LIKE $2`)
  const audits = (action: string) => count(`SELECT count(*) AS n FROM audit_log WHERE org = $1 AND collection = 'fac_plants' AND action = '${action}' AND coalesce(after, before)->>'tag' LIKE $2`)
  const fileName = `${prefix}plants.csv`
  cleanup(async () => {
    await database.db.query(`DELETE FROM c_fac_plants WHERE org = $1 AND doc->>'tag' LIKE $2`, [FAC, like])
    await database.db.query(`DELETE FROM csv_imports WHERE org = $1 AND file_name = $2`, [FAC, fileName])
  })
  const u = await createUser({ modules: { [FAC]: ['cul'] } })
  await signIn(page, u.email, u.password)

  await page.goto('/culPlants')
  await page.locator('details.toolbar-menu > summary').click()
  const [template] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV template' }).click()])
  const header = parseCsv((await (await template.createReadStream()).toArray()).join('').replace(/^\uFEFF/, ''))[0]
  expect(header).toEqual(expect.arrayContaining(['Plant Tag', 'Strain', 'Room', 'Growth Phase', 'Dead Weight']))
  await page.getByRole('link', { name: 'Import CSV' }).click()
  await expect(page.getByRole('heading', { name: 'Import CSV into Plants' })).toBeVisible()

  await page.getByLabel('CSV file').setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(file(prefix)) })
  const started = Date.now()
  await page.getByRole('button', { name: 'Upload and preview' }).click()
  await expect(page.getByTestId('import-summary')).toHaveText(`${fileName}: 1000 rows, 997 good, 3 with problems.`, { timeout: 90_000 })
  const previewMs = Date.now() - started
  const errors = page.getByTestId('import-errors').locator('tbody tr')
  await expect(errors).toHaveCount(3)
  await expect(errors.nth(0)).toContainText('120Plant Tag')
  await expect(errors.nth(1)).toContainText('450StrainNo Such StrainStrain: there is no record named "No Such Strain" to choose.')
  await expect(errors.nth(2)).toContainText('901Dead Weightheavy g')
  await expect(page.getByTestId('import-good').locator('tbody tr')).toHaveCount(20)
  expect(await plants()).toBe(0)

  const t1 = Date.now()
  await page.getByRole('button', { name: 'Import the 997 good rows' }).click()
  await expect(page.getByTestId('import-done')).toHaveText(`Imported 997 records from ${fileName}.`, { timeout: 90_000 })
  const importMs = Date.now() - t1
  expect(await plants()).toBe(997)
  expect(await audits('insert')).toBe(997)
  const [imp] = (await database.db.query<{ after: { file: string; count: number } }>(`SELECT a.after FROM audit_log a JOIN csv_imports i ON i.org = a.org AND i.id = a.doc_id WHERE a.org = $1 AND a.collection = 'csv_imports' AND i.file_name = $2`, [FAC, fileName])).rows
  expect(imp.after).toMatchObject({ file: fileName, count: 997 })

  const t2 = Date.now()
  await page.getByRole('button', { name: 'Undo import' }).click()
  await expect(page.getByText(`Import undone: the records imported from ${fileName} were deleted.`)).toBeVisible({ timeout: 90_000 })
  const undoMs = Date.now() - t2
  expect(await plants()).toBe(0)
  expect(await audits('delete')).toBe(997)
  info.annotations.push({ type: 'timing', description: `preview ${previewMs} ms, import ${importMs} ms, undo ${undoMs} ms` })
  console.log(`csv-import ${info.project.name}: preview ${previewMs} ms, import ${importMs} ms, undo ${undoMs} ms`)
})
