/**
 * Paging by cursor (decision 008) on the real database: walking a view with Next (after the last
 * row) and Previous (before the first row) gives exactly the rows that paging by OFFSET gives, in
 * the same order, for every kind of sort (text, number, measure, date, created, a referenced
 * record's label) in both directions, with missing values, with duplicate values, with filters,
 * and across the two segments of a label sort (records with a label, then those without).
 */
import type { Cursor, PageQuery } from '#app/db/types'
import { openTestDatabase, TEST_DB, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'cursor-test' }
let t: TestDatabase
const ORG = 'greenleaf'
const refs = [{ key: 'client', collection: 'set_clients', labelField: 'name', org: ORG }]

beforeAll(async () => {
  t = await openTestDatabase()
  await t.schemas.put(actor, { key: 'set_clients', label: 'Clients', items: [{ key: 'name', label: 'Name', filter: true, sortable: true }] })
  await t.schemas.put(actor, {
    key: 'dis_orders',
    label: 'Orders',
    items: [
      { key: 'orderNo', label: 'Order #', filter: true, sortable: true },
      { key: 'client', label: 'Client', type: 'list', format: 'id:set_clients:name', filter: true },
      { key: 'orderDate', label: 'Order Date', type: 'date' },
      { key: 'total', label: 'Total', type: 'currency', sortable: true },
      { key: 'weight', label: 'Weight', type: 'measure', sortable: true },
      { key: 'notes', label: 'Notes', filter: true },
    ],
    dateField: 'orderDate',
  })
  // labels that tie once lower-cased ("Bravo", "bravo"), one record without a label, and another organisation's record
  const clients: Array<[string, string | null]> = [['c-a', 'alpha'], ['c-b', 'Bravo'], ['c-b2', 'bravo'], ['c-c', 'charlie'], ['c-n', null]]
  for (const [id, name] of clients) await t.store.insert(actor, ORG, 'set_clients', { _id: id, ...(name === null ? {} : { name }) })
  await t.store.insert(actor, 'harbor', 'set_clients', { _id: 'c-x', name: 'Aaa Harbor' })
  const clientOf = ['c-a', 'c-b', 'c-b2', 'c-c', 'c-n', 'c-x', 'gone', undefined]
  const docs = Array.from({ length: 47 }, (_, i) => {
    const client = clientOf[i % clientOf.length]
    return {
      _id: `o${String((i * 37) % 101).padStart(3, '0')}`,
      orderNo: i % 9 === 0 ? undefined : `SO-${i % 13}`,
      ...(client ? { client } : {}),
      orderDate: i % 7 === 0 ? undefined : `2026-03-${String(1 + (i % 20)).padStart(2, '0')}T19:30:00Z`,
      total: i % 6 === 0 ? undefined : (i * 7) % 23,
      weight: i % 5 === 0 ? undefined : { qty: (i % 4) + 1, unit: ['g', 'oz', 'lb', 'kg'][i % 4] },
      notes: i % 2 ? 'rush' : 'normal',
      IsUsed: i % 11 === 0 ? 'no' : 'yes',
    }
  })
  // inserted together: many share one creation time, so Created ties are broken by id
  await t.store.insertMany(actor, ORG, 'dis_orders', docs)
})
afterAll(() => t?.cleanup())

type Q = Omit<PageQuery, 'offset' | 'limit'>
const page = (q: Q, offset: number, limit: number, cur: { after?: Cursor; before?: Cursor } = {}) => t.store.page(ORG, 'dis_orders', { refs, ...q, offset, limit, ...cur })

/** every row of the view by OFFSET, in pages of `size` */
async function byOffset(q: Q, size: number) {
  const out: string[] = []
  for (let off = 0; ; off += size) {
    const p = await page(q, off, size)
    out.push(...p.rows.map((r) => r._id))
    if (p.rows.length < size) return out
  }
}

/** every row by Next, then back to the start by Previous: both must give the OFFSET pages */
async function byCursor(q: Q, size: number) {
  const pages: string[][] = []
  let p = await page(q, 0, size)
  let last = p
  pages.push(p.rows.map((r) => r._id))
  while (p.rows.length === size) {
    p = await page(q, 0, size, { after: p.last })
    if (p.rows.length) {
      pages.push(p.rows.map((r) => r._id))
      last = p
    }
  }
  // and back from the last page to the first
  const back: string[][] = [pages[pages.length - 1]]
  for (let i = pages.length - 2; i >= 0; i--) {
    last = await page(q, 0, size, { before: last.first })
    back.unshift(last.rows.map((r) => r._id))
  }
  return { forward: pages, back }
}

const SORTS: Array<Q['sort'] | undefined> = [
  undefined,
  ...(['orderNo', 'client', 'orderDate', 'total', 'weight', 'cts'] as const).flatMap((key) => (['asc', 'desc'] as const).map((dir) => ({ key, dir }))),
]

describe(`paging by cursor on ${TEST_DB}`, () => {
  it.each(SORTS.map((s) => [s ? `${s.key} ${s.dir}` : 'default order', s]))('%s: Next and Previous give the OFFSET pages', async (_, sort) => {
    for (const extra of [{}, { activeOnly: true }, { search: { key: 'notes', text: 'rush' } }] as Q[]) {
      const q: Q = { ...(sort ? { sort } : {}), ...extra }
      const all = await byOffset(q, 100)
      expect(new Set(all).size).toBe(all.length)
      for (const size of [4, 7]) {
        const offsetPages = await byOffset(q, size)
        expect(offsetPages).toEqual(all)
        const { forward, back } = await byCursor(q, size)
        expect(forward.flat()).toEqual(all)
        expect(back).toEqual(forward)
      }
    }
  })

  it('sorts a referenced column by label, ties by id, records without a label last (first when descending), never another organisation\'s', async () => {
    const asc = await page({ sort: { key: 'client', dir: 'asc' } }, 0, 100)
    const labels = asc.rows.map((r) => r._labels?.client ?? null)
    const firstNull = labels.indexOf(null)
    expect(firstNull).toBeGreaterThan(0)
    expect(labels.slice(firstNull).every((l) => l === null)).toBe(true)
    const named = labels.slice(0, firstNull).map((l) => l!.toLowerCase())
    expect(named).toEqual([...named].sort())
    expect(labels).not.toContain('Aaa Harbor')
    // "Bravo" and "bravo" tie: their rows are one run ordered by id
    const bravo = asc.rows.filter((r) => r._labels?.client?.toLowerCase() === 'bravo').map((r) => r._id)
    expect(bravo).toEqual([...bravo].sort())
    const desc = await page({ sort: { key: 'client', dir: 'desc' } }, 0, 100)
    expect(desc.rows.map((r) => r._id)).toEqual(asc.rows.map((r) => r._id).reverse())
  })

  it('pages by OFFSET across the end of the labelled rows into the unlabelled ones', async () => {
    const q: Q = { sort: { key: 'client', dir: 'asc' } }
    const all = (await page(q, 0, 100)).rows.map((r) => r._id)
    for (const off of [0, 20, 29, 30, 31, 40, 46, 47, 60]) {
      expect((await page(q, off, 5)).rows.map((r) => r._id)).toEqual(all.slice(off, off + 5))
    }
  })

  it('searches the sorted reference by its label: only labelled rows, still in label order', async () => {
    const p = await page({ sort: { key: 'client', dir: 'asc' }, search: { key: 'client', text: 'RAV' } }, 0, 100)
    expect(p.total).toBe(p.rows.length)
    expect(p.rows.length).toBeGreaterThan(0)
    expect(p.rows.every((r) => r._labels?.client?.toLowerCase() === 'bravo')).toBe(true)
    const { forward } = await byCursor({ sort: { key: 'client', dir: 'asc' }, search: { key: 'client', text: 'RAV' } }, 3)
    expect(forward.flat()).toEqual(p.rows.map((r) => r._id))
  })

  it('refuses a cursor that does not fit the sort, and runs nothing for it', async () => {
    const bad = [{ v: 'not a number', id: 'o001' }, { v: "1'; DROP TABLE c_dis_orders; --", id: 'x' }, { v: '1', id: 'x'.repeat(300) }]
    for (const after of bad) {
      await expect(page({ sort: { key: 'total', dir: 'asc' } }, 0, 5, { after })).rejects.toThrow(/page link is not valid/)
    }
    await expect(page({}, 0, 5, { after: { v: 'yesterday', id: 'o001' } })).rejects.toThrow(/page link is not valid/)
    expect((await page({}, 0, 100)).total).toBe(47)
  })

  it('exports a whole view in batches that continue after each other', async () => {
    const q: Q = { refs, sort: { key: 'client', dir: 'desc' } }
    const all = (await page(q, 0, 100)).rows.map((r) => r._id)
    const walked: string[] = []
    for await (const batch of t.store.walk(ORG, 'dis_orders', q, 100_000, 6)) walked.push(...batch.map((r) => r._id))
    expect(walked).toEqual(all)
    const capped: string[] = []
    for await (const batch of t.store.walk(ORG, 'dis_orders', q, 10, 4)) capped.push(...batch.map((r) => r._id))
    expect(capped).toEqual(all.slice(0, 10))
  })
})
