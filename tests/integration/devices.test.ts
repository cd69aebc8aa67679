/**
 * The device simulator (issue 8 item 7) on a real bus: the demo's devices get keys, connect to the
 * embedded broker and behave like the real things through the real device flows — a scale answers
 * read_weight (and hears the success sound), a mapped RFID reader answers a scan, a printer fetches
 * its label as ZPL from the real HTTP app with its device key and writes it to the print folder,
 * sensors publish readings with the dictionary's codes; a scale configured silent never answers, so
 * the flow times out and the scale hears the failure sound. Bad requests are ignored; key issuance
 * through POST /misc/devicekey is for a facility's admins and its own devices only.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import type { MqttClient } from 'mqtt'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { readWeight, requestPrint, scanCode } from '#app/devices/flows.server'
import { fieldDevices, printersFor } from '#app/devices/lookup.server'
import { seeded, SensorDrift, type DictionaryEntry } from '#app/devices/simulator/behaviour'
import { startSimulator, type SimDevice, type Simulator } from '#app/devices/simulator/run'
import { demoDevices } from '#app/devices/simulator/setup.server'
import * as labels from '#app/routes/labels.$table.$id'
import * as deviceKey from '#app/routes/misc.devicekey'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { startHttpApp, type TestServer } from '#tests/helpers/http-app'

const actor = { uid: 'u-test', requestId: 'devices' }
const ORG = 'greenleaf'
const DICT = { code: 'temp', max: 110, low: 60, med: 80, warn: 85, error: 90 }
let t: TestDatabase
let env: Env
let run: RunningBus
let ctx: AppLoadContext
let http: TestServer
let sim: Simulator
let printDir: string
const clients: MqttClient[] = []

const until = async (f: () => boolean, ms = 8000) => {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 25))
  }
}

beforeAll(async () => {
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), HOST: '127.0.0.1', MQTT_PORT: 0, MQTT_WS_PORT: 0 }
  run = await startBus({ env, database: t, events: new EventHub(), logger: pino({ level: 'silent' }) })
  ctx = { env, database: t, events: new EventHub(), bus: run.bus, logger: pino({ level: 'silent' }), requestId: 'x' } as AppLoadContext
  for (const s of [
    { key: 'fac_harvests', label: 'Harvests', items: [{ key: 'tag', label: 'Tag' }, { key: 'strain', label: 'Strain' }, { key: 'wet', label: 'Wet', type: 'measure' }] },
    { key: 'sen_devices', label: 'Devices', items: [{ key: 'deviceID', label: 'Device ID' }, { key: 'deviceName', label: 'Name' }, { key: 'type', label: 'Type' }] },
    { key: 'sen_input_devices', label: 'Input Devices', items: [{ key: 'field', label: 'Field' }, { key: 'deviceid', label: 'Device' }, { key: 'type', label: 'Type' }, { key: 'args', label: 'Args' }] },
    { key: 'sen_scanner_settings', label: 'Scanner Settings', items: [{ key: 'table', label: 'Table' }, { key: 'field', label: 'Field' }, { key: 'type', label: 'Type' }] },
    { key: 'set_printers', label: 'Printers', items: [{ key: 'name', label: 'Name' }, { key: 'deviceid', label: 'Device' }, { key: 'field', label: 'Field' }, { key: 'template', label: 'Template' }, { key: 'online', label: 'Online' }] },
    { key: 'dictionary', label: 'Dictionary', items: ['code', 'label', 'max', 'low', 'med', 'warn', 'error'].map((k) => ({ key: k, label: k })) },
    { key: 'users', label: 'Users', items: [{ key: 'email', label: 'Email' }] },
    { key: 'org', label: 'Organisations', items: [{ key: 'name', label: 'Name' }, { key: 'fullName', label: 'Full name' }] },
  ])
    await t.schemas.put(actor, s)
  await t.store.insertMany(actor, ORG, 'sen_devices', [
    { deviceID: 'SCA-1', deviceName: 'Harvest Scale', type: 'scale' },
    { deviceID: 'SCA-2', deviceName: 'Dry Room Scale', type: 'scale' },
    { deviceID: 'RFI-1', deviceName: 'Dock Portal', type: 'rfid' },
    { deviceID: 'SEN-1', deviceName: 'Flower Room', type: 'sensor' },
  ])
  await t.store.insertMany(actor, ORG, 'sen_input_devices', [
    { field: 'fac_harvests.wet', deviceid: 'SCA-1', type: 'scale', args: 'other' },
    { field: 'fac_harvests.tag', deviceid: 'RFI-1', type: 'rfid', args: 'other' },
  ])
  await t.store.insert(actor, ORG, 'set_printers', { name: 'Vault Labels', deviceid: 'prt-1', field: 'tag', template: 'package_label_4x2', online: 'yes' })
  await t.store.insert(actor, 'auth', 'dictionary', { ...DICT, label: 'Air Temperature' })
  await t.store.upsert(actor, 'auth', 'org', ORG, { name: ORG, fullName: 'Greenleaf Farms' })
  await t.store.insert(actor, 'harbor', 'sen_devices', { deviceID: 'SCA-H', deviceName: 'Harbor Scale', type: 'scale' })
  http = await startHttpApp({ database: t, env: { SESSION_SECRET: env.SESSION_SECRET }, routes: { 'labels/:table/:id': labels, 'misc/devicekey': deviceKey } })
  printDir = tmpDir()
  const { devices, dictionary } = await demoDevices(t, { orgs: [ORG] })
  sim = simulate(devices, dictionary)
  await sim.ready()
})
const simulate = (devices: SimDevice[], dictionary: DictionaryEntry[]) =>
  startSimulator({ mqttUrl: run.broker!.url, serverUrl: http.url, devices, dictionary, printDir, sensorEveryMs: 300, replyDelayMs: 50, silent: ['SCA-2'], logger: pino({ level: process.env.SIM_LOG ?? 'silent' }) })
afterAll(async () => {
  for (const c of clients) c.end(true)
  await sim?.close()
  await http?.close()
  await run?.close()
  await t?.cleanup()
})

describe('device simulator', () => {
  it('plays every sensor device and printer of the facility, each with its own key', async () => {
    const { devices } = await demoDevices(t, { orgs: [ORG] })
    expect(devices.map((d) => `${d.kind}:${d.deviceID}`).sort()).toEqual(['printer:prt-1', 'rfid:RFI-1', 'scale:SCA-1', 'scale:SCA-2', 'sensor:SEN-1'])
    for (const d of devices) expect(d.username).toBe(`${ORG}/${d.deviceID}`)
    // issuing again (above) revoked the keys the running simulator holds: give it fresh ones
    await sim.close()
    const again = await demoDevices(t, { orgs: [ORG] })
    sim = simulate(again.devices, again.dictionary)
    await sim.ready()
  })

  it('a scale answers read_weight through the real flow and hears the success sound', async () => {
    const schema = (await t.schemas.get('fac_harvests'))!
    const [scale] = (await fieldDevices(ctx, ORG, 'fac_harvests', schema)).wet
    const r = await readWeight(ctx, ORG, 'u-1', scale)
    expect(r.device).toBe('SCA-1')
    expect(r.unit).toBe('lb')
    expect(r.weight).toBeGreaterThanOrEqual(0.5)
    expect(r.weight).toBeLessThanOrEqual(40)
    await until(() => sim.sounds.some((s) => s.deviceID === 'SCA-1' && s.sound === 'success'))
  })

  it('a scale configured silent never answers: the flow times out and the scale hears the failure sound', async () => {
    const started = Date.now()
    const err = await readWeight(ctx, ORG, 'u-1', { kind: 'scale', deviceid: 'SCA-2', name: 'Dry Room Scale', args: 'other' }).catch((e: { code?: string; message: string }) => e)
    expect(err).toMatchObject({ code: 'DEVICE_TIMEOUT', message: expect.stringMatching(/^Dry Room Scale did not send a weight within 10 s/) })
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900)
    await until(() => sim.sounds.some((s) => s.deviceID === 'SCA-2' && s.sound === 'failure'))
    expect(sim.sounds.filter((s) => s.deviceID === 'SCA-2').map((s) => s.sound)).toEqual(['failure'])
  }, 20_000)

  it('a mapped RFID reader answers a scan with a tag', async () => {
    const schema = (await t.schemas.get('fac_harvests'))!
    const reader = (await fieldDevices(ctx, ORG, 'fac_harvests', schema)).tag.find((d) => d.kind === 'rfid')!
    const r = await scanCode(ctx, ORG, 'u-1', reader)
    expect(r.code).toMatch(/^1A4\d{21}$/)
  })

  it('a printer fetches the ZPL label with its device key and writes it to the print folder', async () => {
    const rec = await t.store.insert(actor, ORG, 'fac_harvests', { tag: '1A4060300000000000012345', strain: 'Blue Dream' })
    const schema = (await t.schemas.get('fac_harvests'))!
    const [printer] = await printersFor(ctx, ORG, schema)
    requestPrint(ctx, ORG, printer, 'fac_harvests', rec._id, 'https://elsewhere.example')
    await until(() => sim.printed.length > 0)
    const zpl = fs.readFileSync(sim.printed[0], 'utf8')
    expect(zpl.startsWith('^XA')).toBe(true)
    expect(zpl).toContain('1A4060300000000000012345')
    expect(fs.readdirSync(printDir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('sensors publish readings with the dictionary codes', async () => {
    // the server relays readings (a device may not read another's topic): watch what the server's own client receives
    const seen: unknown[] = []
    run.bus.on('message', (m: { kind: string; subject: string; body: unknown }) => m.kind === 'bcast' && m.subject === 'SEN-1' && seen.push(m.body))
    await until(() => seen.length >= 2)
    for (const b of seen as Array<{ type: string; data: Record<string, number>; ts: string }>) {
      expect(b.type).toBe('reading')
      expect(Object.keys(b.data)).toEqual(['temp'])
      expect(b.data.temp).toBeGreaterThan(0)
      expect(b.data.temp).toBeLessThanOrEqual(DICT.max)
      expect(Number.isNaN(Date.parse(b.ts))).toBe(false)
    }
  })

  it('ignores malformed requests and keeps answering', async () => {
    run.bus.publish(`${ORG}/request/SCA-1`, 'not json')
    run.bus.publish(`${ORG}/request/SCA-1`, { cmd: 'explode' })
    run.bus.publish(`${ORG}/request/SCA-1`, { cmd: 'print', table: 'x; drop table', id: '1', template: 't' })
    const schema = (await t.schemas.get('fac_harvests'))!
    const [scale] = (await fieldDevices(ctx, ORG, 'fac_harvests', schema)).wet
    expect((await readWeight(ctx, ORG, 'u-1', scale)).device).toBe('SCA-1')
  })
})

describe('sensor drift', () => {
  it('stays within the scale and raises the occasional alarm above warn', () => {
    const d = new SensorDrift([DICT], seeded(42), 10)
    const values = Array.from({ length: 2000 }, () => d.next().temp)
    for (const v of values) expect(v).toBeGreaterThanOrEqual(0)
    for (const v of values) expect(v).toBeLessThanOrEqual(DICT.max)
    const alarms = values.filter((v) => v > DICT.warn).length
    expect(alarms).toBeGreaterThan(50)
    expect(alarms).toBeLessThan(600)
    // most of the time it stays in the comfortable band
    expect(values.filter((v) => v >= DICT.low - 5 && v <= DICT.med + 5).length).toBeGreaterThan(1400)
  })
})

describe('POST /misc/devicekey', () => {
  const call = (token: string, body: unknown) =>
    fetch(`${http.url}/misc/devicekey`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': token }, body: JSON.stringify(body) })
  const tokenOf = (role: string, org = ORG) => signAccessToken(env.SESSION_SECRET, { sub: `u-${role}`, orig: `u-${role}`, org, role })

  beforeAll(async () => {
    for (const role of ['admin', 'user']) await t.store.upsert(actor, 'auth', 'users', `u-${role}`, { uid: `u-${role}`, email: `${role}@greenleaf.test`, role, org: ORG, web: 'yes', props: { facilities: [ORG] } })
  })

  it('issues a key for a device of the facility to its admin', async () => {
    const r = await call(tokenOf('admin'), { deviceID: 'SCA-1' })
    const body = await r.json()
    expect(r.status, JSON.stringify(body)).toBe(201)
    expect(body.username).toBe(`${ORG}/SCA-1`)
    expect(body.password).toMatch(/^cdk_/)
  })
  it('refuses users, other facilities\' devices and bad input, with the error envelope', async () => {
    const user = await call(tokenOf('user'), { deviceID: 'SCA-1' })
    expect(user.status).toBe(403)
    const other = await call(tokenOf('admin'), { deviceID: 'SCA-H' })
    expect(other.status).toBe(404)
    const bad = await call(tokenOf('admin'), { deviceID: '../x' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).errors[0].code).toBe('BAD_INPUT')
    const extra = await call(tokenOf('admin'), { deviceID: 'SCA-1', org: 'harbor' })
    expect(extra.status).toBe(400)
  })
})
