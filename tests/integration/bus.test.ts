/**
 * The message bus (issue 8) on a real database: the embedded broker's sign-in and ACL (devices and
 * users stay under their own organisation; a device publishes only as itself), its packet limits
 * and address, dtupdates after a committed write, malformed payloads, a flooding device, and a
 * broker restart (the server reconnects, nothing it published is lost). The same server client
 * against the Mosquitto on 127.0.0.1:1883 (anonymous there) relays dtupdates once
 * MQTT_ALLOW_ANONYMOUS=1 accepts it; without it, that broker is refused at start.
 */
import net from 'node:net'
import os from 'node:os'
import { Aedes } from 'aedes'
import mqtt, { type MqttClient, type IClientOptions } from 'mqtt'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { issueDeviceKey, revokeDeviceKeys, serverPassword, SERVER_USERNAME } from '#app/bus/credentials.server'
import { ConfigError, loadEnv, type Env } from '#app/config/env.server'
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

  it('a device publishing as another device of its facility, or on dtupdates, notification, scanresp or request, is disconnected and nothing arrives', async () => {
    const own = await issueDeviceKey(t, 'greenleaf', 'SCA-OWN', 'u-admin')
    const forger = await issueDeviceKey(t, 'greenleaf', 'SCA-FORGE', 'u-admin')
    // a listener that hears everything of the facility: the server's identity
    const { c: ear } = await connect(run.broker!.url, { username: SERVER_USERNAME, password: serverPassword(env.SESSION_SECRET) })
    await granted(ear, 'greenleaf/#')
    const heard: Array<[string, string]> = []
    ear.on('message', (tp, p) => heard.push([tp, p.toString()]))
    const { c: honest } = await connect(run.broker!.url, { username: own.username, password: own.password })
    hubEvents.length = 0
    const forged: Array<[string, unknown]> = [
      ['greenleaf/bcast/SCA-OWN', { type: 'weight', data: { weight: 999, unit: 'lb' } }],
      ['greenleaf/bcast/SCA-OWN', { type: 'rfid', data: { rfid: 'FORGED-TAG' } }],
      ['greenleaf/bcast/SCA-OWN', { type: 'reading', data: { temp: 120 } }],
      ['greenleaf/dtupdates', 'fac_notes'],
      ['greenleaf/notification/u-green', { id: 'msg-1' }],
      ['greenleaf/scanresp/u-green/0', { data: { rfid: 'FORGED-TAG' } }],
      ['greenleaf/request/SCA-OWN', { cmd: 'read_weight', args: 'now' }],
    ]
    for (const [topic, body] of forged) {
      const { c, err } = await connect(run.broker!.url, { username: forger.username, password: forger.password })
      expect(err).toBeUndefined()
      const payload = typeof body === 'string' ? body : JSON.stringify(body)
      // either the broker drops the forger, or the listener hears the forgery
      const outcome = new Promise<string>((resolve) => {
        c.once('close', () => resolve('closed'))
        ear.on('message', (tp, p) => tp === topic && p.toString() === payload && resolve('delivered'))
      })
      c.publish(topic, payload)
      expect(await outcome, topic).toBe('closed')
    }
    expect(mem.lines.some((l) => l.msg === 'bus publish refused' && l.who === 'device greenleaf/SCA-FORGE')).toBe(true)
    // the device's own topic still works, and once its message is heard, every forged one had its chance
    const marker = JSON.stringify({ type: 'weight', data: { weight: 1, unit: 'g' } })
    honest.publish('greenleaf/bcast/SCA-OWN', marker)
    await until(() => heard.some(([tp, p]) => tp === 'greenleaf/bcast/SCA-OWN' && p === marker))
    expect(heard).toEqual([['greenleaf/bcast/SCA-OWN', marker]])
    expect(hubEvents.filter((e) => e.event === 'table')).toEqual([])
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

describe('packet limits and address (issue 20 item 3)', () => {
  it('a raw socket announcing a 250 MB CONNECT is closed as soon as the header is read, before its body is kept', async () => {
    const sock = net.connect(run.broker!.port, '127.0.0.1')
    sock.on('error', () => {}) // writes after the close fail (EPIPE, ECONNRESET): expected
    const closed = new Promise<void>((r) => sock.once('close', () => r()))
    await new Promise<void>((r) => sock.once('connect', () => r()))
    // CONNECT, remaining length 250 MB (four length bytes), then 2 MB of its "body", 64 KiB at a time
    sock.write(Buffer.from([0x10, 0x80, 0x80, 0x80, 0x7d]))
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    for (let sent = 0; sent < 2 * 1024 * 1024 && !sock.destroyed; sent += chunk.length) sock.write(chunk)
    await closed
    // closed by the guard (not by a sign-in timeout, which is what closed it before)
    expect(mem.lines.find((l) => l.msg === 'bus packet over the limit: connection closed')).toMatchObject({ reason: 'too-large', bytes: 5 + 0x7d * 128 ** 3, limit: 16 * 1024 })
  })

  it("a signed-in device's 100 KiB message passes; one over MQTT_MAX_PACKET_BYTES (256 KiB) closes its connection and reaches nobody", async () => {
    const k = await issueDeviceKey(t, 'greenleaf', 'BIG-1', 'u-admin')
    const { c: ear } = await connect(run.broker!.url, { username: SERVER_USERNAME, password: serverPassword(env.SESSION_SECRET) })
    await granted(ear, 'greenleaf/bcast/BIG-1')
    const heard: number[] = []
    ear.on('message', (_tp, p) => heard.push(p.length))
    const { c } = await connect(run.broker!.url, { username: k.username, password: k.password })
    c.publish('greenleaf/bcast/BIG-1', Buffer.alloc(100 * 1024, 0x61))
    await until(() => heard.includes(100 * 1024))
    const outcome = new Promise<string>((resolve) => {
      c.once('close', () => resolve('closed'))
      ear.on('message', (_tp, p) => p.length > 256 * 1024 && resolve('delivered'))
    })
    c.publish('greenleaf/bcast/BIG-1', Buffer.alloc(300 * 1024, 0x61))
    expect(await outcome).toBe('closed')
    expect(heard).toEqual([100 * 1024])
    expect(env.MQTT_MAX_PACKET_BYTES).toBe(256 * 1024) // the default
  })

  it('the embedded broker listens on 127.0.0.1 unless MQTT_HOST says otherwise, whatever HOST is', async () => {
    const defaults = loadEnv({ DATA_DIR: tmpDir() })
    expect(defaults.HOST).toBe('0.0.0.0')
    const b = await startBus({ env: { ...defaults, MQTT_PORT: 0, MQTT_WS_PORT: 0 }, database: t, events: new EventHub(), logger: pino({ level: 'silent' }) })
    try {
      // from another interface of this machine (when it has one), nothing answers
      const other = Object.values(os.networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal)
      if (other) {
        const answer = await new Promise<string>((resolve) => {
          const s = net.connect(b.broker!.port, other.address)
          s.once('connect', () => (s.destroy(), resolve('connected')))
          s.once('error', (e: Error & { code?: string }) => resolve(e.code ?? e.message))
        })
        expect(answer).toBe('ECONNREFUSED')
      }
      expect(b.broker!.host).toBe('127.0.0.1')
      expect(defaults.MQTT_HOST).toBe('127.0.0.1')
    } finally {
      await b.close()
    }
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
    const { c: device } = await connect(run.broker!.url, { username: k.username, password: k.password })
    // what only the server may send (another instance of it, sharing the secret)
    const { c } = await connect(run.broker!.url, { username: SERVER_USERNAME, password: serverPassword(env.SESSION_SECRET) })
    hubEvents.length = 0
    device.publish('greenleaf/bcast/BAD-1', '{broken json')
    device.publish('greenleaf/bcast/BAD-1', Buffer.from([0xff, 0xfe, 0x00]))
    for (const [topic, payload] of [
      ['greenleaf/dtupdates', 'DROP TABLE x;'],
      ['greenleaf/dtupdates', '{"not":'],
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

describe('Mosquitto on 127.0.0.1:1883 (anonymous there; issue 20 item 8)', () => {
  it('is refused at start, with a message naming the fix, because it lets clients in without credentials', async () => {
    const log = memoryLogger()
    const started = startBus({ env: { ...env, MQTT_URL: 'mqtt://127.0.0.1:1883' }, database: t, events: new EventHub(), logger: log.logger })
    await expect(started).rejects.toBeInstanceOf(ConfigError)
    await expect(started).rejects.toThrow(
      "The broker at MQTT_URL=mqtt://127.0.0.1:1883 lets clients in without a username and password: anyone who can reach it can read every facility's device traffic and publish readings. Turn anonymous access off there",
    )
    await expect(started).rejects.toThrow(/or set MQTT_ALLOW_ANONYMOUS=1 to accept it/)
  })

  it('with MQTT_ALLOW_ANONYMOUS=1 it is accepted with a warning, and the same server client relays dtupdates through it', async () => {
    const db = await openTestDatabase()
    await db.schemas.put(actor, { key: 'fac_notes', label: 'Notes', items: [{ key: 'text', label: 'Text' }] })
    const h = new EventHub()
    const seen: unknown[] = []
    h.publish = (org, event, data) => void seen.push({ org, event, data })
    const org = `mq${Date.now().toString(36)}`
    const log = memoryLogger()
    const m = await startBus({ env: { ...env, MQTT_URL: 'mqtt://127.0.0.1:1883', MQTT_ALLOW_ANONYMOUS: '1' }, database: db, events: h, logger: log.logger })
    expect(log.lines.filter((l) => l.level === 40 && /without a username and password/.test(String(l.msg))).map((l) => l.msg)).toEqual([
      "The broker at MQTT_URL=mqtt://127.0.0.1:1883 lets clients in without a username and password: anyone who can reach it can read every facility's device traffic and publish readings. Accepted because MQTT_ALLOW_ANONYMOUS=1.",
    ])
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

describe('an external broker that does not answer at start (issue 20 item 8)', () => {
  it('is checked when it first answers: one that lets anonymous clients in is refused then, and the bus closed', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as net.AddressInfo).port
        probe.close(() => resolve(p))
      })
    })
    const log = memoryLogger()
    const m = await startBus({ env: { ...env, MQTT_URL: `mqtt://127.0.0.1:${port}` }, database: t, events: new EventHub(), logger: log.logger })
    expect(m.bus.state).not.toBe('connected')
    // an anonymous broker appears there (Aedes lets everyone in by default)
    const open = await Aedes.createBroker()
    const server = net.createServer((s) => open.handle(s))
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()))
    try {
      await until(() => log.lines.some((l) => l.level === 50 && /lets clients in without a username and password/.test(String(l.msg))), 20_000)
      expect(log.lines.find((l) => l.level === 50)!.msg).toMatch(/or set MQTT_ALLOW_ANONYMOUS=1 to accept it \(a test broker\)\. The message bus is closed until Canopy is restarted\.$/)
      await until(() => m.bus.client.disconnected && open.connectedClients === 0, 10_000)
      expect(m.bus.state).toBe('offline')
    } finally {
      await m.close()
      await new Promise<void>((r) => open.close(() => r()))
      await new Promise<void>((r) => server.close(() => r()))
    }
  })
})
