/**
 * Every statement the store sends about a tenant table is limited to one organisation (decision 069:
 * what distributing by `org`, e.g. with Citus, relies on). The driver's query is wrapped to record the
 * SQL of each store call — reads, pages of every kind (sort, search on a referenced label, range,
 * cursor, a deep page by number), writes, set-based writes, mirror, history — and each reference to a
 * `c_<collection>` table must come with `org = $n` on that table (its alias's `org`, or the bare column
 * when the table has no alias; an INSERT names `org` among its columns).
 */
import type { Queryable } from '#app/db/driver.server'
import { openTestDatabase, TEST_DB, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'org-filter' }
const ORG = 'greenleaf'
let t: TestDatabase
const seen: string[] = []

const KEYWORDS = new Set(['where', 'join', 'left', 'inner', 'on', 'set', 'order', 'group', 'limit', 'using', 'select', 'returning', 'union', 'cross', 'for', 'offset', 'values', 'default', 'as'])

/** the tenant tables a statement names that it does not limit to one organisation */
function unfiltered(sql: string): string[] {
  const out: string[] = []
  const s = sql.replace(/\s+/g, ' ')
  for (const m of s.matchAll(/\b(INSERT INTO |UPDATE |DELETE FROM |FROM |JOIN )?(c_[a-z0-9_]+)\b(?: AS)?(?: ([a-z_][a-z0-9_]*))?/gi)) {
    const [, verb, table, word] = m
    const alias = word && !KEYWORDS.has(word.toLowerCase()) ? word : null
    if (/^INSERT INTO/i.test(verb ?? '')) {
      if (!new RegExp(`INSERT INTO ${table}(?: AS [a-z_]+)? ?\\( ?org\\b`, 'i').test(s)) out.push(`${table}: INSERT without org`)
      continue
    }
    const who = alias ? `\\b${alias}\\.org` : `(?<![.\\w])org`
    if (!new RegExp(`${who} ?= ?(\\$\\d+|[a-z_]+\\.org\\b)`, 'i').test(s)) out.push(`${table}${alias ? ` ${alias}` : ''}: no org = $n`)
  }
  return out
}

beforeAll(async () => {
  t = await openTestDatabase()
  await t.schemas.put(actor, { key: 'fac_strains', label: 'Strains', items: [{ key: 'name', filter: true, sortable: true }] })
  await t.schemas.put(actor, {
    key: 'fac_plants',
    label: 'Plants',
    items: [
      { key: 'tag', filter: true, sortable: true },
      { key: 'strain', filter: true, sortable: true },
      { key: 'count', type: 'number', sortable: true },
      { key: 'planted', type: 'date', sortable: true },
    ],
  })
  // from here on, every statement is recorded
  const db = t.db
  const record = (q: Queryable): Queryable => ({
    exec: q.exec,
    query: (sql, params) => {
      seen.push(sql)
      return q.query(sql, params)
    },
  })
  const query = db.query.bind(db)
  const transaction = db.transaction.bind(db)
  Object.assign(db, { query: record({ exec: db.exec, query }).query, transaction: (fn: (tx: Queryable) => Promise<unknown>) => transaction((tx) => fn(record(tx))) })
})
afterAll(() => t?.cleanup())

describe(`the store's SQL on ${TEST_DB}`, () => {
  it('limits every statement on a tenant table to one organisation', async () => {
    const s = t.store
    const strain = await s.insert(actor, ORG, 'fac_strains', { name: 'Blue Dream' })
    await s.insertMany(actor, ORG, 'fac_strains', [{ name: 'OG Kush' }, { name: 'Sour Diesel' }])
    for (let i = 0; i < 30; i++) await s.insert(actor, ORG, 'fac_plants', { tag: `TAG-${i}`, strain: strain._id, count: i, planted: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}` })
    const p = (await s.find(ORG, 'fac_plants', { tag: 'TAG-1' }))[0]
    await s.get(ORG, 'fac_plants', p._id)
    await s.count(ORG, 'fac_plants', { strain: strain._id })
    await s.update(actor, ORG, 'fac_plants', p._id, { count: 99 })
    await s.upsert(actor, ORG, 'fac_plants', 'fixed-id', { tag: 'UPSERTED' })
    await s.upsert(actor, ORG, 'fac_plants', 'fixed-id', { tag: 'UPSERTED AGAIN' })
    await s.mirror(actor, ORG, 'fac_strains', [{ _id: strain._id, name: 'Blue Dream' }, { _id: 'm-1', name: 'Mirrored' }], { removeOthers: { idPattern: '^m-' } })
    const refs = [{ key: 'strain', collection: 'fac_strains', labelField: 'name', org: ORG }]
    const first = await s.page(ORG, 'fac_plants', { offset: 0, limit: 5, refs, countCap: 1000 })
    await s.page(ORG, 'fac_plants', { offset: 0, limit: 5, refs, after: first.last })
    await s.page(ORG, 'fac_plants', { offset: 0, limit: 5, refs, sort: { key: 'strain', dir: 'asc' }, search: { key: 'strain', text: 'blue' } })
    await s.page(ORG, 'fac_plants', { offset: 0, limit: 5, sort: { key: 'count', dir: 'desc' }, range: { key: 'planted', from: '2026-01-05', to: '2026-01-20' }, equals: [{ key: 'strain', value: strain._id }], activeOnly: true })
    await s.page(ORG, 'fac_plants', { offset: 20, limit: 5, sort: { key: 'tag', dir: 'asc' } })
    for await (const rows of s.walk(ORG, 'fac_plants', { sort: { key: 'tag', dir: 'asc' } }, 100, 10)) expect(rows.length).toBeGreaterThan(0)
    await s.labelsOf(ORG, 'fac_strains', 'name', [strain._id])
    await s.history(ORG, 'fac_plants', p._id)
    await t.db.transaction(async (tx) => {
      const locked = await s.lockRows(tx, ORG, 'fac_plants', [p._id])
      await s.updateRows(tx, actor, ORG, 'fac_plants', locked.map((d) => ({ id: d._id, doc: { ...d, count: 5 } })))
      await s.insertRows(tx, actor, ORG, 'fac_plants', [{ tag: 'SET-BASED' }])
    })
    await s.remove(actor, ORG, 'fac_plants', 'fixed-id')

    const tenant = seen.filter((q) => /\bc_(fac_plants|fac_strains)\b/.test(q))
    expect(tenant.length).toBeGreaterThan(20)
    const bad = tenant.map((q) => ({ q: q.replace(/\s+/g, ' ').slice(0, 400), why: unfiltered(q) })).filter((x) => x.why.length)
    expect(bad).toEqual([])
  })

  it('the check itself sees a statement that forgets the organisation', () => {
    expect(unfiltered('SELECT doc FROM c_fac_plants WHERE id = $1')).toEqual(['c_fac_plants: no org = $n'])
    expect(unfiltered('SELECT c.doc FROM c_fac_plants c JOIN c_fac_strains s ON s.id = c.doc->>\'strain\' WHERE c.org = $1')).toEqual(['c_fac_strains s: no org = $n'])
    expect(unfiltered('INSERT INTO c_fac_plants (id, doc) VALUES ($1, $2)')).toEqual(['c_fac_plants: INSERT without org'])
    expect(unfiltered('SELECT doc FROM c_fac_plants WHERE org = $1 AND id = $2')).toEqual([])
  })
})
