/**
 * Scenario "bus" (issue 8), on the first engine only (the database is not what is measured):
 * - refresh row: a committed write → the `table` event (Refresh highlight) arriving on 500 open
 *   /events streams of the production Express app, through the embedded broker (store change →
 *   {org}/dtupdates → the server's subscription → the hub → SSE). Target p95 < 200 ms. The 500
 *   streams are read by this same process, so their parsing is counted too.
 * - scale rows: POST /devices/scale (what the Remote Scale button sends) → the server publishes
 *   read_weight → a device client answers at once → the JSON reading comes back; over the embedded
 *   broker and over the Mosquitto on 127.0.0.1:1883. Target < 50 ms plus the device's own delay
 *   (here 0).
 * - throughput row: QoS 0 messages per second from one publisher to one subscriber, embedded
 *   (Aedes) against Mosquitto on loopback, as a ratio.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ServerBuild } from '@remix-run/node'
import mqtt, { type MqttClient } from 'mqtt'
import pino from 'pino'
import { COOKIE } from '../app/auth/session.server'
import { startEmbeddedBroker } from '../app/bus/broker.server'
import { issueDeviceKey } from '../app/bus/credentials.server'
import { startBus, type RunningBus } from '../app/bus/index.server'
import { sendAtOnce } from '../app/bus/no-delay'
import { EventHub } from '../app/events/event-hub.server'
import { createHttpApp } from '../app/server/http.server'
import { stats, type BenchContext, type BenchRow, type Engine, type Scenario, type Stats } from './lib'
import { closeScreen, prepareScreen } from './table-page'
import { openEventStream } from './event-stream'

const BUILD = path.resolve('build/index.js')

/** An anonymous Mosquitto on a free loopback port with TCP_NODELAY on, as ops/mosquitto configures it. */
async function startPrivateMosquitto(): Promise<{ url: string; stop: () => void }> {
  const probe = net.createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const port = (probe.address() as AddressInfo).port
  probe.close()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-mosq-'))
  const conf = path.join(dir, 'mosquitto.conf')
  fs.writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\npersistence false\n`)
  const child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' })
  const stop = () => {
    child.kill()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  const url = `mqtt://127.0.0.1:${port}`
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) break
    const ok = await connectDevice(url, {}).then((c) => (c.end(true), true), () => false)
    if (ok) return { url, stop }
    await new Promise((r) => setTimeout(r, 100))
  }
  stop()
  throw new Error('mosquitto did not start (is the mosquitto package installed?)')
}
const STREAMS = 500
const WRITES = 40
const SCALE_ROUNDS = 200
const MESSAGES = 20_000
const WRITE_TABLE = 'set_rooms'
const SCALE = 'BENCH-SCALE'
const NONE: Stats = { p50: NaN, p95: NaN, n: 0 }
const ACTOR = { uid: 'bench', requestId: 'bench-bus' }

/** Opens one SSE stream; calls `onTable` with the arrival time of every `table` event. */
const openStream = (base: string, cookie: string, onTable: (at: number) => void) =>
  openEventStream(base, { Cookie: `${COOKIE}=${cookie}` }, (frame, at) => {
    if (frame.includes('event: table')) onTable(at)
  })

async function connectDevice(url: string, auth: { username?: string; password?: string }): Promise<MqttClient> {
  const c = sendAtOnce(mqtt.connect(url, { ...auth, reconnectPeriod: 0 }))
  await new Promise<void>((resolve, reject) => {
    c.once('connect', () => resolve())
    c.once('error', reject)
  })
  return c
}

/** Messages per second from one publisher to one subscriber on a broker. */
async function throughput(url: string, auth: { username?: string; password?: string }, topic: string): Promise<number> {
  const sub = await connectDevice(url, auth)
  const pub = await connectDevice(url, auth)
  await sub.subscribeAsync(topic)
  const payload = JSON.stringify({ type: 'reading', data: { temp: 24.1, rh: 55.2, co2: 812 }, ts: new Date().toISOString() })
  let got = 0
  const done = new Promise<void>((resolve) => sub.on('message', () => ++got === MESSAGES && resolve()))
  const t0 = performance.now()
  for (let i = 0; i < MESSAGES; i++) {
    pub.publish(topic, payload)
    if (i % 500 === 499) await new Promise((r) => setImmediate(r)) // let the socket drain
  }
  await Promise.race([done, new Promise((r) => setTimeout(r, 60_000))])
  const secs = (performance.now() - t0) / 1000
  sub.end(true)
  pub.end(true)
  return got / secs
}

async function run(ctx: BenchContext, engine: Engine): Promise<BenchRow[]> {
  if (!fs.existsSync(BUILD)) return []
  process.env.NODE_ENV = 'production'
  const build = (await import(pathToFileURL(BUILD).href)) as ServerBuild
  const s = await prepareScreen(engine, ctx.log)
  const { database } = engine
  const env = { ...s.env, HOST: '127.0.0.1', MQTT_PORT: 0, MQTT_WS_PORT: 0, MQTT_PUBLISH_PER_SEC: 0, RATE_LIMIT_PER_SEC: 0, RATE_LIMIT_ADDRESS_PER_SEC: 0 }
  for (const schema of [
    { key: WRITE_TABLE, label: 'Rooms', items: [{ key: 'name', label: 'Room' }] },
    { key: 'sen_input_devices', label: 'Input Devices', items: ['field', 'deviceid', 'type', 'args'].map((key) => ({ key, label: key })) },
  ])
    if (!(await database.schemas.hasCollection(schema.key))) await database.schemas.put(ACTOR, schema)
  const mapping = await database.store.insert(ACTOR, engine.org, 'sen_input_devices', { field: 'fac_plants.weight', deviceid: SCALE, type: 'scale', args: 'other' })
  const rows: BenchRow[] = []
  const written: string[] = []
  const buses: RunningBus[] = []
  const servers: http.Server[] = []
  const listen = async (bus: RunningBus, events: EventHub) => {
    const app = createHttpApp({ env, database, logger: pino({ level: 'error' }), build, publicDir: path.resolve('public'), events, bus: bus.bus })
    const server = app.listen(0, '127.0.0.1')
    servers.push(server)
    await once(server, 'listening')
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }
  try {
    // ---- a committed write → the Refresh event on 500 streams (embedded broker)
    const events = new EventHub()
    const embedded = await startBus({ env, database, events, logger: pino({ level: 'error' }) })
    buses.push(embedded)
    const base = await listen(embedded, events)
    ctx.log(`bus: opening ${STREAMS} event streams`)
    const arrivals: number[][] = Array.from({ length: WRITES }, () => [])
    let current = -1
    const reqs: http.ClientRequest[] = []
    for (let i = 0; i < STREAMS; i++) reqs.push(await openStream(base, s.sessionId, (at) => current >= 0 && arrivals[current].push(at)))
    ctx.log(`bus: ${WRITES} writes, each awaited on every stream`)
    const lat: number[] = []
    let missing = 0
    for (let w = 0; w < WRITES; w++) {
      current = w
      const doc = await database.store.insert(ACTOR, engine.org, WRITE_TABLE, { name: `Bench room ${w}` })
      const committed = performance.now()
      written.push(doc._id)
      const end = Date.now() + 3000
      while (arrivals[w].length < STREAMS && Date.now() < end) await new Promise((r) => setTimeout(r, 2))
      missing += STREAMS - arrivals[w].length
      for (const at of arrivals[w]) lat.push(at - committed)
      current = -1
      await new Promise((r) => setTimeout(r, 50))
    }
    for (const r of reqs) r.destroy()
    const st = stats(lat)
    rows.push({
      scenario: `bus: write → Refresh event on ${STREAMS} SSE streams`, engine: engine.name, docs: engine.docs, store: st, hand: NONE, target: 'p95<200ms', met: st.p95 < 200,
      notes: [`${WRITES} writes × ${STREAMS} streams = ${lat.length.toLocaleString('en-US')} arrivals (${missing} missing after 3 s); latency from the write's commit to the event read by the stream's client (in this process)`],
    })

    // ---- scale round trip: POST /devices/scale → device answers at once → reading back
    const scaleRow = async (label: string, bus: RunningBus, baseUrl: string, device: MqttClient) => {
      device.on('message', (_t, p) => {
        const m = JSON.parse(p.toString()) as { cmd?: string }
        if (m.cmd === 'read_weight') device.publish(`${engine.org}/bcast/${SCALE}`, JSON.stringify({ data: { weight: 1234.5, unit: 'g' } }))
      })
      await device.subscribeAsync(`${engine.org}/request/${SCALE}`)
      const call = async () => {
        const t = performance.now()
        const r = await fetch(`${baseUrl}/devices/scale`, { method: 'POST', headers: { Cookie: `${COOKIE}=${s.sessionId}`, 'Content-Type': 'application/json', Origin: baseUrl }, body: JSON.stringify({ screen: '/culPlants', field: 'weight' }) })
        const body = (await r.json()) as { weight?: number }
        if (r.status !== 200 || body.weight !== 1234.5) throw new Error(`/devices/scale answered ${r.status}: ${JSON.stringify(body).slice(0, 200)}`)
        return performance.now() - t
      }
      const times: number[] = []
      try {
        for (let i = 0; i < 10; i++) await call()
        for (let i = 0; i < SCALE_ROUNDS; i++) times.push(await call())
      } catch (e) {
        rows.push({ scenario: `bus: scale round trip, ${label}`, engine: engine.name, docs: engine.docs, store: NONE, hand: NONE, target: '<50ms', met: null, notes: [`skipped: ${(e as Error).message}`] })
        return
      }
      const st2 = stats(times)
      rows.push({ scenario: `bus: scale round trip, ${label}`, engine: engine.name, docs: engine.docs, store: st2, hand: NONE, target: 'p95<50ms', met: st2.p95 < 50, notes: [`POST /devices/scale → read_weight → an answer at once (device delay 0) → JSON reading; ${SCALE_ROUNDS} rounds one after another; ${bus.bus.state}`] })
    }
    const key = await issueDeviceKey(database, engine.org, SCALE, 'bench')
    const dev1 = await connectDevice(embedded.broker!.url, key)
    ctx.log('bus: scale round trips, embedded broker')
    await scaleRow('embedded broker', embedded, base, dev1)
    dev1.end(true)

    let mosquittoOk = true
    try {
      const probe = await Promise.race([connectDevice('mqtt://127.0.0.1:1883', {}), new Promise<never>((_, rej) => setTimeout(() => rej(new Error('no answer')), 3000))])
      probe.end(true)
    } catch {
      mosquittoOk = false
    }
    if (mosquittoOk) {
      const viaMosquitto = async (url: string, label: string) => {
        const mEvents = new EventHub()
        // this machine's Mosquitto lets anyone in (the bench's device connects without a key): accepted as a test broker
        const b = await startBus({ env: { ...env, MQTT_URL: url, MQTT_ALLOW_ANONYMOUS: '1' }, database, events: mEvents, logger: pino({ level: 'error' }) })
        buses.push(b)
        const mBase = await listen(b, mEvents)
        const dev = await connectDevice(url, {})
        ctx.log(`bus: scale round trips, ${label}`)
        await scaleRow(label, b, mBase, dev)
        dev.end(true)
      }
      await viaMosquitto('mqtt://127.0.0.1:1883', 'Mosquitto 127.0.0.1:1883')
      // the same with Canopy's Mosquitto setting set_tcp_nodelay (ops/mosquitto/mosquitto.conf), which
      // the shared Mosquitto of this machine (distribution defaults) does not have
      const own = await startPrivateMosquitto().catch((e: Error) => (ctx.log(`bus: private Mosquitto not started: ${e.message}`), null))
      if (own) {
        try {
          await viaMosquitto(own.url, 'Mosquitto, set_tcp_nodelay')
        } finally {
          own.stop()
        }
      }

      // ---- broker throughput, embedded against Mosquitto
      ctx.log(`bus: ${MESSAGES.toLocaleString('en-US')} messages through each broker`)
      const broker = await startEmbeddedBroker({ host: '127.0.0.1', port: 0, wsPort: 0, publishPerSec: 0, authenticate: async () => ({ kind: 'server' }), logger: pino({ level: 'error' }) })
      const a = await throughput(broker.url, { username: 'x', password: 'y' }, 'bench/bcast/x')
      await broker.close()
      const b = await throughput('mqtt://127.0.0.1:1883', {}, `bench${Date.now().toString(36)}/bcast/x`)
      rows.push({
        scenario: 'bus: messages/s, embedded vs Mosquitto', engine: engine.name, docs: engine.docs, store: NONE, hand: NONE, target: '-', met: null,
        notes: [`embedded (Aedes, ACL and rate hooks on, in this process) ${a.toFixed(0)} msg/s; Mosquitto ${b.toFixed(0)} msg/s; ratio ${(a / b).toFixed(2)} (QoS 0, ${MESSAGES.toLocaleString('en-US')} messages of ~90 bytes, one publisher, one subscriber, clients in this process)`],
      })
    } else {
      rows.push({ scenario: 'bus: Mosquitto rows', engine: engine.name, docs: engine.docs, store: NONE, hand: NONE, target: '-', met: null, notes: ['skipped: no Mosquitto answers on 127.0.0.1:1883'] })
    }
  } finally {
    for (const server of servers) {
      server.closeAllConnections()
      server.close()
    }
    for (const b of buses) await b.close()
    for (const id of written) await database.store.remove(ACTOR, engine.org, WRITE_TABLE, id).catch(() => {})
    await database.store.remove(ACTOR, engine.org, 'sen_input_devices', mapping._id).catch(() => {})
    await closeScreen(engine, s)
  }
  return rows
}

export const busScenario: Scenario = {
  name: 'bus',
  legend: [
    `bus: the message bus and the SSE relay (first engine only). Refresh row: a committed write to the Refresh event on ${STREAMS} /events streams (target p95 < 200 ms);`,
    '     scale rows: POST /devices/scale → read_weight → reading back, embedded broker and Mosquitto (target < 50 ms + device delay); throughput: embedded vs Mosquitto msg/s.',
  ],
  async run(ctx) {
    return ctx.engines.length ? run(ctx, ctx.engines[0]) : []
  },
}
