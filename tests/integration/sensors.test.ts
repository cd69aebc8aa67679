/**
 * Sensor readings (issue 8 item 6) over a real bus: a sensor publishes on {org}/bcast/{id}, the
 * server's ingest checks, batches and stores it in the time series (raw, hourly rollup, latest),
 * relays a `reading` event to that organisation's pages only, and drops what is malformed or not
 * its own. The dashboard's data and the compaction job read the same tables.
 */
import mqtt, { type MqttClient } from 'mqtt'
import pino from 'pino'
import type { AppLoadContext } from '@remix-run/node'
import { issueDeviceKey } from '#app/bus/credentials.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { sensorBoard } from '#app/sensors/board.server'
import { ReadingIngest } from '#app/sensors/ingest.server'
import { compactReadings, hourlyHistory, latestReadings, writeReadings } from '#app/sensors/store.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'sensors' }
let t: TestDatabase
let env: Env
let run: RunningBus
let hub: EventHub
let ingest: ReadingIngest
const got: Array<{ org: string; event: string; data: Record<string, unknown> }> = []
const clients: MqttClient[] = []

async function sensor(org: string, deviceID: string): Promise<MqttClient> {
  const k = await issueDeviceKey(t, org, deviceID, 'test')
  const c = mqtt.connect(run.broker!.url, { username: k.username, password: k.password, reconnectPeriod: 0 })
  clients.push(c)
  await new Promise((r) => c.once('connect', r))
  return c
}
const until = async (f: () => boolean | Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms
  while (!(await f())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 25))
  }
}

beforeAll(async () => {
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), HOST: '127.0.0.1', MQTT_PORT: 0, MQTT_WS_PORT: 0 }
  for (const s of [
    { key: 'sen_devices', label: 'Devices', items: [{ key: 'deviceID', label: 'Device ID' }, { key: 'deviceName', label: 'Name' }, { key: 'type', label: 'Type' }, { key: 'location', label: 'Location' }] },
    { key: 'dictionary', label: 'Dictionary', items: ['code', 'label', 'short', 'units', 'max', 'low', 'med', 'warn', 'error'].map((k) => ({ key: k, label: k })) },
  ])
    await t.schemas.put(actor, s)
  await t.store.insertMany(actor, 'auth', 'dictionary', [
    { code: 'temp', label: 'Air Temperature', short: 'Temp', units: '°F', max: 110, low: 60, med: 80, warn: 85, error: 90 },
    { code: 'rh', label: 'Relative Humidity', short: 'RH', units: '%', max: 100, low: 40, med: 65, warn: 70, error: 80 },
  ])
  await t.store.insertMany(actor, 'greenleaf', 'sen_devices', [
    { deviceID: 'SEN-1', deviceName: 'Flower Room', type: 'sensor' },
    { deviceID: 'SEN-2', deviceName: 'Veg Room', type: 'sensor' },
    { deviceID: 'SCA-1', deviceName: 'Scale', type: 'scale' },
  ])
  await t.store.insert(actor, 'harbor', 'sen_devices', { deviceID: 'SEN-H', deviceName: 'Vault', type: 'sensor' })
  hub = new EventHub()
  for (const org of ['greenleaf', 'harbor']) hub.attach({ org, send: (event, data) => got.push({ org, event, data: data as Record<string, unknown> }), close: () => {} })
  ingest = new ReadingIngest({ database: t, events: hub, logger: pino({ level: 'silent' }), flushMs: 50 })
  run = await startBus({ env, database: t, events: hub, logger: pino({ level: 'silent' }), handlers: { reading: ingest.handle } })
})
afterAll(async () => {
  for (const c of clients) c.end(true)
  await run?.close()
  await ingest?.close()
  await t?.cleanup()
})

describe('sensor ingest', () => {
  it('stores a reading published on the bus and relays it to that organisation only', async () => {
    const c = await sensor('greenleaf', 'SEN-1')
    const ts = new Date(Date.now() - 1000).toISOString()
    c.publish('greenleaf/bcast/SEN-1', JSON.stringify({ type: 'reading', data: { temp: 78.5, rh: 55 }, ts }))
    await until(async () => (await latestReadings(t.db, 'greenleaf', 'SEN-1')).length === 2)
    const latest = await latestReadings(t.db, 'greenleaf', 'SEN-1')
    expect(latest.map((x) => [x.code, x.value, x.at])).toEqual([
      ['rh', 55, ts],
      ['temp', 78.5, ts],
    ])
    await until(() => got.some((g) => g.event === 'reading'))
    const ev = got.filter((g) => g.event === 'reading')
    expect(ev.map((g) => g.org)).toEqual(['greenleaf'])
    expect(ev[0].data).toEqual({ deviceID: 'SEN-1', ts, data: { temp: 78.5, rh: 55 } })
    expect(await latestReadings(t.db, 'harbor')).toEqual([])
  })

  it('drops malformed readings, unknown devices and codes, implausible values and odd times, and keeps going', async () => {
    const c = await sensor('greenleaf', 'SEN-2')
    const before = ingest.counts.dropped
    for (const p of [
      'not json',
      JSON.stringify({ type: 'reading', data: 'hot' }),
      JSON.stringify({ type: 'reading', data: { temp: 'hot' } }),
      JSON.stringify({ type: 'reading', data: { nitrogen: 5 } }),
      JSON.stringify({ type: 'reading', data: { temp: 1e9 } }),
      JSON.stringify({ type: 'reading', data: { temp: 70 }, ts: '2001-01-01T00:00:00Z' }),
      JSON.stringify({ type: 'reading', data: { temp: 70 }, ts: 'yesterday-ish' }),
      JSON.stringify({ type: 'reading', data: { "temp'; drop table sensor_readings; --": 70 } }),
    ])
      c.publish('greenleaf/bcast/SEN-2', p)
    // a device of the organisation that is not a sensor record: SCA-9 is unknown
    const stranger = await sensor('greenleaf', 'SCA-9')
    stranger.publish('greenleaf/bcast/SCA-9', JSON.stringify({ type: 'reading', data: { temp: 70 } }))
    c.publish('greenleaf/bcast/SEN-2', JSON.stringify({ type: 'reading', data: { temp: 66 } }))
    await until(async () => (await latestReadings(t.db, 'greenleaf', 'SEN-2')).length === 1)
    expect((await latestReadings(t.db, 'greenleaf', 'SEN-2'))[0].value).toBe(66)
    expect(ingest.counts.dropped - before).toBeGreaterThanOrEqual(7)
    expect(await latestReadings(t.db, 'greenleaf', 'SCA-9')).toEqual([])
  })

  it('cannot publish into another organisation: the broker refuses, nothing is stored', async () => {
    const intruder = await sensor('harbor', 'SEN-H')
    const closed = new Promise<void>((r) => intruder.once('close', () => r()))
    intruder.publish('greenleaf/bcast/SEN-1', JSON.stringify({ type: 'reading', data: { temp: 109 } }))
    await closed // the broker drops a client that publishes outside its organisation
    const c = await sensor('harbor', 'SEN-H')
    c.publish('harbor/bcast/SEN-H', JSON.stringify({ type: 'reading', data: { temp: 50 } }))
    await until(async () => (await latestReadings(t.db, 'harbor', 'SEN-H')).length === 1)
    expect((await latestReadings(t.db, 'greenleaf', 'SEN-1')).find((x) => x.code === 'temp')!.value).toBe(78.5)
  })
})

describe('the time series', () => {
  it('rolls up hourly, counts a repeated reading once, keeps the newest as latest', async () => {
    const h = '2026-11-20T10:00:00.000Z'
    const rows = [
      { org: 'greenleaf', deviceID: 'SEN-R', code: 'temp', at: '2026-11-20T10:05:00.000Z', value: 70 },
      { org: 'greenleaf', deviceID: 'SEN-R', code: 'temp', at: '2026-11-20T10:35:00.000Z', value: 80 },
      { org: 'greenleaf', deviceID: 'SEN-R', code: 'temp', at: '2026-11-20T11:10:00.000Z', value: 60 },
    ]
    expect(await writeReadings(t.db, rows)).toBe(3)
    expect(await writeReadings(t.db, rows.slice(0, 2))).toBe(0)
    // an older reading arriving late does not replace the latest
    await writeReadings(t.db, [{ org: 'greenleaf', deviceID: 'SEN-R', code: 'temp', at: '2026-11-20T09:00:00.000Z', value: 99 }])
    const hist = (await hourlyHistory(t.db, 'greenleaf', new Date('2026-11-20T00:00:00Z'))).get('SEN-R\u0000temp')!
    expect(hist.map((p) => [p.hour, p.avg, p.min, p.max])).toEqual([
      ['2026-11-20T09:00:00.000Z', 99, 99, 99],
      [h, 75, 70, 80],
      ['2026-11-20T11:00:00.000Z', 60, 60, 60],
    ])
    expect((await latestReadings(t.db, 'greenleaf', 'SEN-R'))[0]).toMatchObject({ value: 60, at: '2026-11-20T11:10:00.000Z' })
    expect([...(await hourlyHistory(t.db, 'harbor', new Date(0))).keys()]).toEqual(['SEN-H\u0000temp'])
  })

  it('compaction drops raw rows past their days and keeps the rollups', async () => {
    const old = new Date(Date.now() - 10 * 86_400_000).toISOString()
    await writeReadings(t.db, [{ org: 'greenleaf', deviceID: 'SEN-OLD', code: 'rh', at: old, value: 50 }])
    expect(await compactReadings(t.db, 7)).toBeGreaterThanOrEqual(1)
    const raw = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sensor_readings WHERE device_id = 'SEN-OLD'`)
    expect(raw.rows[0].n).toBe(0)
    expect((await hourlyHistory(t.db, 'greenleaf', new Date(0))).get('SEN-OLD\u0000rh')).toHaveLength(1)
    expect(await latestReadings(t.db, 'greenleaf', 'SEN-OLD')).toHaveLength(1)
  })
})

describe('the Sensors dashboard data', () => {
  it('has a gauge per reported code of each sensor, coloured by the thresholds, with 24 hourly points', async () => {
    const now = Date.now()
    await writeReadings(t.db, [
      { org: 'greenleaf', deviceID: 'SEN-2', code: 'temp', at: new Date(now - 2 * 3_600_000).toISOString(), value: 70 },
      { org: 'greenleaf', deviceID: 'SEN-2', code: 'rh', at: new Date(now - 500).toISOString(), value: 75 },
    ])
    const ctx = { database: t } as unknown as AppLoadContext
    const b = await sensorBoard(ctx, 'greenleaf', now)
    expect(b.devices.map((d) => d.deviceID)).toEqual(['SEN-1', 'SEN-2']) // sensors only, those with gauges first
    const veg = b.devices.find((d) => d.deviceID === 'SEN-2')!
    const rh = veg.gauges.find((g) => g.code === 'rh')!
    expect(rh).toMatchObject({ value: 75, level: 'warn', percent: 75, short: 'RH', units: '%' })
    expect(veg.gauges.find((g) => g.code === 'temp')).toMatchObject({ value: 66, level: 'low' })
    expect(rh.history).toHaveLength(24)
    expect(rh.history[23]).toBe(75)
    expect(rh.counts[23]).toBe(1) // a live reading joins this hour's average with its count
    expect(rh.since).toBe(b.since)
    // the dictionary rides along, so a code a device reports for the first time gets its gauge live
    expect(b.codes.temp).toEqual({ code: 'temp', label: 'Air Temperature', short: 'Temp', units: '°F', max: 110, low: 60, med: 80, warn: 85, error: 90 })
    expect(veg.gauges.find((g) => g.code === 'temp')!.history.filter((x) => x !== null).length).toBeGreaterThanOrEqual(1)
    expect((await sensorBoard(ctx, 'harbor', now)).devices.map((d) => d.deviceID)).toEqual(['SEN-H'])
  })
})
