/**
 * Issue 32 item 8 on the real database: a record's history and its delete confirmation show
 * references (rooms, strains) by their label — looked up once per referenced table, within the
 * organisation only, a gone or foreign id as "(deleted) <id>" — list only the fields that changed
 * (empty ≡ missing, yes/no compared as yes/no), and show text whole.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { vi } from 'vitest'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { loader as screenLoader } from '#app/routes/$'
import { recordHistory } from '#app/screens/record-history.server'
import { findRoute } from '#app/route-map'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-user', requestId: 'history-test' }
let t: TestDatabase
let env: Env
const route = findRoute('/DisSales')!
const LONG = `Deliver to the back door. ${'Ring twice and wait for security. '.repeat(20)}End.`

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  await t.schemas.put(actor, { key: 'set_rooms', label: 'Rooms', items: [{ key: 'name', label: 'Name' }] })
  await t.schemas.put(actor, { key: 'set_strains', label: 'Strains', items: [{ key: 'name', label: 'Name' }] })
  await t.schemas.put(actor, {
    key: 'dis_orders',
    label: 'Orders',
    items: [
      { key: 'orderNo', label: 'Order #' },
      { key: 'notes', label: 'Notes', format: 'trim' },
      { key: 'room', label: 'Room', type: 'list', en: { table: 'set_rooms', labelField: 'name' } },
      { key: 'strain', label: 'Strain', type: 'list', format: 'id:set_strains:name' },
      { key: 'rooms', label: 'Also In', type: 'multilist', en: { table: 'set_rooms', labelField: 'name' } },
      { key: 'paid', label: 'Paid', type: 'check', format: 'check' },
      { key: 'rep', label: 'Sales Rep' },
    ],
  })
  await t.store.insert(actor, 'auth', 'org', { _id: 'greenleaf', fullName: 'Greenleaf', timezone: 'America/Los_Angeles' })
  for (const [id, name] of [['r-1', 'Veg Room A'], ['r-2', 'Flower Room B'], ['r-gone', 'Dry Room']]) await t.store.insert(actor, 'greenleaf', 'set_rooms', { _id: id, name })
  await t.store.insert(actor, 'greenleaf', 'set_strains', { _id: 's-1', name: 'Blue Dream' })
  // another organisation's strain: its name must never show here
  await t.store.insert(actor, 'harbor', 'set_strains', { _id: 's-x', name: 'Harbor Secret' })
  await t.store.insert(actor, 'auth', 'users', { _id: 'u-user', uid: 'u-user', email: 'u-user@x.test', firstname: 'Una', lastname: 'User', role: 'user', org: 'greenleaf', web: 'yes', props: { facilities: ['greenleaf'], modules: { greenleaf: null } } })
})
afterAll(() => t?.cleanup())

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: 'test', clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const history = (id: string) => recordHistory(ctx(), route, 'greenleaf', new URL('http://canopy.test/DisSales'), id)

describe('a record history', () => {
  it('names references by their label, a gone or foreign id as (deleted), and lists only what changed, whole', async () => {
    await t.store.insert(actor, 'greenleaf', 'dis_orders', { _id: 'h1', orderNo: 'SO-H1', room: 'r-1', strain: 's-1', rooms: ['r-1', 'r-2'], paid: 'no' })
    await t.store.update(actor, 'greenleaf', 'dis_orders', 'h1', { room: 'r-2', strain: 's-x', rooms: ['r-2', 'r-gone'], paid: false, rep: '', notes: LONG })
    await t.store.remove(actor, 'greenleaf', 'set_rooms', 'r-gone')
    const { entries } = await history('h1')
    expect(entries.map((e) => e.action)).toEqual(['insert', 'update'])
    expect(entries[0].changes).toContainEqual({ field: 'Room', before: '', after: 'Veg Room A' })
    expect(entries[0].changes).toContainEqual({ field: 'Strain', before: '', after: 'Blue Dream' })
    // in the schema's order
    expect(entries[1].changes).toEqual([
      { field: 'Notes', before: '', after: LONG },
      { field: 'Room', before: 'Veg Room A', after: 'Flower Room B' },
      { field: 'Strain', before: 'Blue Dream', after: '(deleted) s-x' },
      { field: 'Also In', before: 'Veg Room A, Flower Room B', after: 'Flower Room B, (deleted) r-gone' },
    ])
    expect(JSON.stringify(entries)).not.toContain('Harbor Secret')
  })

  it('says nothing changed when a save only changed how values are stored', async () => {
    await t.store.insert(actor, 'greenleaf', 'dis_orders', { _id: 'h2', orderNo: 'SO-H2', paid: 'no', notes: 'short' })
    await t.store.update(actor, 'greenleaf', 'dis_orders', 'h2', { paid: false, rep: '', rooms: [] })
    const { entries } = await history('h2')
    expect(entries[1]).toMatchObject({ action: 'update', changes: [] })
  })

  it('looks labels up once per referenced table, however many versions there are', async () => {
    await t.store.insert(actor, 'greenleaf', 'dis_orders', { _id: 'h3', orderNo: 'SO-H3', room: 'r-1', strain: 's-1' })
    for (let i = 0; i < 6; i++) await t.store.update(actor, 'greenleaf', 'dis_orders', 'h3', { room: i % 2 ? 'r-1' : 'r-2', rooms: [i % 2 ? 'r-2' : 'r-1'] })
    const spy = vi.spyOn(t.store, 'labelsOf')
    try {
      const { entries } = await history('h3')
      expect(entries).toHaveLength(7)
      expect(spy.mock.calls.map((c) => c[1]).sort()).toEqual(['set_rooms', 'set_strains'])
      expect(spy.mock.calls.every((c) => c[0] === 'greenleaf')).toBe(true)
    } finally {
      spy.mockRestore()
    }
  })

  it("labels the record's own creation time 'Record Created'", async () => {
    await t.store.insert(actor, 'greenleaf', 'dis_orders', { _id: 'h4', orderNo: 'SO-H4' })
    await t.store.update(actor, 'greenleaf', 'dis_orders', 'h4', { cts: '2026-01-02T20:00:00.000Z' }, { allowCts: true })
    const { entries } = await history('h4')
    expect(entries[1].changes.map((c) => c.field)).toEqual(['Record Created'])
    expect(entries[1].changes[0].after).toBe('01/02/2026 12:00 PM')
  })
})

describe('the delete confirmation', () => {
  it('shows references by their label and text whole', async () => {
    await t.store.insert(actor, 'greenleaf', 'dis_orders', { _id: 'd1', orderNo: 'SO-D1', notes: LONG, room: 'r-2', strain: 's-x' })
    const sid = await createSession(t, { uid: 'u-user', step: 'done', facility: 'greenleaf' })
    const request = new Request('http://canopy.test/DisSales/d1/delete', { headers: { Cookie: `${COOKIE}=${sid}` } })
    const page = (await (await screenLoader({ request, context: ctx(), params: { '*': 'DisSales/d1/delete' } })).json()) as { confirm: { summary: Array<{ label: string; value: string }> } }
    expect(page.confirm.summary).toEqual([
      { label: 'Order #', value: 'SO-D1' },
      { label: 'Notes', value: LONG },
      { label: 'Room', value: 'Flower Room B' },
      { label: 'Strain', value: '(deleted) s-x' },
    ])
  })
})
