/**
 * What reaches a page over /events (issue 8, decision 015), through a real bus (the embedded
 * broker): a table change only for users whose screens show that table, in that organisation, and
 * not for the writer's own browser session (its bus echo is skipped once); a notification
 * published on `{org}/notification/{uid}` (by the server side: a workflow, another instance; a
 * device may not, issue 20 item 4) only to that
 * user's pages, with the global message it names; malformed or unknown notifications are dropped
 * without harm; a global message written on /SupGlobalMessages notifies the facility's people;
 * after a broker restart the pages are told to resync and the write made meanwhile still arrives.
 */
import type { AppLoadContext } from '@remix-run/node'
import mqtt, { type MqttClient } from 'mqtt'
import pino from 'pino'
import { serverPassword, SERVER_USERNAME } from '#app/bus/credentials.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { usersOfFacility } from '#app/bus/global-messages.server'
import { notificationHandler } from '#app/bus/notifications.server'
import { loadEnv, type Env } from '#app/config/env.server'
import type { SessionUser } from '#app/auth/entitlements'
import { readableCollections } from '#app/records/access.server'
import { createRecord } from '#app/records/write.server'
import { ROUTES } from '#app/route-map'
import { EventHub } from '#app/events/event-hub.server'
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
const context = () => ({ database: t, events: hub, bus: run.bus, logger: pino({ level: 'silent' }), requestId: 'realtime' }) as unknown as AppLoadContext
/** an open /events stream of user `u` in `org`, from browser session `session` (as routes/events.ts attaches it) */
async function page(name: string, org: string, u: SessionUser, session = `s-${name}`, h = hub) {
  got[name] = []
  h.attach({ org, uid: u.uid, session, readable: await readableCollections(context(), u, org), send: (event, data) => got[name].push({ event, data: data as Record<string, unknown> }), close: () => {} })
}
const tables = (name: string) => got[name].filter((g) => g.event === 'table').map((g) => g.data)

beforeAll(async () => {
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), HOST: '127.0.0.1', MQTT_PORT: 0, MQTT_WS_PORT: 0 }
  await t.schemas.put(actor, { key: 'inf_global', label: 'Global messages', items: ['title', 'body', 'expanded', 'from'].map((k) => ({ key: k, label: k })) })
  await t.schemas.put(actor, { key: 'fac_plants', label: 'Plants', items: [{ key: 'tag', label: 'Tag' }] })
  await t.schemas.put(actor, { key: 'fin_invoices', label: 'Invoices', items: [{ key: 'no', label: 'No' }] })
  await t.schemas.put(actor, { key: 'org', label: 'Organisations', items: [{ key: 'name', label: 'Name' }] })
  await t.schemas.put(actor, { key: 'users', label: 'Users', items: [{ key: 'uid', label: 'Uid' }, { key: 'email', label: 'Email' }] })
  for (const [uid, facilities, web] of [['u-grower', ['greenleaf', 'harbor'], 'yes'], ['u-fin', ['greenleaf'], 'yes'], ['u-harbor', ['harbor'], 'yes'], ['u-blocked', ['greenleaf'], 'no']] as const)
    await t.store.upsert(actor, 'auth', 'users', uid, { uid, email: `${uid}@x.test`, role: 'user', web, props: { facilities } })
  await t.store.upsert(actor, 'auth', 'inf_global', 'msg-1', { title: 'Inspection', body: 'The state inspector arrives at 2 pm.', from: 'Compliance', expanded: 'no' })
  await t.store.upsert(actor, 'auth', 'inf_global', 'msg-off', { title: 'Old', body: 'Retired', from: 'x', IsUsed: 'no' })
  run = await startBus({ env, database: t, events: hub, logger: pino({ level: 'silent' }), handlers: { notification: notificationHandler({ database: t, events: hub, logger: pino({ level: 'silent' }) }) } })
  await page('grower', 'greenleaf', user('u-grower', 'user', ['cul']))
  await page('grower2', 'greenleaf', user('u-grower2', 'user', ['cul']))
  await page('finance', 'greenleaf', user('u-fin', 'user', ['fin']))
  await page('harbor', 'harbor', user('u-grower', 'user', null))
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
    expect((await readableCollections(context(), user('u-grower', 'user', ['cul']), 'greenleaf')).has('fac_plants')).toBe(true)
    expect((await readableCollections(context(), user('u-fin', 'user', ['fin']), 'greenleaf')).has('fac_plants')).toBe(false)
    await t.store.insert(actor, 'greenleaf', 'fac_plants', { tag: 'T-1' })
    await until(() => tables('grower').length > 0 && tables('grower2').length > 0)
    expect(tables('grower')).toEqual([{ collection: 'fac_plants' }])
    await new Promise((r) => setTimeout(r, 200))
    expect(tables('finance')).toEqual([])
    expect(got.harbor).toEqual([])
  })
  it("skip the writer's own browser session once (its bus echo), and reach it for the next person's write", async () => {
    await t.store.insert({ ...actor, uid: 'u-grower', session: 's-grower' }, 'greenleaf', 'fac_plants', { tag: 'T-2' })
    await until(() => tables('grower2').length === 1)
    await new Promise((r) => setTimeout(r, 200))
    expect(tables('grower')).toEqual([])
    // a colleague's write (from the API: no session) reaches the first writer again
    await t.store.insert({ ...actor, uid: 'u-grower2' }, 'greenleaf', 'fac_plants', { tag: 'T-3' })
    await until(() => tables('grower').length === 1 && tables('grower2').length === 2)
    expect(tables('grower')).toEqual([{ collection: 'fac_plants' }])
  })

  it('sensor readings reach only users who may see the sensors', async () => {
    await t.schemas.put(actor, { key: 'sen_devices', label: 'Devices', items: [{ key: 'deviceID', label: 'Device ID' }] })
    await page('sensors', 'greenleaf', user('u-sens', 'user', ['sensors']))
    hub.publish('greenleaf', 'reading', { deviceID: 'SEN-1', ts: new Date().toISOString(), data: { temp: 70 } })
    expect(got.sensors.filter((g) => g.event === 'reading')).toHaveLength(1)
    expect(got.grower.filter((g) => g.event === 'reading')).toEqual([])
    expect(got.finance.filter((g) => g.event === 'reading')).toEqual([])
  })
})

describe('notifications', () => {
  let bot: MqttClient
  beforeAll(async () => {
    // a bot on the server's side (a workflow, another instance sharing the secret)
    bot = mqtt.connect(run.broker!.url, { username: SERVER_USERNAME, password: serverPassword(env.SESSION_SECRET), reconnectPeriod: 0 })
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

describe('global messages', () => {
  it("a new inf_global record from /SupGlobalMessages notifies the people of the writer's facility, and nobody else", async () => {
    // who may enter greenleaf: not harbor's user, not a blocked account
    expect((await usersOfFacility(context(), 'greenleaf')).sort()).toEqual(['u-fin', 'u-grower'])
    const route = ROUTES.find((r) => r.path === '/SupGlobalMessages')!
    expect(route.collection).toBe('inf_global')
    const superUser = { uid: 'u-super', email: 's@x.test', role: 'super', org: 'greenleaf' } as SessionUser
    const w = { user: superUser, actor: { uid: 'u-super', session: 's-super' }, facility: 'greenleaf' }
    const r = await createRecord(context(), w, 'inf_global', { title: 'Fire drill', body: 'At 3 pm, all staff.', from: 'Safety', expanded: '' }, { via: route })
    await until(() => got.grower.some((g) => g.event === 'notification') && got.finance.some((g) => g.event === 'notification'))
    expect(got.grower.find((g) => g.event === 'notification')!.data).toEqual({ id: r.doc!._id, title: 'Fire drill', body: 'At 3 pm, all staff.', from: 'Safety', expanded: false })
    await new Promise((r) => setTimeout(r, 200))
    // u-grower's page in harbor: the message was written in greenleaf
    expect(got.harbor.filter((g) => g.event === 'notification')).toEqual([])
    expect(got.grower.filter((g) => g.event === 'notification')).toHaveLength(1)
  })
})

describe('broker restart', () => {
  it('the pages are told to resync, and a write committed while the broker was away still reaches them', async () => {
    const h = new EventHub()
    const second = await startBus({ env, database: t, events: h, logger: pino({ level: 'silent' }), handlers: { onReconnect: () => h.broadcast('resync', {}) } })
    await page('watcher', 'greenleaf', user('u-watch', 'user', ['cul']), 's-watch', h)
    const port = second.broker!.port
    await second.broker!.close()
    await until(() => second.bus.state === 'offline')
    await t.store.insert(actor, 'greenleaf', 'fac_plants', { tag: 'while the broker was away' })
    // a new broker on the same port (the shared bus of this file relays into the other hub meanwhile)
    const third = await startBus({ env: { ...env, MQTT_PORT: port }, database: t, events: new EventHub(), logger: pino({ level: 'silent' }) })
    try {
      await until(() => got.watcher.some((g) => g.event === 'resync'), 10_000)
      await until(() => tables('watcher').some((d) => d.collection === 'fac_plants'), 5000)
      expect(second.bus.state).toBe('connected')
    } finally {
      await second.close()
      await third.close()
    }
  })
})
