/**
 * Scenario "sensors" (issue 8 item 6), on every engine (the database write is most of the cost):
 * sensor readings per second through the real path — device clients publish
 * `{type:'reading', data:{temp, rh, co2, vpd}, ts}` on `{org}/bcast/{deviceID}` to the embedded
 * broker, the server's subscription hands them to the ingest (app/sensors/ingest.server.ts: device,
 * dictionary and value checks, 250 ms / 500-value batches, one statement per batch writing raw rows,
 * hourly rollups and the latest values), then the `reading` events. Timed from the first publish to
 * the last value stored. No target in the issue; printed for comparison between engines and runs.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import mqtt, { type MqttClient } from 'mqtt'
import pino from 'pino'
import { issueDeviceKey } from '../app/bus/credentials.server'
import { startBus } from '../app/bus/index.server'
import { loadEnv } from '../app/config/env.server'
import { PLATFORM_ORG } from '../app/route-map'
import { ensurePlatform } from '../app/seed/index.server'
import { ReadingIngest } from '../app/sensors/ingest.server'
import { EventHub } from '../app/events/event-hub.server'
import type { BenchContext, BenchRow, Engine, Scenario, Stats } from './lib'

const DEVICES = 10
const MESSAGES_PER_DEVICE = 500
const CODES = [
  { code: 'temp', label: 'Air Temperature', max: 110, low: 60, med: 80, warn: 85, error: 90, value: (i: number) => 70 + (i % 20) / 2 },
  { code: 'rh', label: 'Relative Humidity', max: 100, low: 40, med: 65, warn: 70, error: 80, value: (i: number) => 50 + (i % 10) },
  { code: 'co2', label: 'CO2', max: 3000, low: 400, med: 1200, warn: 1500, error: 2000, value: (i: number) => 800 + (i % 50) },
  { code: 'vpd', label: 'VPD', max: 3, low: 0.8, med: 1.2, warn: 1.5, error: 1.8, value: (i: number) => 1 + (i % 5) / 10 },
]
const ACTOR = { uid: 'bench', requestId: 'bench-sensors' }
const NONE: Stats = { p50: NaN, p95: NaN, n: 0 }

async function run(ctx: BenchContext, engine: Engine): Promise<BenchRow> {
  const { database } = engine
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-sensors-'))
  const env = { ...loadEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), HOST: '127.0.0.1', MQTT_PORT: 0, MQTT_WS_PORT: 0, MQTT_PUBLISH_PER_SEC: 0 }
  await ensurePlatform(database, env)
  const org = `benchsen${Date.now().toString(36)}`
  const have = new Set((await database.store.find(PLATFORM_ORG, 'dictionary', {}, 1000)).map((d) => d.code))
  const added = await Promise.all(CODES.filter((c) => !have.has(c.code)).map(({ value: _v, ...c }) => database.store.insert(ACTOR, PLATFORM_ORG, 'dictionary', { ...c, short: c.code })))
  const ids = Array.from({ length: DEVICES }, (_, i) => `SEN-BENCH-${i}`)
  await database.store.insertMany(ACTOR, org, 'sen_devices', ids.map((deviceID) => ({ deviceID, deviceName: deviceID, type: 'sensor' })))
  const events = new EventHub()
  const ingest = new ReadingIngest({ database, events, logger: pino({ level: 'error' }) })
  const bus = await startBus({ env, database, events, logger: pino({ level: 'error' }), handlers: { reading: ingest.handle } })
  const clients: MqttClient[] = []
  try {
    for (const id of ids) {
      const k = await issueDeviceKey(database, org, id, 'bench')
      const c = mqtt.connect(bus.broker!.url, { username: k.username, password: k.password, reconnectPeriod: 0 })
      await new Promise<void>((resolve, reject) => (c.once('connect', () => resolve()), c.once('error', reject)))
      clients.push(c)
    }
    const total = DEVICES * MESSAGES_PER_DEVICE * CODES.length
    ctx.log(`sensors (${engine.name}): ${total.toLocaleString('en-US')} readings from ${DEVICES} devices over the embedded broker`)
    const base = Date.now() - 3_600_000 // within the last day, one second apart per device
    const t0 = performance.now()
    for (let i = 0; i < MESSAGES_PER_DEVICE; i++) {
      clients.forEach((c, d) => c.publish(`${org}/bcast/${ids[d]}`, JSON.stringify({ type: 'reading', data: Object.fromEntries(CODES.map((x) => [x.code, x.value(i + d)])), ts: base + i * 1000 })))
      if (i % 50 === 49) await new Promise((r) => setImmediate(r)) // let the sockets drain
    }
    const end = Date.now() + 120_000
    while (ingest.counts.stored + ingest.counts.dropped < total && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    await ingest.flush()
    const secs = (performance.now() - t0) / 1000
    const stored = ingest.counts.stored
    return {
      scenario: 'sensors: readings stored per second', engine: engine.name, docs: engine.docs, store: NONE, hand: NONE, target: '-', met: null,
      notes: [`${(stored / secs).toFixed(0)} readings/s (${stored.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} stored, ${ingest.counts.dropped} dropped, in ${secs.toFixed(2)} s): ${DEVICES} devices × ${MESSAGES_PER_DEVICE} messages × ${CODES.length} codes, MQTT → checks → batches → raw + hourly + latest`],
    }
  } finally {
    for (const c of clients) c.end(true)
    await bus.close()
    await ingest.close()
    for (const t of ['sensor_readings', 'sensor_hourly', 'sensor_latest']) await database.db.query(`DELETE FROM ${t} WHERE org = $1`, [org])
    for (const d of await database.store.find(org, 'sen_devices', {}, 1000)) await database.store.remove(ACTOR, org, 'sen_devices', d._id).catch(() => {})
    await database.db.query('DELETE FROM device_keys WHERE org = $1', [org])
    for (const d of added) await database.store.remove(ACTOR, PLATFORM_ORG, 'dictionary', d._id).catch(() => {})
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export const sensorsScenario: Scenario = {
  name: 'sensors',
  legend: [`sensors: readings stored per second over the embedded broker (${DEVICES} devices, ${CODES.length} codes a message; ingest checks, batches of 500, one statement each); no target.`],
  async run(ctx) {
    const rows: BenchRow[] = []
    for (const engine of ctx.engines) rows.push(await run(ctx, engine))
    return rows
  },
}
