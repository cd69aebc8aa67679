/**
 * Pages opened by number (issue 30 item 3): an OFFSET past 0 runs as a deferred join (the skipped
 * rows walked for their ids alone, the page's rows read back by primary key). On the real database
 * it must return exactly what the old OFFSET query over the full rows returns: the same rows, in the
 * same order, ties broken the same way, only the organisation's own rows (another organisation holds
 * records under the very same ids), for the default order, a date sort with a search, a text sort with
 * ties, a referenced label's sort (two segments) and more, up to the last page and past the end.
 */
import { segmentParams } from '#app/db/page-sql'
import type { PageQuery } from '#app/db/types'
import { openTestDatabase, TEST_DB, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'deep-page-test' }
let t: TestDatabase
const ORG = 'greenleaf'
const OTHER = 'harbor'
const N = 230
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
      { key: 'notes', label: 'Notes', filter: true },
    ],
    dateField: 'orderDate',
  })
  const clients: Array<[string, string | null]> = [['c-a', 'alpha'], ['c-b', 'Bravo'], ['c-b2', 'bravo'], ['c-c', 'charlie'], ['c-n', null]]
  for (const [id, name] of clients) await t.store.insert(actor, ORG, 'set_clients', { _id: id, ...(name === null ? {} : { name }) })
  await t.store.insert(actor, OTHER, 'set_clients', { _id: 'c-a', name: 'Aaa Harbor' })
  const clientOf = ['c-a', 'c-b', 'c-b2', 'c-c', 'c-n', 'gone', undefined]
  const docs = (org: string) =>
    Array.from({ length: N }, (_, i) => {
      const client = clientOf[i % clientOf.length]
      return {
        _id: `o${String((i * 37) % 1009).padStart(4, '0')}`,
        // few distinct order numbers: long runs of ties (broken by id), some missing
        orderNo: i % 9 === 0 ? undefined : `SO-${i % 6}`,
        ...(client ? { client } : {}),
        // dates that repeat (ties), some missing
        orderDate: i % 7 === 0 ? undefined : `2026-03-${String(1 + (i % 20)).padStart(2, '0')}T19:30:00Z`,
        total: i % 6 === 0 ? undefined : (i * 7) % 23,
        notes: org === OTHER || i % 3 ? 'rush order' : 'normal',
        IsUsed: org === OTHER || i % 11 !== 0 ? 'yes' : 'no',
      }
    })
  // inserted together: they share one creation time, so the default order (Created) is all ties, broken by id
  await t.store.insertMany(actor, ORG, 'dis_orders', docs(ORG))
  // another organisation holds records under the same ids: a read-back by id alone would find them
  await t.store.insertMany(actor, OTHER, 'dis_orders', docs(OTHER))
})
afterAll(() => t?.cleanup())

type Q = Omit<PageQuery, 'offset' | 'limit'>

/** The old page by number: each segment's OFFSET query over the full rows (`Segment.sql`), as readSegments ran it. */
async function oldPage(q: Q, offset: number, limit: number): Promise<string[]> {
  const plan = await t.store.pagePlan(ORG, 'dis_orders', { refs, ...q, offset, limit })
  const out: string[] = []
  let skip = offset
  for (const s of plan.segments) {
    const want = limit - out.length
    if (want <= 0) break
    const r = await t.db.query<{ id: string }>(s.sql, segmentParams(s, want, skip))
    out.push(...r.rows.map((x) => x.id))
    if (out.length >= limit) break
    if (skip > 0) skip = r.rows.length ? 0 : Math.max(0, skip - (await t.db.query<{ n: number }>(s.countSql, s.params)).rows[0].n)
  }
  return out
}

const VIEWS: Array<[string, Q]> = [
  ['default order (Created, all ties), active only', { activeOnly: true }],
  ['date sort with a search', { sort: { key: 'orderDate', dir: 'desc' }, search: { key: 'notes', text: 'rush' }, activeOnly: true }],
  ['date sort ascending', { sort: { key: 'orderDate', dir: 'asc' } }],
  ['text sort with ties', { sort: { key: 'orderNo', dir: 'asc' } }],
  ['text sort with ties, descending, searched', { sort: { key: 'orderNo', dir: 'desc' }, search: { key: 'notes', text: 'RUSH' } }],
  ['number sort', { sort: { key: 'total', dir: 'desc' } }],
  ['referenced label sort (two segments)', { sort: { key: 'client', dir: 'asc' } }],
  ['referenced label sort, descending, active only', { sort: { key: 'client', dir: 'desc' }, activeOnly: true }],
  ['search on the reference, updated order', { sort: { key: 'ts', dir: 'asc' }, search: { key: 'client', text: 'rav' } }],
]

describe(`pages by number on ${TEST_DB}`, () => {
  it('a page past the first runs the deferred join (ids first, rows by primary key); page 1 the plain query', async () => {
    const q: PageQuery = { refs, sort: { key: 'orderNo', dir: 'asc' }, offset: 0, limit: 20 }
    const first = await t.store.pageSql(ORG, 'dis_orders', q)
    expect(first.rowsSql).not.toMatch(/\) d JOIN/)
    const deep = await t.store.pageSql(ORG, 'dis_orders', { ...q, offset: 100 })
    expect(deep.rowsSql).toMatch(/SELECT t\.id FROM .* LIMIT \$\d+ OFFSET \$\d+\) d JOIN c_dis_orders t ON t\.org = \$1 AND t\.id = d\.id/s)
  })

  it.each(VIEWS)('%s: every page by number, the last and one past the end, equal the old OFFSET query', async (_, q) => {
    const all = (await t.store.page(ORG, 'dis_orders', { refs, ...q, offset: 0, limit: 1000 })).rows.map((r) => r._id)
    expect(all.length).toBeGreaterThan(40)
    expect(new Set(all).size).toBe(all.length)
    for (const size of [20, 7]) {
      const last = Math.ceil(all.length / size) - 1
      for (const n of [1, 2, 3, Math.floor(last / 2), last - 1, last, last + 1, last + 5]) {
        const offset = n * size
        const page = await t.store.page(ORG, 'dis_orders', { refs, ...q, offset, limit: size })
        const ids = page.rows.map((r) => r._id)
        expect(ids).toEqual(await oldPage(q, offset, size))
        expect(ids).toEqual(all.slice(offset, offset + size))
        // the organisation's own records, read back whole: its labels and fields, never the other organisation's
        for (const r of page.rows) {
          expect(r._labels?.client).not.toBe('Aaa Harbor')
          if (q.activeOnly) expect(r.IsUsed).not.toBe('no')
        }
      }
      // the last page is short or full, the one past it empty
      expect((await t.store.page(ORG, 'dis_orders', { refs, ...q, offset: (last + 1) * size, limit: size })).rows).toEqual([])
    }
  })

  it('the rows come back whole: the same documents, sort keys (cursors) and labels as the old query', async () => {
    for (const [, q] of VIEWS) {
      const old = await t.store.page(ORG, 'dis_orders', { refs, ...q, offset: 0, limit: 1000 })
      const deep = await t.store.page(ORG, 'dis_orders', { refs, ...q, offset: 30, limit: 10 })
      expect(deep.rows).toEqual(old.rows.slice(30, 40))
      const prev = await t.store.page(ORG, 'dis_orders', { refs, ...q, offset: 29, limit: 1 })
      // Next from the page before lands on the same rows
      const next = await t.store.page(ORG, 'dis_orders', { refs, ...q, offset: 0, limit: 10, after: prev.last })
      expect(next.rows.map((r) => r._id)).toEqual(deep.rows.map((r) => r._id))
      expect(deep.first).toEqual(next.first)
      expect(deep.last).toEqual(next.last)
      expect(deep.total).toBe(old.total)
    }
  })

  it('without references (no label lookups) the deferred join gives the same pages', async () => {
    const q: Q = { sort: { key: 'orderNo', dir: 'asc' }, activeOnly: true }
    const all = (await t.store.page(ORG, 'dis_orders', { ...q, offset: 0, limit: 1000 })).rows
    for (const offset of [5, 100, all.length - 3, all.length, all.length + 10]) {
      const p = await t.store.page(ORG, 'dis_orders', { ...q, offset, limit: 20 })
      expect(p.rows).toEqual(all.slice(offset, offset + 20))
    }
  })
})
