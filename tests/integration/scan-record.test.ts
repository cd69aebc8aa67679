/**
 * A scan on a table screen over a real bus (SPEC §3 scanner settings `id:prt` / `id:more`, §4; decision 060):
 * the user's scanner answers with a code, the table's record holding it is found in this facility only, and
 * its label goes to the table's printer (`id:prt`) or the record opens (`tag:more`). A setting of another
 * organisation never applies; a code no record holds says so.
 */
import type { AppLoadContext } from '@remix-run/node'
import mqtt, { type MqttClient } from 'mqtt'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { issueDeviceKey } from '#app/bus/credentials.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { scanToRecord, tableScanSetting } from '#app/devices/scan-record.server'
import { fieldDevices } from '#app/devices/lookup.server'
import type { TableSchema } from '#app/schemas/table-schema'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'scan-record' }
const ORG = 'greenleaf'
let t: TestDatabase
let env: Env
let run: RunningBus
let ctx: AppLoadContext
let plants: TableSchema
let inventory: TableSchema
const clients: MqttClient[] = []
let nextCode = ''
let plantId = ''
let packageId = ''

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
    { key: 'fac_plants', label: 'Plants', items: [{ key: 'tag', label: 'Plant Tag' }, { key: 'strain', label: 'Strain' }] },
    { key: 'fac_inventory', label: 'Inventory', items: [{ key: 'tag', label: 'Package Tag' }, { key: 'qty', label: 'Quantity' }] },
    { key: 'sen_input_devices', label: 'Input Devices', items: [{ key: 'field', label: 'Field' }, { key: 'deviceid', label: 'Device' }, { key: 'type', label: 'Type' }, { key: 'args', label: 'Args' }] },
    { key: 'sen_scanner_settings', label: 'Scanner Settings', items: [{ key: 'table', label: 'Table' }, { key: 'field', label: 'Field' }, { key: 'type', label: 'Type' }] },
    { key: 'set_printers', label: 'Printers', items: [{ key: 'name', label: 'Name' }, { key: 'deviceid', label: 'Device' }, { key: 'field', label: 'Field' }, { key: 'template', label: 'Template' }, { key: 'online', label: 'Online' }] },
  ])
    await t.schemas.put(actor, s)
  plants = (await t.schemas.get('fac_plants'))!
  inventory = (await t.schemas.get('fac_inventory'))!
  plantId = (await t.store.insert(actor, ORG, 'fac_plants', { tag: '1A4000000000000000000101', strain: 'Blue Dream' }))._id
  packageId = (await t.store.insert(actor, ORG, 'fac_inventory', { tag: '1A4000000000000000000202', qty: 12 }))._id
  // the same tag in another facility is never found from this one
  await t.store.insert(actor, 'harbor', 'fac_inventory', { tag: '1A4000000000000000000303', qty: 1 })
  await t.store.insertMany(actor, ORG, 'sen_scanner_settings', [
    { table: 'fac_plants', field: 'tag', type: 'rfid' },
    { table: 'fac_plants', field: 'id:prt', type: 'rfid' },
    { table: 'fac_inventory', field: 'tag:more', type: 'rfid' },
  ])
  await t.store.insert(actor, 'harbor', 'sen_scanner_settings', { table: 'fac_harvests', field: 'id:more', type: 'rfid' })
  await t.store.insert(actor, ORG, 'set_printers', { name: 'Plant Tags', deviceid: 'prt-1', field: 'tag', template: 'plant_tag_rfid', online: 'yes' })

  // the user's own scanner answers every scan request with the code the test sets
  const token = signAccessToken(env.SESSION_SECRET, { sub: 'u-1', orig: 'u-1', org: ORG, role: 'user' })
  const scanner = mqtt.connect(run.broker!.url, { username: `${ORG}/u-1`, password: token, reconnectPeriod: 0 })
  clients.push(scanner)
  await new Promise((r) => scanner.once('connect', r))
  await scanner.subscribeAsync(`${ORG}/scanreq/u-1/0`)
  scanner.on('message', () => scanner.publish(`${ORG}/scanresp/u-1/0`, JSON.stringify({ data: { rfid: nextCode } })))
})
afterAll(async () => {
  for (const c of clients) c.end(true)
  await run?.close()
  await t?.cleanup()
})

it("reads each table's setting; a lookup setting fills no field, a plain one still does", async () => {
  expect(await tableScanSetting(ctx, ORG, 'fac_plants')).toEqual({ field: 'id', then: 'prt' })
  expect(await tableScanSetting(ctx, ORG, 'fac_inventory')).toEqual({ field: 'tag', then: 'more' })
  expect(await tableScanSetting(ctx, ORG, 'fac_harvests')).toBeNull()
  expect(await fieldDevices(ctx, ORG, 'fac_plants', plants)).toEqual({ tag: [{ kind: 'rfid', deviceid: null, name: null, args: 'other' }] })
  expect(await fieldDevices(ctx, ORG, 'fac_inventory', inventory)).toEqual({})
})

it("id:prt — the scanned record's label goes to the table's printer", async () => {
  const k = await issueDeviceKey(t, ORG, 'prt-1', 'test')
  const printer = mqtt.connect(run.broker!.url, { username: k.username, password: k.password, reconnectPeriod: 0 })
  clients.push(printer)
  await new Promise((r) => printer.once('connect', r))
  await printer.subscribeAsync(`${ORG}/request/prt-1`)
  const got: Array<Record<string, unknown>> = []
  printer.on('message', (_tp, p) => got.push(JSON.parse(p.toString())))
  nextCode = plantId
  const r = await scanToRecord(ctx, { org: ORG, collection: 'fac_plants', schema: plants }, '/culPlants', 'u-1', 'http://127.0.0.1:3000')
  expect(r).toEqual({ code: plantId, id: plantId, then: 'prt', printer: 'Plant Tags' })
  await until(() => got.length === 1)
  expect(got[0]).toEqual({ cmd: 'print', template: 'plant_tag_rfid', id: plantId, table: 'fac_plants', server: 'http://127.0.0.1:3000', org: ORG })
})

it('tag:more — the record holding the scanned tag opens', async () => {
  nextCode = '1A4000000000000000000202'
  expect(await scanToRecord(ctx, { org: ORG, collection: 'fac_inventory', schema: inventory }, '/culInventory', 'u-1', 'http://x')).toEqual({
    code: nextCode,
    id: packageId,
    then: 'more',
    href: `/culInventory/${packageId}/edit`,
  })
})

it("a code no record of this facility holds says so; a table without a lookup setting says how to add one", async () => {
  nextCode = '1A4000000000000000000303'
  await expect(scanToRecord(ctx, { org: ORG, collection: 'fac_inventory', schema: inventory }, '/culInventory', 'u-1', 'http://x')).rejects.toMatchObject({
    code: 'NOT_FOUND',
    message: 'No Inventory record has Package Tag 1A4000000000000000000303.',
  })
  await expect(scanToRecord(ctx, { org: 'harbor', collection: 'fac_inventory', schema: inventory }, '/culInventory', 'u-1', 'http://x')).rejects.toMatchObject({
    code: 'NOT_FOUND',
    message: expect.stringContaining('Settings → Scanner Settings'),
  })
})
