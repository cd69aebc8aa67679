/**
 * The table page of SPEC §7 as a pipeline keeps its cheap plan (decision 010): with every sort value
 * a string, its 20 rows come from the sort field's index, read backwards, not from sorting every
 * matching row, and the answer is the page itself. The planner picks that plan only while its
 * estimate of the compiled $match is sane: on the PGlite bench (100k plants), a bare LIKE beside
 * the exact regex test made it expect 6 to 46 rows where 17,825 pass, and the page sorted them all
 * (10× slower). These 60,000 rows do not reproduce that flip; they hold the intended plan on
 * both databases.
 */
import { compilePipeline } from '#app/api/pipeline/compile'
import { runPipeline } from '#app/api/pipeline/run.server'
import { openTestDatabase, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
const ROOMS = ['Flower Room 1', 'Flower Room 2', 'Veg Room', 'Clone Room']
const PAGE = [
  { $match: { IsUsed: { $ne: 'no' }, room: { $regex: 'flower', $options: 'i' } } },
  { $sort: { planted: -1, _id: -1 } },
  { $facet: { data: [{ $skip: 0 }, { $limit: 20 }], total: [{ $count: 'count' }] } },
]
const tableFor = (c: string) => {
  throw new Error(`unknown ${c}`)
}

beforeAll(async () => {
  t = await openTestDatabase()
  await t.schemas.put({ uid: 'plan' }, {
    key: 'pp_plants',
    label: 'Plants',
    items: [
      { key: 'tag', label: 'Tag', filter: true, sortable: true },
      { key: 'room', label: 'Room', type: 'list', en: { list: ROOMS }, filter: true },
      { key: 'planted', label: 'Planted', type: 'date' },
    ],
    dateField: 'planted',
  })
  // 45,000 plants of o1 (4 in 10 in a flower room and in use) and 15,000 of o2, in one statement;
  // planting times unique and in no relation to the rows' order on disk (7919 is prime to 60,000)
  await t.db.query(`INSERT INTO c_pp_plants (org, id, doc, cts, ts)
    SELECT CASE WHEN i % 4 = 0 THEN 'o2' ELSE 'o1' END, 'p' || lpad(i::text, 6, '0'),
      jsonb_build_object('tag', 'T' || i, 'room', ($1::text[])[1 + i % 4], 'planted', to_char(timestamp '2024-01-01' + ((i * 7919) % 60000) * interval '47 minutes', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'), 'IsUsed', CASE WHEN i % 5 = 0 THEN 'no' ELSE 'yes' END),
      now(), now()
    FROM generate_series(1, 60000) i`, [ROOMS])
  await t.db.query('ANALYZE c_pp_plants')
})
afterAll(async () => t?.cleanup())

describe(`the table-page pipeline's plan (${process.env.TEST_DB ?? 'pglite'})`, () => {
  it('reads its rows through the sort field index and answers the page', async () => {
    const { sql, params } = compilePipeline('c_pp_plants', 'o1', PAGE, { tableFor, maxRows: 100 })
    const plan = (await t.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n')
    expect(plan, plan).toMatch(/Index Scan Backward using c_pp_plants__s_planted/)

    const [page] = (await runPipeline(t.db, 'c_pp_plants', 'o1', PAGE, { tableFor, maxRows: 100, timeoutMs: 10_000 })) as Array<{ data: Array<{ _id: string; room: string }>; total: Array<{ count: number }> }>
    // o1 holds i % 4 in 1..3; flower rooms are i % 4 in 0..1, so i % 4 = 1 of them; in use: i % 5 != 0
    const want = Array.from({ length: 60000 }, (_, k) => k + 1).filter((i) => i % 4 === 1 && i % 5 !== 0)
    expect(page.total).toEqual([{ count: want.length }])
    const newest = want.sort((a, b) => ((b * 7919) % 60000) - ((a * 7919) % 60000)).slice(0, 20)
    expect(page.data.map((d) => d._id)).toEqual(newest.map((i) => `p${String(i).padStart(6, '0')}`))
  })
})
