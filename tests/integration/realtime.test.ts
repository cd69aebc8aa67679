/**
 * What reaches a page over /events (issue 8): a table change only for users whose screens show
 * that table, in that organisation; a notification published on `{org}/notification/{uid}` (by a
 * device or bot of that organisation) only to that user's pages, with the global message it names;
 * malformed or unknown notifications are dropped without harm.
 */
import mqtt, { type MqttClient } from 'mqtt'
import pino from 'pino'
import { issueDeviceKey } from '#app/bus/credentials.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { notificationHandler } from '#app/bus/notifications.server'
import { loadEnv, type Env } from '#app/config/env.server'
import type { SessionUser } from '#app/auth/entitlements'
import { readableCollections } from '#app/records/access.server'
import { EventHub } from '#app/server/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'realtime' }
let t: TestDatabase
let env: Env
let run: RunningBus
const hub = new EventHub()
const got: Record<string, Array<{ event: string; data: Record<string, unknown> }>> = {}
const clients: MqttClient[] = []

const user = (uid: string, role: string, modules: string[] | null): SessionUser =>
  ({ uid, email: `${uid}@x.test`, role, org: 'greenleaf', props: { facilities: ['greenleaf'], modules: { greenleaf: modules } } }) as unknown as SessionUser
const until = async (f: () => boolean, ms = 5000) => {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}
function page(name: string, org: string, u: SessionUser) {
  got[name] = []
  hub.attach({ org, uid: u.uid, readable: readableCollections(u, org), send: (event, data) => got[name].push({ event, data: data as Record<string, unknown> }), close: () => {} })
}

beforeAll(async () => {
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), HOST: '127.0.0.1', MQTT_PORT: 0, MQTT_WS_PORT: 0 }
  await t.schemas.put(actor, { key: 'inf_global', label: 'Global messages', items: ['title', 'body', 'expanded', 'from'].map((k) => ({ key: k, label: k })) })
  await t.schemas.put(actor, { key: 'fac_plants', label: 'Plants', items: [{ key: 'tag', label: 'Tag' }] })
  await t.schemas.put(actor, { key: 'fin_invoices', label: 'Invoices', items: [{ key: 'no', label: 'No' }] })
  await t.store.upsert(actor, 'auth', 'inf_global', 'msg-1', { title: 'Inspection', body: 'The state inspector arrives at 2 pm.', from: 'Compliance', expanded: 'no' })
  await t.store.upsert(actor, 'auth', 'inf_global', 'msg-off', { title: 'Old', body: 'Retired', from: 'x', IsUsed: 'no' })
  page('grower', 'greenleaf', user('u-grower', 'user', ['cul']))
  page('finance', 'greenleaf', user('u-fin', 'user', ['fin']))
  page('harbor', 'harbor', user('u-grower', 'user', null))
  run = await startBus({ env, database: t, events: hub, logger: pino({ level: 'silent' }), handlers: { notification: notificationHandler({ database: t, events: hub, logger: pino({ level: 'silent' }) }) } })
})
afterAll(async () => {
  for (const c of clients) c.end(true)
  await run?.close()
  await t?.cleanup()
})
beforeEach(() => {
  for (const k of Object.keys(got)) got[k].length = 0
})

describe('table changes on /events', () => {
  it('reach the pages of users who may read that table, in that organisation only', async () => {
    expect(readableCollections(user('u-grower', 'user', ['cul']), 'greenleaf').has('fac_plants')).toBe(true)
    expect(readableCollections(user('u-fin', 'user', ['fin']), 'greenleaf').has('fac_plants')).toBe(false)
    await t.store.insert(actor, 'greenleaf', 'fac_plants', { tag: 'T-1' })
    await until(() => got.grower.some((g) => g.event === 'table'))
    expect(got.grower.filter((g) => g.event === 'table').map((g) => g.data)).toEqual([{ collection: 'fac_plants' }])
    await new Promise((r) => setTimeout(r, 200))
    expect(got.finance.filter((g) => g.event === 'table')).toEqual([])
    expect(got.harbor).toEqual([])
  })
  it('sensor readings reach only users who may see the sensors', async () => {
    page('sensors', 'greenleaf', user('u-sens', 'user', ['sensors']))
    hub.publish('greenleaf', 'reading', { deviceID: 'SEN-1', ts: new Date().toISOString(), data: { temp: 70 } })
    expect(got.sensors.filter((g) => g.event === 'reading')).toHaveLength(1)
    expect(got.grower.filter((g) => g.event === 'reading')).toEqual([])
    expect(got.finance.filter((g) => g.event === 'reading')).toEqual([])
  })
})

describe('notifications', () => {
  let bot: MqttClient
  beforeAll(async () => {
    const k = await issueDeviceKey(t, 'greenleaf', 'workflow-bot', 'test')
    bot = mqtt.connect(run.broker!.url, { username: k.username, password: k.password, reconnectPeriod: 0 })
    clients.push(bot)
    await new Promise<void>((r) => bot.once('connect', () => r()))
  })

  it("fetch the global message named and reach only that user's pages of that organisation", async () => {
    bot.publish('greenleaf/notification/u-grower', JSON.stringify({ id: 'msg-1' }))
    await until(() => got.grower.some((g) => g.event === 'notification'))
    expect(got.grower.find((g) => g.event === 'notification')!.data).toEqual({ id: 'msg-1', title: 'Inspection', body: 'The state inspector arrives at 2 pm.', from: 'Compliance', expanded: false })
    await new Promise((r) => setTimeout(r, 200))
    expect(got.finance).toEqual([])
    expect(got.harbor).toEqual([]) // same user, other organisation's page
  })

  it('drop malformed payloads, unknown and retired messages, and keep working', async () => {
    for (const p of ['not json', JSON.stringify({}), JSON.stringify({ id: "x' OR 1=1 --" }), JSON.stringify({ id: 'nope' }), JSON.stringify({ id: 'msg-off' }), JSON.stringify([1, 2])])
      bot.publish('greenleaf/notification/u-grower', p)
    bot.publish('greenleaf/notification/u-grower', JSON.stringify({ id: 'msg-1' }))
    await until(() => got.grower.some((g) => g.event === 'notification'))
    await new Promise((r) => setTimeout(r, 200))
    expect(got.grower.filter((g) => g.event === 'notification')).toHaveLength(1)
    expect(run.bus.state).toBe('connected')
  })
})
