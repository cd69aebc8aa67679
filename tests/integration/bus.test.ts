/**
 * The message bus (issue 8) on a real database: the embedded broker's sign-in and ACL (devices and
 * users stay under their own organisation), dtupdates after a committed write, malformed payloads,
 * a flooding device, and a broker restart (the server reconnects, nothing it published is lost).
 * The same server client against the Mosquitto on 127.0.0.1:1883 (anonymous there) relays dtupdates.
 */
import mqtt, { type MqttClient, type IClientOptions } from 'mqtt'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { issueDeviceKey, revokeDeviceKeys } from '#app/bus/credentials.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { memoryLogger } from '#tests/helpers/http-app'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'bus-test' }
let t: TestDatabase
let env: Env
let hub: EventHub
let run: RunningBus
const mem = memoryLogger()
const hubEvents: Array<{ org: string; event: string; data: unknown }> = []
const clients: MqttClient[] = []

function connect(url: string, o: IClientOptions): Promise<{ c: MqttClient; err?: Error & { code?: number } }> {
  return new Promise((resolve) => {
    const c = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...o })
    clients.push(c)
    c.once('connect', () => resolve({ c }))
    c.once('error', (err) => resolve({ c, err: err as Error & { code?: number } }))
  })
}
/** the QoS the broker granted: 128 is a refusal (mqtt.js reports it as a subscribe error) */
const granted = (c: MqttClient, topic: string) =>
  new Promise<number>((resolve, reject) =>
    c.subscribe(topic, { qos: 0 }, (e, g) => (e ? (/Subscribe error/.test(e.message) ? resolve(128) : reject(e)) : resolve(g![0].qos))),
  )
const nextMessage = (c: MqttClient, topic: string, ms = 3000) =>
  new Promise<string | null>((resolve) => {
    const on = (tp: string, p: Buffer) => {
      if (tp !== topic) return
      c.off('message', on)
      clearTimeout(tm)
      resolve(p.toString())
    }
    const tm = setTimeout(() => {
      c.off('message', on)
      resolve(null)
    }, ms)
    c.on('message', on)
  })
const until = async (f: () => boolean, ms = 5000) => {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

beforeAll(async () => {
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), HOST: '127.0.0.1', MQTT_PORT: 0, MQTT_WS_PORT: 0, MQTT_PUBLISH_PER_SEC: 20 }
  hub = new EventHub()
  const publish = hub.publish.bind(hub)
  hub.publish = (org, event, data) => {
    hubEvents.push({ org, event, data })
    publish(org, event, data)
  }
  await t.schemas.put(actor, { key: 'fac_notes', label: 'Notes', items: [{ key: 'text', label: 'Text' }] })
  run = await startBus({ env, database: t, events: hub, logger: mem.logger })
})
afterAll(async () => {
  for (const c of clients) c.end(true)
  await run?.close()
  await t?.cleanup()
})

describe('sign-in', () => {
  it('a device key signs in as that device; a wrong, revoked or other-device key is Not authorized', async () => {
    const k = await issueDeviceKey(t, 'greenleaf', 'SCA-01', 'u-admin')
    expect(k.username).toBe('greenleaf/SCA-01')
    expect((await connect(run.broker!.url, { username: k.username, password: k.password })).err).toBeUndefined()
    const wrong = await connect(run.broker!.url, { username: k.username, password: k.password.slice(0, -2) + 'xx' })
    expect(wrong.err?.message).toMatch(/Not authorized/)
    expect((await connect(run.broker!.url, { username: 'greenleaf/SCA-02', password: k.password })).err?.message).toMatch(/Not authorized/)
    expect((await connect(run.broker!.url, { username: 'harbor/SCA-01', password: k.password })).err?.message).toMatch(/Not authorized/)
    expect((await connect(run.broker!.url, {})).err?.message).toMatch(/Not authorized/)
    await revokeDeviceKeys(t, 'greenleaf', 'SCA-01')
    expect((await connect(run.broker!.url, { username: k.username, password: k.password })).err?.message).toMatch(/Not authorized/)
  })

  it('a new key revokes the old one', async () => {
    const a = await issueDeviceKey(t, 'greenleaf', 'RFID-1', 'u-admin')
    const b = await issueDeviceKey(t, 'greenleaf', 'RFID-1', 'u-admin')
    expect((await connect(run.broker!.url, { username: a.username, password: a.password })).err?.message).toMatch(/Not authorized/)
    expect((await connect(run.broker!.url, { username: b.username, password: b.password })).err).toBeUndefined()
  })

  it('a user signs in with an access token of that organisation only, also over WebSocket', async () => {
    const token = signAccessToken(env.SESSION_SECRET, { sub: 'u-green', orig: 'u-green', org: 'greenleaf', role: 'user' })
    expect((await connect(run.broker!.wsUrl, { username: 'greenleaf/u-green', password: token })).err).toBeUndefined()
    expect((await connect(run.broker!.url, { username: 'harbor/u-green', password: token })).err?.message).toMatch(/Not authorized/)
    expect((await connect(run.broker!.url, { username: 'greenleaf/u-other', password: token })).err?.message).toMatch(/Not authorized/)
  })
})

describe('ACL', () => {
  it("a device of organisation A cannot subscribe to B's topics, nor to everything", async () => {
    const k = await issueDeviceKey(t, 'greenleaf', 'SEN-9', 'u-admin')
    const { c } = await connect(run.broker!.url, { username: k.username, password: k.password })
    expect(await granted(c, 'greenleaf/dtupdates')).toBe(0)
    expect(await granted(c, 'greenleaf/#')).toBe(0)
    for (const f of ['harbor/dtupdates', 'harbor/#', '#', '+/dtupdates', '+/#', '$SYS/#', 'greenleaf/../harbor/#']) expect(await granted(c, f), f).toBe(128)
  })

  it("a device publishing under B's organisation is disconnected and B never sees it", async () => {
    const spyKey = await issueDeviceKey(t, 'harbor', 'SEN-H', 'u-admin')
    const { c: spy } = await connect(run.broker!.url, { username: spyKey.username, password: spyKey.password })
    await granted(spy, 'harbor/bcast/+')
    const k = await issueDeviceKey(t, 'greenleaf', 'SEN-10', 'u-admin')
    const { c } = await connect(run.broker!.url, { username: k.username, password: k.password })
    const got = nextMessage(spy, 'harbor/bcast/SEN-H', 1500)
    const closed = new Promise<void>((r) => c.once('close', () => r()))
    c.publish('harbor/bcast/SEN-H', JSON.stringify({ data: { rfid: 'forged' } }))
    await closed
    expect(await got).toBeNull()
  })

  it('a user may only subscribe to their own notifications and scan requests, and publish their own scan replies', async () => {
    const token = signAccessToken(env.SESSION_SECRET, { sub: 'u-green', orig: 'u-green', org: 'greenleaf', role: 'user' })
    const { c } = await connect(run.broker!.url, { username: 'greenleaf/u-green', password: token })
    expect(await granted(c, 'greenleaf/notification/u-green')).toBe(0)
    expect(await granted(c, 'greenleaf/scanreq/u-green/0')).toBe(0)
    for (const f of ['greenleaf/notification/u-other', 'greenleaf/notification/+', 'greenleaf/dtupdates', 'greenleaf/#', 'harbor/notification/u-green'])
      expect(await granted(c, f), f).toBe(128)
  })
})

describe('relays', () => {
  it('a committed write publishes {org}/dtupdates with the table name and reaches that org’s pages', async () => {
    const k = await issueDeviceKey(t, 'greenleaf', 'GW-1', 'u-admin')
    const { c } = await connect(run.broker!.url, { username: k.username, password: k.password })
    await granted(c, 'greenleaf/dtupdates')
    const got = nextMessage(c, 'greenleaf/dtupdates')
    hubEvents.length = 0
    await t.store.insert(actor, 'greenleaf', 'fac_notes', { text: 'hello' })
    expect(await got).toBe('fac_notes')
    await until(() => hubEvents.some((e) => e.event === 'table'))
    expect(hubEvents.filter((e) => e.event === 'table')).toEqual([{ org: 'greenleaf', event: 'table', data: { collection: 'fac_notes' } }])
  })

  it('malformed payloads are logged and dropped; the server keeps going', async () => {
    const k = await issueDeviceKey(t, 'greenleaf', 'BAD-1', 'u-admin')
    const { c } = await connect(run.broker!.url, { username: k.username, password: k.password })
    hubEvents.length = 0
    for (const [topic, payload] of [
      ['greenleaf/dtupdates', 'DROP TABLE x;'],
      ['greenleaf/dtupdates', '{"not":'],
      ['greenleaf/bcast/BAD-1', '{broken json'],
      ['greenleaf/bcast/BAD-1', Buffer.from([0xff, 0xfe, 0x00])],
      ['greenleaf/notification/u-1', '[1,2'],
      ['greenleaf/what/ever/else', 'x'],
    ] as const)
      c.publish(topic, payload as string)
    c.publish('greenleaf/dtupdates', 'fac_notes')
    await until(() => hubEvents.some((e) => e.event === 'table'))
    expect(hubEvents.filter((e) => e.event === 'table')).toEqual([{ org: 'greenleaf', event: 'table', data: { collection: 'fac_notes' } }])
    expect(mem.lines.some((l) => /not valid JSON: dropped/.test(String(l.msg)))).toBe(true)
    expect(mem.lines.some((l) => /without a table name: dropped/.test(String(l.msg)))).toBe(true)
    expect(run.bus.state).toBe('connected')
  })

  it('a device that floods the bus is disconnected; another device is not affected', async () => {
    const a = await issueDeviceKey(t, 'greenleaf', 'FLOOD-1', 'u-admin')
    const b = await issueDeviceKey(t, 'greenleaf', 'CALM-1', 'u-admin')
    const { c: flood } = await connect(run.broker!.url, { username: a.username, password: a.password })
    const { c: calm } = await connect(run.broker!.url, { username: b.username, password: b.password })
    const closed = new Promise<void>((r) => flood.once('close', () => r()))
    for (let i = 0; i < 400; i++) flood.publish('greenleaf/bcast/FLOOD-1', JSON.stringify({ type: 'reading', data: { temp: i } }))
    await closed
    expect(mem.lines.some((l) => /rate exceeded/.test(String(l.msg)))).toBe(true)
    await granted(calm, 'greenleaf/bcast/CALM-1')
    const got = nextMessage(calm, 'greenleaf/bcast/CALM-1')
    calm.publish('greenleaf/bcast/CALM-1', JSON.stringify({ data: { weight: 1, unit: 'g' } }))
    expect(await got).toContain('"weight":1')
    // reconnecting does not refill the flooder's bucket
    const again = await connect(run.broker!.url, { username: a.username, password: a.password })
    const closedAgain = new Promise<void>((r) => again.c.once('close', () => r()))
    for (let i = 0; i < 50; i++) again.c.publish('greenleaf/bcast/FLOOD-1', '{}')
    await closedAgain
  })
})

describe('broker restart', () => {
  it('the server reconnects by itself, reports it, and what it published meanwhile arrives', async () => {
    const db = await openTestDatabase()
    await db.schemas.put(actor, { key: 'fac_notes', label: 'Notes', items: [{ key: 'text', label: 'Text' }] })
    const h = new EventHub()
    const seen: string[] = []
    const pub = h.publish.bind(h)
    h.publish = (org, event, data) => {
      seen.push(`${org}:${event}:${(data as { collection: string }).collection}`)
      pub(org, event, data)
    }
    let reconnects = 0
    const first = await startBus({ env, database: db, events: h, logger: pino({ level: 'silent' }), handlers: { onReconnect: () => reconnects++ } })
    const port = first.broker!.port
    await first.broker!.close()
    await until(() => first.bus.state === 'offline')
    await db.store.insert(actor, 'greenleaf', 'fac_notes', { text: 'written while the broker was down' })
    // a new broker on the same port; the first server client finds it on its own
    const second = await startBus({ env: { ...env, MQTT_PORT: port }, database: db, events: new EventHub(), logger: pino({ level: 'silent' }) })
    await until(() => first.bus.state === 'connected', 10_000)
    expect(reconnects).toBe(1)
    await until(() => seen.includes('greenleaf:table:fac_notes'), 5000)
    await first.close()
    await second.close()
    await db.cleanup()
  })
})

describe('Mosquitto on 127.0.0.1:1883', () => {
  it('the same server client relays dtupdates through it', async () => {
    const db = await openTestDatabase()
    await db.schemas.put(actor, { key: 'fac_notes', label: 'Notes', items: [{ key: 'text', label: 'Text' }] })
    const h = new EventHub()
    const seen: unknown[] = []
    h.publish = (org, event, data) => void seen.push({ org, event, data })
    const org = `mq${Date.now().toString(36)}`
    const m = await startBus({ env: { ...env, MQTT_URL: 'mqtt://127.0.0.1:1883' }, database: db, events: h, logger: pino({ level: 'silent' }) })
    expect(m.broker).toBeNull()
    expect(m.bus.state).toBe('connected')
    const { c } = await connect('mqtt://127.0.0.1:1883', {})
    await granted(c, `${org}/dtupdates`)
    const got = nextMessage(c, `${org}/dtupdates`)
    await db.store.insert(actor, org, 'fac_notes', { text: 'via mosquitto' })
    expect(await got).toBe('fac_notes')
    await until(() => seen.length > 0)
    expect(seen).toEqual([{ org, event: 'table', data: { collection: 'fac_notes' } }])
    await m.close()
    await db.cleanup()
  })
})
