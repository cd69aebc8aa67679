/**
 * CSV import on both databases (decision 070): a file with good and bad rows → the preview names
 * each bad row's cell → importing the good rows creates exactly them, each with its audit row, and
 * the import's own audit row names the file → undo deletes exactly those (audited); an undo is
 * refused once a record was changed; "all" is refused while rows are bad; a file imports once.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SignedIn } from '#app/auth/require.server'
import type { SessionUser } from '#app/auth/entitlements'
import { loadEnv } from '#app/config/env.server'
import { findRoute } from '#app/route-map'
import { csvLine } from '#app/screens/csv'
import { importPage, readImport, runImport, undoImport, uploadImport, type ImportTarget } from '#app/screens/csv-import.server'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
const ORG = 'greenleaf'
const silent = pino({ level: 'silent' })
const context = () => ({ database: t, logger: silent, requestId: 'csv-imp' }) as unknown as AppLoadContext

async function target(): Promise<ImportTarget> {
  const user = { uid: 'u-maria', email: 'maria@x.test', role: 'user', org: ORG } as SessionUser
  const route = findRoute('/culPlants')!
  return {
    s: { id: 's', session: { facility: ORG, orig_uid: null, id_hash: 'h' }, user } as unknown as SignedIn,
    facility: ORG,
    route,
    org: ORG,
    schema: (await t.schemas.get('fac_plants'))!,
    writer: { user, actor: { uid: 'u-maria', requestId: 'csv-imp' }, facility: ORG },
  }
}

const count = async (sql: string, params: unknown[]) => Number((await t.db.query<{ n: string }>(sql, params)).rows[0].n)
const plantsTagged = (prefix: string) => count(`SELECT count(*) AS n FROM c_fac_plants WHERE org = $1 AND doc->>'tag' LIKE $2`, [ORG, `${prefix}%`])
const auditOf = (prefix: string, action: string) =>
  count(`SELECT count(*) AS n FROM audit_log WHERE org = $1 AND collection = 'fac_plants' AND action = $2 AND coalesce(after, before)->>'tag' LIKE $3`, [ORG, action, `${prefix}%`])

/** A file of `n` plants with `bad` rows: row 3 lacks its tag, row 5 names an unknown strain, row 7 has a dead weight that is not a number. */
function file(prefix: string, n: number, bad = true): string {
  let s = `\uFEFF${csvLine(['Plant Tag', 'Strain', 'Room', 'Growth Phase', 'Planted', 'Dead Weight', 'Notes', 'Record Created'])}`
  for (let i = 1; i <= n; i++) {
    const row = i + 1
    const tag = bad && row === 3 ? '' : `${prefix}${String(i).padStart(4, '0')}`
    const strain = bad && row === 5 ? 'No Such Strain' : 'Blue Dream'
    const weight = bad && row === 7 ? 'heavy g' : '1,250.5 g'
    s += csvLine([tag, strain, 'Veg Room 1', 'Vegetative', '03/07/2026 01:05 PM', weight, `note, "${i}"\nsecond line`, '01/01/2020'])
  }
  return s
}

beforeAll(async () => {
  t = await openTestDatabase()
  await seedDemo(t, loadEnv({ DATA_DIR: tmpDir() }), { force: true })
}, 120_000)
afterAll(async () => {
  await t?.cleanup()
})

describe('CSV import', () => {
  it('preview names the bad cells → import the good rows → audit rows → undo removes exactly them', async () => {
    const tg = await target()
    const up = await uploadImport(context(), tg, 'plants, march.csv', file('CSVI-', 60))
    if ('error' in up) throw new Error(up.error)
    const page = await importPage(context(), tg, up.id, 5)
    expect(page.imp).toMatchObject({ fileName: 'plants, march.csv', state: 'preview', total: 60, good: 57, bad: 3 })
    expect(page.imp!.ignored).toEqual([{ header: 'Record Created', note: 'filled by the system, not by a file: ignored' }])
    expect(page.imp!.errors).toEqual([
      { row: 3, column: 'Plant Tag', value: '', message: expect.stringMatching(/Plant Tag/) },
      { row: 5, column: 'Strain', value: 'No Such Strain', message: 'Strain: there is no record named "No Such Strain" to choose.' },
      { row: 7, column: 'Dead Weight', value: 'heavy g', message: expect.stringMatching(/Dead Weight/) },
    ])
    expect(await plantsTagged('CSVI-')).toBe(0)

    expect(await runImport(context(), tg, up.id, 'all')).toEqual({ error: expect.stringMatching(/3 rows have problems/) })
    expect(await runImport(context(), tg, up.id, 'good')).toEqual({ message: 'Imported 57 records from plants, march.csv; 3 rows with problems were left out.' })
    expect(await plantsTagged('CSVI-')).toBe(57)
    expect(await auditOf('CSVI-', 'insert')).toBe(57)
    const imported = await readImport(context(), tg, up.id)
    expect(imported!.created).toHaveLength(57)
    const one = await t.store.get(ORG, 'fac_plants', imported!.created[0].id)
    expect(one).toMatchObject({ tag: 'CSVI-0001', room: expect.any(String), phase: 'Vegetative', planted: expect.stringMatching(/^2026-03-07T/), dead_weight: { qty: 1250.5, unit: 'g' }, notes: 'note, "1"\nsecond line' })
    const fileAudit = (await t.db.query<{ after: { file: string; count: number } }>(`SELECT after FROM audit_log WHERE org = $1 AND collection = 'csv_imports' AND doc_id = $2 AND action = 'insert'`, [ORG, up.id])).rows
    expect(fileAudit.map((r) => r.after)).toEqual([expect.objectContaining({ file: 'plants, march.csv', count: 57, collection: 'fac_plants' })])
    // a file imports once
    expect(await runImport(context(), tg, up.id, 'good')).toEqual({ error: 'This file has been imported already.' })

    expect(await undoImport(context(), tg, up.id)).toEqual({ message: 'Undone: the 57 records imported from plants, march.csv were deleted.' })
    expect(await plantsTagged('CSVI-')).toBe(0)
    expect(await auditOf('CSVI-', 'delete')).toBe(57)
    expect(await count(`SELECT count(*) AS n FROM audit_log WHERE org = $1 AND collection = 'csv_imports' AND doc_id = $2 AND action = 'delete'`, [ORG, up.id])).toBe(1)
    expect(await undoImport(context(), tg, up.id)).toEqual({ error: 'This import has been undone already.' })
  })

  it('refuses to undo once an imported record was changed, and changes nothing', async () => {
    const tg = await target()
    const up = await uploadImport(context(), tg, 'small.csv', file('CSVJ-', 4, false))
    if ('error' in up) throw new Error(up.error)
    expect(await runImport(context(), tg, up.id, 'all')).toEqual({ message: 'Imported 4 records from small.csv.' })
    const [first] = (await readImport(context(), tg, up.id))!.created
    await t.store.update({ uid: 'u-other' }, ORG, 'fac_plants', first.id, { notes: 'changed after the import' })
    expect(await undoImport(context(), tg, up.id)).toEqual({ error: expect.stringMatching(/1 of its records were changed since the import/) })
    expect(await plantsTagged('CSVJ-')).toBe(4)
    expect((await readImport(context(), tg, up.id))!.state).toBe('imported')
  })

  it('refuses a file without a header it can use, and one without rows', async () => {
    const tg = await target()
    expect(await uploadImport(context(), tg, 'x.csv', 'foo,bar\n1,2\n')).toEqual({ error: expect.stringMatching(/No column of this file fills a field/) })
    expect(await uploadImport(context(), tg, 'x.csv', 'Plant Tag\n')).toEqual({ error: 'The file has a header row but no records under it.' })
  })
})
