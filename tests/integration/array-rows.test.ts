/**
 * Array sub-tables through the edit form's action (issue 6) on the real database: Add row and
 * Remove pressed without JavaScript (conform intents) re-render the form and save nothing; a save
 * gives new rows digit ids, keeps the read-only columns of edited rows, drops removed ones, checks
 * the ids a row references, and a required sub-table with no rows is refused.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { editAction } from '#app/screens/record-route.server'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'array-rows-test' }
const ORG = 'greenleaf'
let t: TestDatabase
let env: Env

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env) // registers the seed's schemas: dis_orders has line items (product, tag, qty, price, read-only total)
  // Create Order with a required sub-table, to see it refused empty
  await t.schemas.put(actor, {
    key: 'dis_cart',
    label: 'Create Order',
    items: [
      { key: 'rep', label: 'Sales Rep' },
      { key: 'items', label: 'Items', type: 'array', required: true, array: [{ key: 'qty', label: 'Qty', type: 'number', min: 1 }] },
    ],
  })
  await t.store.insert(actor, 'auth', 'org', { _id: ORG, fullName: 'Greenleaf', timezone: 'America/Los_Angeles' })
  await t.store.insert(actor, ORG, 'set_clients', { _id: 'c-a', name: 'Alpha' })
  for (const [id, name] of [['p-1', 'Blue Dream'], ['p-2', 'Sour Diesel'], ['p-3', 'Gelato']]) await t.store.insert(actor, ORG, 'dis_products', { _id: id, name })
  await t.store.insert(actor, 'harbor', 'dis_products', { _id: 'p-x', name: 'Harbor Secret' })
  await t.store.insert(actor, ORG, 'dis_orders', {
    _id: 'o1',
    orderNo: 'SO-1',
    client: 'c-a',
    items: [
      { id: '0', product: 'p-1', qty: 2, price: 10, total: 20 },
      { id: '1', product: 'p-2', qty: 1, price: 5, total: 5 },
    ],
  })
  await t.store.insert(actor, 'auth', 'users', { _id: 'u-user', uid: 'u-user', email: 'u-user@x.test', role: 'user', org: ORG, web: 'yes', props: { facilities: [ORG], modules: { [ORG]: null } } })
})
afterAll(() => t?.cleanup())

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: 'test', clientIp: '127.0.0.1' }) as unknown as AppLoadContext

async function post(screen: string, id: string | null, body: [string, string][]) {
  const sid = await createSession(t, { uid: 'u-user', step: 'done', facility: ORG })
  return editAction({
    request: new Request(`http://canopy.test/${screen}/${id ? `${id}/edit` : 'new'}`, { method: 'POST', headers: { Cookie: `${COOKIE}=${sid}` }, body: new URLSearchParams(body) }),
    context: ctx(),
    params: { screen, ...(id ? { id } : {}) },
  })
}

/** The order's form as the edit page posts it: its two stored rows, then `extra`. */
const orderForm = (ts: string, extra: [string, string][] = []): [string, string][] => [
  ['__ts', ts], ['orderNo', 'SO-1'], ['client', 'c-a'],
  ['items[0].id', '0'], ['items[0].product', 'p-1'], ['items[0].qty', '2'], ['items[0].price', '10'],
  ['items[1].id', '1'], ['items[1].product', 'p-2'], ['items[1].qty', '1'], ['items[1].price', '5'],
  ...extra,
]
const intent = (type: 'insert' | 'remove', index?: number): [string, string] => ['__intent__', JSON.stringify({ type, payload: { name: 'items', ...(index === undefined ? {} : { index }) } })]

describe('Add row and Remove without JavaScript', () => {
  it('answer with the form changed, the opened-at time kept, and save nothing', async () => {
    const before = (await t.store.get(ORG, 'dis_orders', 'o1'))!
    const added = await post('DisSales', 'o1', orderForm(before.ts, [intent('insert')]))
    expect(added.status).toBe(200)
    const reply = await added.json()
    expect(reply.status).toBeUndefined()
    expect(reply.intent).toMatchObject({ type: 'insert', payload: { name: 'items' } })
    expect(reply.initialValue!.items).toHaveLength(3)
    expect(reply.initialValue!.__ts).toBe(before.ts) // the form keeps the time it was opened (the unchanged-since check)

    const removed = await post('DisSales', 'o1', orderForm(before.ts, [intent('remove', 0)]))
    expect(removed.status).toBe(200)
    const rows = (await removed.json()).initialValue!.items
    expect(rows).toEqual([{ id: '1', product: 'p-2', qty: '1', price: '5' }])

    const after = (await t.store.get(ORG, 'dis_orders', 'o1'))!
    expect(after.ts).toBe(before.ts)
    expect(after.items).toEqual(before.items)
    expect((await t.store.history(ORG, 'dis_orders', 'o1')).map((h) => h.action)).toEqual(['insert'])
  })
})

describe('saving a sub-table', () => {
  it('refuses a row referencing a record of another organisation, beside that row, nothing saved', async () => {
    const before = (await t.store.get(ORG, 'dis_orders', 'o1'))!
    const res = await post('DisSales', 'o1', orderForm(before.ts, [['items[2].product', 'p-x'], ['items[2].qty', '1']]))
    expect(res.status).toBe(400)
    expect((await res.json()).error).toEqual({ 'items[2].product': ['Product: choose one of the listed records.'] })
    expect((await t.store.get(ORG, 'dis_orders', 'o1'))!.ts).toBe(before.ts)
  })

  it('gives added rows digit ids, keeps the read-only total of an edited row, and drops a removed one', async () => {
    const before = (await t.store.get(ORG, 'dis_orders', 'o1'))!
    // row 0 removed, row 1 edited, one row added (no id: the form has none for it)
    const res = await post('DisSales', 'o1', [
      ['__ts', before.ts], ['orderNo', 'SO-1'], ['client', 'c-a'],
      ['items[0].id', '1'], ['items[0].product', 'p-2'], ['items[0].qty', '4'], ['items[0].price', '5'],
      ['items[1].id', ''], ['items[1].product', 'p-3'], ['items[1].qty', '6'], ['items[1].price', '2.50'],
    ])
    expect(res.status).toBe(302)
    const items = (await t.store.get(ORG, 'dis_orders', 'o1'))!.items as Array<Record<string, unknown>>
    expect(items).toHaveLength(2)
    expect(items[0]).toEqual({ id: '1', product: 'p-2', qty: 4, price: 5, total: 5 }) // total is read-only: kept as stored
    expect(items[1]).toMatchObject({ product: 'p-3', qty: 6, price: 2.5 })
    expect(items[1].id).toMatch(/^[0-9]{8}$/)
  })

  it('refuses a required sub-table with no rows with its message', async () => {
    const res = await post('DisCart', null, [['rep', 'Kim']])
    expect(res.status).toBe(400)
    expect((await res.json()).error).toEqual({ items: ['You must enter a Items value'] })
    expect(await t.store.find(ORG, 'dis_cart', {}, 10)).toEqual([])
    expect((await post('DisCart', null, [['rep', 'Kim'], ['items[0].qty', '2']])).status).toBe(302)
    const [cart] = await t.store.find(ORG, 'dis_cart', {}, 10)
    expect(cart.items).toEqual([{ qty: 2, id: expect.stringMatching(/^[0-9]{8}$/) }])
  })
})
