/**
 * The table screen's back end (issue 5) on the real database: referenced labels in the page
 * query (sorted and searched by label, never across organisations), the view read from the URL,
 * row rights, the check toggle's server-side refusals, and the CSV export of a whole view.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { action as screenAction, loader as screenLoader } from '#app/routes/$'
import { loader as exportLoader } from '#app/routes/export.$screen'
import { editAction } from '#app/screens/record-route.server'
import { parseCsv } from '#app/screens/csv'
import { tablePage } from '#app/screens/table-page.server'
import { toggleValue } from '#app/screens/table-toggle'
import { customRange, DATE_SHORTCUTS, shortcutRange } from '#app/format/date-ranges'
import { findRoute } from '#app/route-map'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'table-test' }
let t: TestDatabase
let env: Env
const route = findRoute('/DisSales')!

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  await t.schemas.put(actor, { key: 'set_clients', label: 'Clients', items: [{ key: 'name', label: 'Name', filter: true }] })
  await t.schemas.put(actor, {
    key: 'dis_orders',
    label: 'Orders',
    items: [
      { key: 'orderNo', label: 'Order #', filter: true, sortable: true },
      { key: 'client', label: 'Client', type: 'list', format: 'id:set_clients:name', filter: true },
      { key: 'orderDate', label: 'Order Date', type: 'date' },
      { key: 'total', label: 'Total', type: 'currency' },
      { key: 'paid', label: 'Paid', type: 'check', format: 'check' },
      { key: 'approved', label: 'Approved', type: 'check', format: 'check', ro: 'yes' },
      { key: 'notes', label: 'Notes', format: 'trim' },
    ],
    dateField: 'orderDate',
  })
  await t.store.insert(actor, 'auth', 'org', { _id: 'greenleaf', fullName: 'Greenleaf', timezone: 'America/Los_Angeles' })
  for (const [id, name] of [['c-a', 'alpha'], ['c-b', 'Bravo'], ['c-c', 'charlie']]) await t.store.insert(actor, 'greenleaf', 'set_clients', { _id: id, name })
  // another organisation's client with an id a greenleaf order points at: it must never show
  await t.store.insert(actor, 'harbor', 'set_clients', { _id: 'c-x', name: 'Harbor Secret' })
  const orders = [
    { _id: 'o1', orderNo: 'SO-1', client: 'c-b', orderDate: '2026-03-01T19:30:00Z', total: 10, paid: 'no', notes: 'short' },
    { _id: 'o2', orderNo: 'SO-2', client: 'c-a', orderDate: '2026-03-02T19:30:00Z', total: 20, paid: 'yes', notes: 'Deliver "after 5", please, to the back' },
    { _id: 'o3', orderNo: 'SO-3', client: 'c-c', orderDate: '2026-03-03T19:30:00Z', total: 30, paid: 'no', ed: 'no' },
    { _id: 'o4', orderNo: 'SO-4', client: 'c-x', orderDate: '2026-03-04T19:30:00Z', total: 40, paid: 'no' },
    { _id: 'o5', orderNo: 'SO-5', orderDate: '2026-03-05T19:30:00Z', total: 50, paid: 'no', IsUsed: 'no' },
    { _id: 'o6', orderNo: '=SUM(A1)', client: 'c-a', orderDate: '2026-03-06T19:30:00Z', total: 60, paid: 'no', delete: 'no' },
  ]
  for (const o of orders) await t.store.insert(actor, 'greenleaf', 'dis_orders', o)
  for (const [uid, role] of [['u-user', 'user'], ['u-sup2', 'super'], ['u-cul', 'user']] as const)
    await t.store.insert(actor, 'auth', 'users', { _id: uid, uid, email: `${uid}@x.test`, role, org: 'greenleaf', web: 'yes', props: { facilities: ['greenleaf'], modules: { greenleaf: uid === 'u-cul' ? ['cul'] : null } } })
})
afterAll(() => t?.cleanup())

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: 'test', clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const user = (uid: string, role = 'user') => ({ uid, email: `${uid}@x.test`, role, org: 'greenleaf' })
const view = (query: string, who = user('u-user')) => tablePage(ctx(), who, route, 'greenleaf', new URL(`http://canopy.test/DisSales${query}`))
const sid = (uid: string) => createSession(t, { uid, step: 'done', facility: 'greenleaf' })

describe('the table page', () => {
  it('resolves referenced labels in the page query, within the organisation only', async () => {
    const d = await view('?sort=orderNo&dir=asc')
    const byNo = Object.fromEntries(d.rows.map((r) => [r.values.orderNo, r.labels.client]))
    expect(byNo).toEqual({ 'SO-1': 'Bravo', 'SO-2': 'alpha', 'SO-3': 'charlie', 'SO-4': null, '=SUM(A1)': 'alpha' })
    expect(d.total).toBe(5) // SO-5 is not in use
    expect((await view('?all=1')).total).toBe(6)
  })

  it("leaves a row's empty values out of the page's data; a cell shows them as before", async () => {
    const made = await t.store.insert(actor, 'greenleaf', 'dis_orders', { _id: 'o-empty', orderNo: 'SO-EMPTY', client: '', orderDate: '2026-03-07T19:30:00Z', total: 0, paid: 'no', approved: null, notes: '' })
    try {
      const [row] = (await view('?col=orderNo&q=SO-EMPTY')).rows
      expect(row.values).toEqual({ orderNo: 'SO-EMPTY', orderDate: '2026-03-07T19:30:00.000Z', total: 0, paid: 'no' })
    } finally {
      await t.store.remove(actor, 'greenleaf', 'dis_orders', made._id)
    }
  })

  it('sorts a referenced column by its label, case-insensitively, missing references last', async () => {
    const asc = await view('?sort=client&dir=asc')
    expect(asc.rows.map((r) => r.labels.client)).toEqual(['alpha', 'alpha', 'Bravo', 'charlie', null])
    const desc = await view('?sort=client&dir=desc')
    expect(desc.rows.map((r) => r.labels.client)).toEqual([null, 'charlie', 'Bravo', 'alpha', 'alpha'])
  })

  it('searches a referenced column by its label, and counts the matches', async () => {
    const d = await view('?col=client&q=ALPH')
    expect(d.total).toBe(2)
    expect(d.rows.map((r) => r.values.orderNo).sort()).toEqual(['=SUM(A1)', 'SO-2'])
    expect((await view('?col=client&q=secret')).total).toBe(0)
  })

  it('filters a custom date range in the facility time zone, both days included', async () => {
    // 2026-03-02T19:30Z is 11:30 on 03/02 in Los Angeles
    const d = await view('?from=2026-03-02&to=2026-03-03&sort=orderNo')
    expect(d.rows.map((r) => r.values.orderNo)).toEqual(['SO-2', 'SO-3'])
    expect(d.rangeLabel).toBe('03/02/2026 – 03/03/2026')
  })

  it('counts exactly up to the cap, and past it gives the planner estimate, flagged as not exact', async () => {
    const q = { offset: 0, limit: 2, activeOnly: false }
    const exact = await t.store.page('greenleaf', 'dis_orders', { ...q, countCap: 6 })
    expect([exact.total, exact.exact]).toEqual([6, true])
    const capped = await t.store.page('greenleaf', 'dis_orders', { ...q, countCap: 3 })
    expect(capped.exact).toBe(false)
    expect(capped.total).toBeGreaterThanOrEqual(4) // never less than what was counted
    expect(capped.rows).toHaveLength(2)
    expect((await t.store.page('greenleaf', 'dis_orders', q)).exact).toBe(true)
  })

  it('drops what it cannot use with a notice and shows the last page for a page past the end', async () => {
    const d = await view('?sort=nosuch&df=total&size=7&page=9&x=1')
    expect(d.notices.join(' ')).toMatch(/Ignored "x"/)
    expect(d.notices.join(' ')).toMatch(/Ignored size="7"/)
    expect(d.notices.join(' ')).toMatch(/Ignored sort="nosuch"/)
    expect(d.notices.join(' ')).toMatch(/Ignored df="total"/)
    expect(d.notices.join(' ')).toMatch(/Page 9 does not exist/)
    expect(d.page).toBe(1)
    expect(d.rows).toHaveLength(5)
  })

  it('pages with Next and Previous links that continue from the rows shown, and drops a link made for another view', async () => {
    const extra = Array.from({ length: 25 }, (_, i) => ({ _id: `cur-${i}`, orderNo: `SO-C${String(i % 12).padStart(2, '0')}`, total: i }))
    await t.store.insertMany(actor, 'greenleaf', 'dis_orders', extra)
    try {
      const ids = (d: Awaited<ReturnType<typeof view>>) => d.rows.map((r) => r.id)
      const p1 = await view('?sort=orderNo&size=10')
      expect(p1.prev).toBeUndefined()
      const p2 = await view(`?sort=orderNo&size=10&page=2&after=${p1.next}`)
      expect(p2.notices).toEqual([])
      expect(ids(p2)).toEqual(ids(await view('?sort=orderNo&size=10&page=2')))
      const p3 = await view(`?sort=orderNo&size=10&page=3&after=${p2.next}`)
      expect(ids(p3)).toEqual(ids(await view('?sort=orderNo&size=10&page=3')))
      expect(p3.rows).toHaveLength(10)
      const back = await view(`?sort=orderNo&size=10&page=2&before=${p3.prev}`)
      expect(ids(back)).toEqual(ids(p2))
      // a link made for another sort: counted from the start instead, and said so
      const other = await view(`?sort=total&size=10&page=2&after=${p1.next}`)
      expect(other.notices.join(' ')).toMatch(/Ignored the page link/)
      expect(ids(other)).toEqual(ids(await view('?sort=total&size=10&page=2')))
      expect(other.query.after).toBeUndefined()
    } finally {
      for (const e of extra) await t.store.remove(actor, 'greenleaf', 'dis_orders', e._id)
    }
  })

  it("uses the facility's time zone, and a change to it at once (it is kept between requests)", async () => {
    expect((await view('')).timeZone).toBe('America/Los_Angeles')
    await t.store.update(actor, 'auth', 'org', 'greenleaf', { timezone: 'America/New_York' })
    try {
      expect((await view('')).timeZone).toBe('America/New_York')
    } finally {
      await t.store.update(actor, 'auth', 'org', 'greenleaf', { timezone: 'America/Los_Angeles' })
    }
    expect((await view('')).timeZone).toBe('America/Los_Angeles')
  })

  it('gives each row the rights of SPEC §6: ed/delete = no binds users, not super', async () => {
    const rights = (rows: Awaited<ReturnType<typeof view>>['rows']) => Object.fromEntries(rows.map((r) => [r.values.orderNo, [r.canEdit, r.canDelete]]))
    const u = rights((await view('')).rows)
    expect(u['SO-3']).toEqual([false, true])
    expect(u['=SUM(A1)']).toEqual([true, false])
    expect(u['SO-1']).toEqual([true, true])
    const s = rights((await view('', user('u-sup2', 'super'))).rows)
    expect(s['SO-3']).toEqual([true, true])
    expect(s['=SUM(A1)']).toEqual([true, true])
  })
})

describe('toggling a check cell', () => {
  const post = async (uid: string, body: Record<string, string>, query = '') =>
    screenAction({
      request: new Request(`http://canopy.test/DisSales${query}`, { method: 'POST', headers: { Cookie: `${COOKIE}=${await sid(uid)}` }, body: new URLSearchParams(body) }),
      context: ctx(),
      params: { '*': 'DisSales' },
    })
  const paid = async (id: string) => (await t.store.get('greenleaf', 'dis_orders', id))?.paid

  it('saves yes/no and goes back to the same view', async () => {
    const ts = (await t.store.get('greenleaf', 'dis_orders', 'o1'))!.ts
    const res = await post('u-user', { intent: 'toggle', id: 'o1', field: 'paid', value: 'yes', ts }, '?sort=orderNo&page=1')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/DisSales?sort=orderNo&page=1')
    expect(await paid('o1')).toBe('yes')
    const history = await t.store.history('greenleaf', 'dis_orders', 'o1')
    expect(history.at(-1)).toMatchObject({ action: 'update', uid: 'u-user' })
  })

  it('refuses, changing nothing, a locked row, a read-only column, a column that is not yes/no, a stale page and a bad value', async () => {
    const ts = async (id: string) => (await t.store.get('greenleaf', 'dis_orders', id))!.ts
    const cases: Array<[Record<string, string>, number, RegExp]> = [
      [{ intent: 'toggle', id: 'o3', field: 'paid', value: 'yes', ts: await ts('o3') }, 403, /locked/],
      [{ intent: 'toggle', id: 'o4', field: 'approved', value: 'yes', ts: await ts('o4') }, 403, /read-only/],
      [{ intent: 'toggle', id: 'o4', field: 'total', value: 'yes', ts: await ts('o4') }, 400, /not a yes\/no column/],
      [{ intent: 'toggle', id: 'o4', field: 'paid', value: 'maybe', ts: await ts('o4') }, 400, /yes or no/],
      [{ intent: 'toggle', id: 'o4', field: 'paid', value: 'yes', ts: '2020-01-01T00:00:00.000Z' }, 409, /changed this record/],
      [{ intent: 'toggle', id: 'nope', field: 'paid', value: 'yes' }, 404, /no longer exists/],
      [{ intent: 'drop-table' }, 400, /no such request/],
    ]
    for (const [body, status, message] of cases) {
      const res = await post('u-user', body)
      expect(res.status, JSON.stringify(body)).toBe(status)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
    expect(await paid('o3')).toBe('no')
    expect(await paid('o4')).toBe('no')
    // super may change a locked row (SPEC §6)
    const res = await post('u-sup2', { intent: 'toggle', id: 'o3', field: 'paid', value: 'yes', ts: await ts('o3') })
    expect(res.status).toBe(302)
    expect(await paid('o3')).toBe('yes')
  })

  it("takes the table's button as it posts the change (one value, issue 30), through the same rules", async () => {
    const ts = async (id: string) => (await t.store.get('greenleaf', 'dis_orders', id))!.ts
    const res = await post('u-user', { toggle: toggleValue({ value: 'no', id: 'o2', ts: await ts('o2'), field: 'paid' }) }, '?sort=orderNo')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/DisSales?sort=orderNo')
    expect(await paid('o2')).toBe('no')
    // the same refusals as the plain fields', and a value that is not a change at all is refused with words
    const cases: Array<[string, number, RegExp]> = [
      [toggleValue({ value: 'no', id: 'o3', ts: await ts('o3'), field: 'paid' }), 403, /locked/],
      [toggleValue({ value: 'yes', id: 'o2', ts: '2020-01-01T00:00:00.000Z', field: 'paid' }), 409, /changed this record/],
      ['yes', 400, /not a yes\/no column/],
    ]
    for (const [toggle, status, message] of cases) {
      const r = await post('u-user', { toggle })
      expect(r.status, toggle).toBe(status)
      expect(((await r.json()) as { error: string }).error).toMatch(message)
    }
    expect(await paid('o2')).toBe('no')
  })

  it('is refused to a user without the module', async () => {
    await expect(post('u-cul', { intent: 'toggle', id: 'o1', field: 'paid', value: 'no' })).rejects.toMatchObject({ status: 403 })
  })
})

describe('deleting a record', () => {
  const at = async (uid: string, id: string, method = 'GET', body?: Record<string, string>) => {
    const request = new Request(`http://canopy.test/DisSales/${id}/delete?sort=orderNo`, { method, headers: { Cookie: `${COOKIE}=${await sid(uid)}` }, ...(body ? { body: new URLSearchParams(body) } : {}) })
    return method === 'GET' ? screenLoader({ request, context: ctx(), params: { '*': `DisSales/${id}/delete` } }) : screenAction({ request, context: ctx(), params: { '*': `DisSales/${id}/delete` } })
  }

  it('asks first, then deletes, audits and goes back to the same view', async () => {
    await t.store.insert(actor, 'greenleaf', 'dis_orders', { _id: 'gone', orderNo: 'SO-GONE', total: 1 })
    const page = (await (await at('u-user', 'gone')).json()) as { kind: string; confirm: { ts: string; summary: Array<{ label: string; value: string }>; back: string } }
    expect(page.kind).toBe('delete')
    expect(page.confirm.summary[0]).toEqual({ label: 'Order #', value: 'SO-GONE' })
    expect(page.confirm.back).toBe('/DisSales?sort=orderNo')
    const res = await at('u-user', 'gone', 'POST', { intent: 'delete', ts: page.confirm.ts })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/DisSales?sort=orderNo&msg=deleted')
    expect(await t.store.get('greenleaf', 'dis_orders', 'gone')).toBeNull()
    expect((await t.store.history('greenleaf', 'dis_orders', 'gone')).at(-1)).toMatchObject({ action: 'delete', uid: 'u-user' })
  })

  it('refuses a protected row (delete = no) to a user, a stale page, and a missing record', async () => {
    await expect(at('u-user', 'o6')).rejects.toMatchObject({ status: 403 })
    const res = await at('u-user', 'o6', 'POST', { intent: 'delete', ts: '' })
    expect(res.status).toBe(403)
    expect(((await res.json()) as { error: string }).error).toMatch(/protected against deletion/)
    expect(await t.store.get('greenleaf', 'dis_orders', 'o6')).not.toBeNull()
    const stale = await at('u-user', 'o2', 'POST', { intent: 'delete', ts: '2020-01-01T00:00:00.000Z' })
    expect(stale.status).toBe(409)
    expect(await t.store.get('greenleaf', 'dis_orders', 'o2')).not.toBeNull()
    await expect(at('u-user', 'nope')).rejects.toMatchObject({ status: 404 })
    await expect(at('u-cul', 'o2')).rejects.toMatchObject({ status: 403 })
  })
})

describe('CSV export', () => {
  const exp = async (uid: string, path: string) =>
    exportLoader({ request: new Request(`http://canopy.test/export${path}`, { headers: { Cookie: `${COOKIE}=${await sid(uid)}` } }), context: ctx(), params: { screen: path.split('?')[0].slice(1) } })

  it('downloads every row of the view, as shown, with formulas defused', async () => {
    const res = await exp('u-user', '/DisSales?sort=orderNo&dir=asc&size=10&hide=notes')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="dis_orders-\d{4}-\d{2}-\d{2}\.csv"$/)
    const rows = parseCsv((await res.text()).replace(/^\uFEFF/, ''))
    expect(rows[0]).toEqual(['Order #', 'Client', 'Order Date', 'Total', 'Paid', 'Approved'])
    expect(rows.slice(1).map((r) => r[0])).toEqual(["'=SUM(A1)", 'SO-1', 'SO-2', 'SO-3', 'SO-4'])
    expect(rows[2]).toEqual(['SO-1', 'Bravo', '03/01/2026 11:30 AM', '$10.00', 'Yes', 'No'])
    expect(rows[5][1]).toBe('c-x') // a reference that does not resolve here shows its raw value
  })

  it('keeps commas, quotes and line breaks inside a field', async () => {
    const rows = parseCsv((await (await exp('u-user', '/DisSales?col=orderNo&q=SO-2')).text()).replace(/^\uFEFF/, ''))
    expect(rows).toHaveLength(2)
    expect(rows[1].at(-1)).toBe('Deliver "after 5", please, to the back')
  })

  it('is refused for a table the user may not open, and 404 for what is not a table', async () => {
    expect((await exp('u-cul', '/DisSales')).status).toBe(403)
    expect((await exp('u-user', '/HelpTutorials')).status).toBe(404)
    expect((await exp('u-user', '/NoSuchScreen')).status).toBe(404)
  })
})

describe('date-range boundaries in a zone with daylight saving (America/Los_Angeles): from is in, to is out', () => {
  const LA = 'America/Los_Angeles'
  const at = (ms: number) => new Date(ms).toISOString()
  /** rows exactly at the range's edges: its first instant, its last millisecond, its end, the millisecond before it */
  const edges = (tag: string, r: { from?: string; to?: string }) => {
    const from = Date.parse(r.from!)
    const to = Date.parse(r.to!)
    return [
      { _id: `${tag}-first`, orderNo: `${tag}-first`, orderDate: at(from) },
      { _id: `${tag}-last`, orderNo: `${tag}-last`, orderDate: at(to - 1) },
      { _id: `${tag}-end`, orderNo: `${tag}-end`, orderDate: at(to) },
      { _id: `${tag}-before`, orderNo: `${tag}-before`, orderDate: at(from - 1) },
    ]
  }
  const inView = async (tag: string, query: string) =>
    (await view(`?all=1&size=40&col=orderNo&q=${encodeURIComponent(`${tag}-`)}&${query}`)).rows.map((r) => String(r.values.orderNo).slice(tag.length + 1)).sort()

  it('each shortcut keeps a row at its first instant and its last millisecond, and leaves out its end and the moment before', async () => {
    const now = new Date()
    for (const s of DATE_SHORTCUTS) {
      const r = shortcutRange(s, now, LA)
      const rows = edges(`B${s}`, r)
      for (const row of rows) await t.store.insert(actor, 'greenleaf', 'dis_orders', row)
      try {
        expect(await inView(`B${s}`, `range=${s}`), s).toEqual(['first', 'last'])
      } finally {
        for (const row of rows) await t.store.remove(actor, 'greenleaf', 'dis_orders', row._id)
      }
    }
  })

  it('a custom range of the 23-hour and the 25-hour day holds the whole local day, the end day included', async () => {
    for (const [day, first, end] of [
      ['2026-03-08', '2026-03-08T08:00:00.000Z', '2026-03-09T07:00:00.000Z'], // clocks spring forward: 23 hours
      ['2026-11-01', '2026-11-01T07:00:00.000Z', '2026-11-02T08:00:00.000Z'], // clocks fall back: 25 hours
    ]) {
      const r = customRange(day, day, LA)
      expect(r).toEqual({ from: first, to: end })
      const tag = `C${day}`
      const rows = edges(tag, r)
      for (const row of rows) await t.store.insert(actor, 'greenleaf', 'dis_orders', row)
      try {
        expect(await inView(tag, `from=${day}&to=${day}`), day).toEqual(['first', 'last'])
      } finally {
        for (const row of rows) await t.store.remove(actor, 'greenleaf', 'dis_orders', row._id)
      }
    }
  })
})

describe('the display delays the platform keeps (SPEC §9, seeded SEARCH_DEBOUNCE_MS and TABLE_REFRESH_DEBOUNCE_MS)', () => {
  it('the page carries the system variables the toolbar waits by; SPEC defaults when unset or nonsense', async () => {
    expect((await view('')).delays).toEqual({ searchMs: 1000, refreshMs: 500 })
    const vars = [
      { _id: 'gv-search', name: 'SEARCH_DEBOUNCE_MS', value: '250', type: 'number' },
      { _id: 'gv-refresh', name: 'TABLE_REFRESH_DEBOUNCE_MS', value: 'soon', type: 'number' },
    ]
    for (const v of vars) await t.store.insert(actor, 'auth', 'sup_golden_vars', v)
    expect((await view('')).delays).toEqual({ searchMs: 250, refreshMs: 500 })
    await t.store.update(actor, 'auth', 'sup_golden_vars', 'gv-refresh', { value: '1500' })
    expect((await view('')).delays).toEqual({ searchMs: 250, refreshMs: 1500 })
    await t.store.update(actor, 'auth', 'sup_golden_vars', 'gv-search', { value: '-5' })
    expect((await view('')).delays.searchMs).toBe(1000)
    for (const v of vars) await t.store.remove(actor, 'auth', 'sup_golden_vars', v._id)
  })
})

// last: it adds a record the views above do not expect
describe('the edit form action', () => {
  const post = async (uid: string, id: string | null, body: Record<string, string>) =>
    editAction({
      request: new Request(`http://canopy.test/DisSales/${id ? `${id}/edit` : 'new'}?sort=orderNo`, { method: 'POST', headers: { Cookie: `${COOKIE}=${await sid(uid)}` }, body: new URLSearchParams(body) }),
      context: ctx(),
      params: { screen: 'DisSales', ...(id ? { id } : {}) },
    })

  it('the form sets Active on a table whose schema does not list it; the row locks only for admin and super (SPEC §3)', async () => {
    const made = await post('u-user', null, { orderNo: 'SO-FLAG', IsUsed: 'no' })
    expect(made.status).toBe(302)
    const [row] = await t.store.find('greenleaf', 'dis_orders', { orderNo: 'SO-FLAG' }, 1)
    expect(row.IsUsed).toBe('no')
    expect((await view('?all=1')).rows.some((r) => r.values.orderNo === 'SO-FLAG')).toBe(true)
    expect((await view('')).rows.some((r) => r.values.orderNo === 'SO-FLAG')).toBe(false)
    const refused = await post('u-user', row._id, { orderNo: 'SO-FLAG', IsUsed: 'yes', ed: 'no' })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toContain('only an administrator can change it')
    expect((await t.store.get('greenleaf', 'dis_orders', row._id))!.IsUsed).toBe('no')
    expect((await post('u-sup2', row._id, { orderNo: 'SO-FLAG', IsUsed: 'yes', ed: 'no' })).status).toBe(302)
    expect(await t.store.get('greenleaf', 'dis_orders', row._id)).toMatchObject({ IsUsed: 'yes', ed: 'no' })
    expect((await post('u-user', row._id, { orderNo: 'SO-FLAG', notes: 'x' }).catch((r: Response) => r)).status).toBe(403)
    await t.store.remove(actor, 'greenleaf', 'dis_orders', row._id)
  })

  it('adds a record, refuses unknown references and read-only fields, and names what a conflicting save changed', async () => {
    const bad = await post('u-user', null, { orderNo: 'SO-F1', client: 'c-x' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain('choose one of the listed records')
    const forged = await post('u-user', null, { orderNo: 'SO-F1', approved: 'yes' })
    expect(forged.status).toBe(400)
    const ok = await post('u-user', null, { orderNo: 'SO-F1', client: 'c-a' })
    expect(ok.status).toBe(302)
    expect(ok.headers.get('Location')).toBe('/DisSales?sort=orderNo&msg=saved')
    const [rec] = await t.store.find('greenleaf', 'dis_orders', { orderNo: 'SO-F1' }, 1)
    expect(rec).toMatchObject({ client: 'c-a' })
    expect(rec.approved).toBeUndefined()

    // two people opened it; the first saves, the second is refused and told what changed
    const opened = rec.ts
    expect((await post('u-user', rec._id, { __ts: opened, orderNo: 'SO-F1', client: 'c-b' })).status).toBe(302)
    const late = await post('u-user', rec._id, { __ts: opened, orderNo: 'SO-F1', client: 'c-c' })
    expect(late.status).toBe(409)
    const reply = JSON.stringify(await late.json())
    expect(reply).toContain('Someone else saved this record after you opened it')
    // by the client's name, not its id (issue 32 item 8)
    expect(reply).toContain('Client: alpha → Bravo')
    expect((await t.store.get('greenleaf', 'dis_orders', rec._id))?.client).toBe('c-b')
  })
})
