/**
 * The device flows of SPEC §4 over a real bus (embedded broker, real MQTT clients as the devices):
 * a scale answers read_weight (success sound), a silent scale times out (failure sound, the reason
 * in the error), a user's scanner answers a scan or cancels it, a print request carries what
 * SPEC §7 says. Which device serves a field comes from the settings tables.
 */
import type { AppLoadContext } from '@remix-run/node'
import mqtt, { type MqttClient } from 'mqtt'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { issueDeviceKey } from '#app/bus/credentials.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { readWeight, requestPrint, scanCode } from '#app/devices/flows.server'
import { fieldDevices, printersFor } from '#app/devices/lookup.server'
import type { TableSchema } from '#app/schemas/table-schema'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'device-flows' }
const ORG = 'greenleaf'
let t: TestDatabase
let env: Env
let run: RunningBus
let ctx: AppLoadContext
let schema: TableSchema
const clients: MqttClient[] = []

async function device(deviceID: string): Promise<{ c: MqttClient; got: Array<Record<string, unknown>> }> {
  const k = await issueDeviceKey(t, ORG, deviceID, 'test')
  const c = mqtt.connect(run.broker!.url, { username: k.username, password: k.password, reconnectPeriod: 0 })
  clients.push(c)
  await new Promise((r) => c.once('connect', r))
  await c.subscribeAsync(`${ORG}/request/${deviceID}`)
  const got: Array<Record<string, unknown>> = []
  c.on('message', (_tp, p) => got.push(JSON.parse(p.toString())))
  return { c, got }
}
const until = async (f: () => boolean, ms = 5000) => {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

beforeAll(async () => {
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), HOST: '127.0.0.1', MQTT_PORT: 0, MQTT_WS_PORT: 0 }
  run = await startBus({ env, database: t, events: new EventHub(), logger: pino({ level: 'silent' }) })
  ctx = { env, database: t, events: new EventHub(), bus: run.bus, logger: pino({ level: 'silent' }), requestId: 'x' } as AppLoadContext
  for (const s of [
    { key: 'fac_harvests', label: 'Harvests', items: [{ key: 'tag', label: 'Tag' }, { key: 'wet', label: 'Wet', type: 'measure' }, { key: 'dry', label: 'Dry', type: 'measure' }] },
    { key: 'sen_devices', label: 'Devices', items: [{ key: 'deviceID', label: 'Device ID' }, { key: 'deviceName', label: 'Name' }] },
    { key: 'sen_input_devices', label: 'Input Devices', items: [{ key: 'field', label: 'Field' }, { key: 'deviceid', label: 'Device' }, { key: 'type', label: 'Type' }, { key: 'args', label: 'Args' }] },
    { key: 'sen_scanner_settings', label: 'Scanner Settings', items: [{ key: 'table', label: 'Table' }, { key: 'field', label: 'Field' }, { key: 'type', label: 'Type' }] },
    { key: 'set_printers', label: 'Printers', items: [{ key: 'name', label: 'Name' }, { key: 'deviceid', label: 'Device' }, { key: 'field', label: 'Field' }, { key: 'template', label: 'Template' }, { key: 'online', label: 'Online' }] },
  ])
    await t.schemas.put(actor, s)
  schema = (await t.schemas.get('fac_harvests'))!
  await t.store.insertMany(actor, ORG, 'sen_devices', [{ deviceID: 'SCA-1', deviceName: 'Harvest Scale' }, { deviceID: 'SCA-2', deviceName: 'Dry Room Scale' }])
  await t.store.insertMany(actor, ORG, 'sen_input_devices', [
    { field: 'fac_harvests.wet', deviceid: 'SCA-1', type: 'scale', args: 'other' },
    { field: 'fac_harvests.dry', deviceid: 'SCA-2', type: 'scale', args: 'other' },
    { field: 'fac_other.wet', deviceid: 'SCA-9', type: 'scale', args: 'user' },
  ])
  await t.store.insert(actor, ORG, 'sen_scanner_settings', { table: 'fac_harvests', field: 'tag', type: 'rfid' })
  await t.store.insertMany(actor, ORG, 'set_printers', [
    { name: 'Vault Labels', deviceid: 'prt-1', field: 'tag', template: 'package_label_4x2', online: 'yes' },
    { name: 'Badge printer', deviceid: 'prt-2', field: 'badge', template: 'visitor_badge', online: 'yes' },
  ])
  // another organisation's mapping of the same field never applies here
  await t.store.insert(actor, 'harbor', 'sen_input_devices', { field: 'fac_harvests.tag', deviceid: 'SCA-H', type: 'scale', args: 'other' })
})
afterAll(async () => {
  for (const c of clients) c.end(true)
  await run?.close()
  await t?.cleanup()
})

it('finds the devices of each field from the settings of this organisation only', async () => {
  const d = await fieldDevices(ctx, ORG, 'fac_harvests', schema)
  expect(d).toEqual({
    wet: [{ kind: 'scale', deviceid: 'SCA-1', name: 'Harvest Scale', args: 'other' }],
    dry: [{ kind: 'scale', deviceid: 'SCA-2', name: 'Dry Room Scale', args: 'other' }],
    tag: [{ kind: 'rfid', deviceid: null, name: null, args: 'other' }],
  })
  expect((await printersFor(ctx, ORG, schema)).map((p) => p.deviceid)).toEqual(['prt-1'])
})

it('scale: read_weight, the reading comes back, the success sound is sent; a malformed reply is ignored', async () => {
  const scale = await device('SCA-1')
  scale.c.on('message', (_tp, p) => {
    const m = JSON.parse(p.toString())
    if (m.cmd !== 'read_weight') return
    scale.c.publish(`${ORG}/bcast/SCA-1`, JSON.stringify({ data: { weight: 'heavy', unit: 'lb' } }))
    scale.c.publish(`${ORG}/bcast/SCA-1`, '{oops')
    setTimeout(() => scale.c.publish(`${ORG}/bcast/SCA-1`, JSON.stringify({ data: { weight: 2.5, unit: 'lb' } })), 50)
  })
  const [d] = (await fieldDevices(ctx, ORG, 'fac_harvests', schema)).wet
  expect(await readWeight(ctx, ORG, 'u-1', d)).toEqual({ weight: 2.5, unit: 'lb', device: 'SCA-1' })
  await until(() => scale.got.some((m) => m.cmd === 'audio'))
  expect(scale.got).toEqual([{ cmd: 'read_weight', args: 'now', uid: 'u-1' }, { cmd: 'audio', sound: 'success' }])
})

it('scale: no reading in 10 s sends the failure sound and says why', async () => {
  const silent = await device('SCA-2')
  const [d] = (await fieldDevices(ctx, ORG, 'fac_harvests', schema)).dry
  const started = Date.now()
  await expect(readWeight(ctx, ORG, 'u-1', d)).rejects.toMatchObject({ code: 'DEVICE_TIMEOUT', message: 'Dry Room Scale did not send a weight within 10 s. Check that it is on and connected, place the load, and try again.' })
  expect(Date.now() - started).toBeGreaterThanOrEqual(9_900)
  await until(() => silent.got.length === 2)
  expect(silent.got).toEqual([{ cmd: 'read_weight', args: 'now', uid: 'u-1' }, { cmd: 'audio', sound: 'failure' }])
}, 20_000)

it("scan: the user's scanner answers with a tag, or cancels", async () => {
  const token = signAccessToken(env.SESSION_SECRET, { sub: 'u-1', orig: 'u-1', org: ORG, role: 'user' })
  const scanner = mqtt.connect(run.broker!.url, { username: `${ORG}/u-1`, password: token, reconnectPeriod: 0 })
  clients.push(scanner)
  await new Promise((r) => scanner.once('connect', r))
  await scanner.subscribeAsync(`${ORG}/scanreq/u-1/0`)
  let answer: object = { data: { rfid: '1A4FF0300000029000001234' } }
  scanner.on('message', () => scanner.publish(`${ORG}/scanresp/u-1/0`, JSON.stringify(answer)))
  const [d] = (await fieldDevices(ctx, ORG, 'fac_harvests', schema)).tag
  expect(await scanCode(ctx, ORG, 'u-1', d)).toEqual({ code: '1A4FF0300000029000001234' })
  answer = { status: 'cancelled' }
  await expect(scanCode(ctx, ORG, 'u-1', d)).rejects.toMatchObject({ code: 'CONFLICT', message: 'The scan was cancelled on the scanner.' })
})

it('print: the request carries template, id, table, server and org', async () => {
  const printer = await device('prt-1')
  const [p] = await printersFor(ctx, ORG, schema)
  requestPrint(ctx, ORG, p, 'fac_harvests', 'h-1', 'http://127.0.0.1:3000')
  await until(() => printer.got.length === 1)
  expect(printer.got[0]).toEqual({ cmd: 'print', template: 'package_label_4x2', id: 'h-1', table: 'fac_harvests', server: 'http://127.0.0.1:3000', org: ORG })
})

it('says so when the bus is not connected', async () => {
  const [d] = (await fieldDevices(ctx, ORG, 'fac_harvests', schema)).wet
  await expect(readWeight({ ...ctx, bus: undefined } as AppLoadContext, ORG, 'u-1', d)).rejects.toMatchObject({ code: 'UNAVAILABLE' })
})
