import { AppError } from '#app/utils/errors'
import { openTestDatabase, TEST_DB, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', origUid: 'u-admin', requestId: 'req-1' }
let t: TestDatabase

beforeAll(async () => {
  t = await openTestDatabase()
  await t.schemas.put(actor, {
    key: 'fac_plants',
    label: 'Plants',
    items: [
      { key: 'tag', filter: true, sortable: true },
      { key: 'strain', filter: true },
      { key: 'count', type: 'number', sortable: true },
      { key: 'weight', type: 'measure', sortable: true },
      { key: 'planted', type: 'date' },
    ],
  })
  const docs = [
    { _id: 'p1', tag: 'TAG-001', strain: 'Blue Dream', count: 9, weight: { qty: 1, unit: 'lb' }, planted: '2026-01-05T10:00:00Z' },
    { _id: 'p2', tag: 'tag-002', strain: 'OG Kush', count: 10, weight: { qty: 100, unit: 'g' }, planted: '2026-02-05T10:00:00Z' },
    { _id: 'p3', tag: 'TAG-003', strain: '50% Off_Kush', count: 100, weight: { qty: 20, unit: 'oz' }, planted: '2026-03-05T10:00:00Z', IsUsed: 'no' },
    { _id: 'p4', tag: 'TAG-004', strain: 'Sour Diesel', count: 2, weight: { qty: 1, unit: 'kg' }, planted: '2026-03-20T10:00:00Z' },
  ]
  for (const d of docs) await t.store.insert(actor, 'greenleaf', 'fac_plants', d)
  await t.store.insert(actor, 'harbor', 'fac_plants', { _id: 'p1', tag: 'HARBOR-001', strain: 'Blue Dream', count: 1 })
})
afterAll(() => t?.cleanup())

const page = (q: Partial<Parameters<TestDatabase['store']['page']>[2]> = {}) => t.store.page('greenleaf', 'fac_plants', { offset: 0, limit: 10, ...q })

describe(`store on ${TEST_DB}`, () => {
  it('keeps organisations apart: same id, different documents', async () => {
    expect((await t.store.get('greenleaf', 'fac_plants', 'p1'))?.tag).toBe('TAG-001')
    expect((await t.store.get('harbor', 'fac_plants', 'p1'))?.tag).toBe('HARBOR-001')
    expect(await t.store.get('other', 'fac_plants', 'p1')).toBeNull()
    expect((await page()).total).toBe(4)
    expect((await t.store.page('harbor', 'fac_plants', { offset: 0, limit: 10 })).rows.map((r) => r.tag)).toEqual(['HARBOR-001'])
  })

  it('sets the record fields of SPEC §3 and normalises dates', async () => {
    const d = await t.store.get('greenleaf', 'fac_plants', 'p2')
    expect(d).toMatchObject({ _id: 'p2', planted: '2026-02-05T10:00:00.000Z' })
    expect(d!.octs).toBe(d!.cts)
    expect(Date.parse(d!.ts)).toBeGreaterThanOrEqual(Date.parse(d!.cts))
  })

  it('filters active records, date ranges and literal, case-insensitive search', async () => {
    expect((await page({ activeOnly: true })).total).toBe(3)
    const r = await page({ range: { key: 'planted', from: '2026-02-01', to: '2026-03-10' } })
    expect(r.rows.map((x) => x._id).sort()).toEqual(['p2', 'p3'])
    expect((await page({ search: { key: 'tag', text: 'tag-00' } })).total).toBe(4)
    expect((await page({ search: { key: 'strain', text: '50%' } })).rows.map((x) => x._id)).toEqual(['p3'])
    expect((await page({ search: { key: 'strain', text: '%' } })).total).toBe(1) // % is text, not a wildcard
    expect((await page({ search: { key: 'strain', text: 'f_k' } })).total).toBe(1)
    expect((await page({ search: { key: 'strain', text: "' OR 1=1 --" } })).total).toBe(0)
  })

  it('sorts by type: numbers as numbers, measures across units, dates as time, text ignoring case', async () => {
    const ids = async (key: string, dir: 'asc' | 'desc' = 'asc') => (await page({ sort: { key, dir } })).rows.map((x) => x._id)
    expect(await ids('count')).toEqual(['p4', 'p1', 'p2', 'p3']) // 2 < 9 < 10 < 100
    expect(await ids('weight')).toEqual(['p2', 'p1', 'p3', 'p4']) // 100 g < 1 lb < 20 oz < 1 kg
    expect(await ids('planted', 'desc')).toEqual(['p4', 'p3', 'p2', 'p1'])
    expect(await ids('tag')).toEqual(['p1', 'p2', 'p3', 'p4'])
  })

  it('pages with skip/limit and a total count', async () => {
    const a = await page({ sort: { key: 'count', dir: 'asc' }, limit: 2 })
    const b = await page({ sort: { key: 'count', dir: 'asc' }, limit: 2, offset: 2 })
    expect(a.total).toBe(4)
    expect([...a.rows, ...b.rows].map((x) => x._id)).toEqual(['p4', 'p1', 'p2', 'p3'])
  })

  it('refuses unknown or unsafe field names with a clear error', async () => {
    await expect(page({ sort: { key: 'nope', dir: 'asc' } })).rejects.toThrow(/unknown sort field "nope"/)
    await expect(page({ search: { key: "tag' OR '1", text: 'x' } })).rejects.toThrow(/unknown search field/)
    await expect(t.store.page('greenleaf', 'fac_nope', { offset: 0, limit: 1 })).rejects.toThrow(/unknown table/)
    await expect(t.store.page('greenleaf', 'x; drop table c_fac_plants', { offset: 0, limit: 1 })).rejects.toThrow(/not a collection name/)
    expect((await page()).total).toBe(4)
  })

  it('updates with an audit row holding before and after, and refuses a stale save', async () => {
    const before = (await t.store.get('greenleaf', 'fac_plants', 'p4'))!
    const after = await t.store.update(actor, 'greenleaf', 'fac_plants', 'p4', { count: 3, cts: '2000-01-01' }, { expectTs: before.ts })
    expect(after.count).toBe(3)
    expect(after.cts).toBe(before.cts) // cts is not taken from a client without allowCts
    expect(Date.parse(after.ts)).toBeGreaterThan(Date.parse(before.ts))
    const err = await t.store.update(actor, 'greenleaf', 'fac_plants', 'p4', { count: 4 }, { expectTs: before.ts }).catch((e) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).status).toBe(409)
    expect((await t.store.get('greenleaf', 'fac_plants', 'p4'))!.count).toBe(3)
    const h = await t.store.history('greenleaf', 'fac_plants', 'p4')
    expect(h.map((x) => x.action)).toEqual(['insert', 'update'])
    expect(h[1]).toMatchObject({ uid: 'u-test', orig_uid: 'u-admin', before: { count: 2 }, after: { count: 3 } })
  })

  it('lets admin set cts while octs keeps the original', async () => {
    const d = await t.store.update(actor, 'greenleaf', 'fac_plants', 'p2', { cts: '2025-12-01T00:00:00Z' }, { allowCts: true })
    expect(d.cts).toBe('2025-12-01T00:00:00.000Z')
    expect(d.octs).not.toBe(d.cts)
  })

  it('rolls back a write whose transaction fails: no document, no audit row', async () => {
    const n = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0].n
    await expect(t.store.insert(actor, 'greenleaf', 'fac_plants', { _id: 'p1', tag: 'dup' })).rejects.toThrow(/already exists/)
    await expect(t.store.insert(actor, 'greenleaf', 'fac_plants', { tag: 'bad date', planted: 'not a date' })).rejects.toThrow(/is not a date/)
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0].n).toBe(n)
    expect((await t.store.get('greenleaf', 'fac_plants', 'p1'))!.tag).toBe('TAG-001')
  })

  it('deletes with an audit row, and nothing can change the audit trail', async () => {
    await t.store.remove(actor, 'greenleaf', 'fac_plants', 'p3')
    expect(await t.store.get('greenleaf', 'fac_plants', 'p3')).toBeNull()
    await expect(t.store.remove(actor, 'greenleaf', 'fac_plants', 'p3')).rejects.toThrow(/no record/)
    const h = await t.store.history('greenleaf', 'fac_plants', 'p3')
    expect(h.at(-1)).toMatchObject({ action: 'delete', after: null, before: { tag: 'TAG-003' } })
    await expect(t.db.query(`UPDATE audit_log SET uid = 'x'`)).rejects.toThrow(/append-only/)
    await expect(t.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/)
    await expect(t.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/)
    expect((await t.store.history('greenleaf', 'fac_plants', 'p3')).length).toBe(2)
  })

  it('emits a change event after each committed write only', async () => {
    const seen: string[] = []
    const on = (e: { action: string; id: string }) => seen.push(`${e.action}:${e.id}`)
    t.store.events.on('change', on)
    await t.store.insert(actor, 'greenleaf', 'fac_plants', { _id: 'p9', tag: 'TAG-009' })
    await t.store.insert(actor, 'greenleaf', 'fac_plants', { _id: 'p9', tag: 'again' }).catch(() => {})
    await t.store.update(actor, 'greenleaf', 'fac_plants', 'p9', { count: 1 })
    t.store.events.off('change', on)
    expect(seen).toEqual(['insert:p9', 'update:p9'])
  })

  it('insertMany is idempotent and audited', async () => {
    const docs = [{ _id: 'm1', tag: 'M1', cts: '2026-01-01T00:00:00Z' }, { _id: 'm2', tag: 'M2' }]
    expect(await t.store.insertMany(actor, 'greenleaf', 'fac_plants', docs)).toBe(2)
    expect(await t.store.insertMany(actor, 'greenleaf', 'fac_plants', docs)).toBe(0)
    const m1 = (await t.store.get('greenleaf', 'fac_plants', 'm1'))!
    expect(m1).toMatchObject({ cts: '2026-01-01T00:00:00.000Z', octs: '2026-01-01T00:00:00.000Z' })
    expect((await t.store.history('greenleaf', 'fac_plants', 'm1')).map((h) => h.action)).toEqual(['insert'])
  })
})
