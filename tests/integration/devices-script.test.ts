/**
 * `npm run devices` (scripts/devices.ts) beside a running server, as a newcomer would run it: the
 * built server with the demo data and its own simulator off (DEMO_DEVICES=0), the script signs in
 * as the demo admin, gets a key per device through POST /misc/devicekey and connects to the
 * server's embedded broker; its sensors' readings reach the server (GET /dt/v1/{deviceID}?last=1)
 * and it stops cleanly on SIGTERM. Needs `npm run build` first (npm test does it).
 */
import fs from 'node:fs'
import path from 'node:path'
import { createApiClient } from '#app/api-client'
import { createPgSchema, freshOptions, tmpDir } from '#tests/helpers/db'
import { freePort, ROOT, startServer, tsx, type Child } from '#tests/helpers/process'

const ADMIN = { email: 'admin@greenleaf.demo', password: 'Canopy#Demo1' }
let server: (Child & { url: string }) | undefined
let devices: Child | undefined
let drop: (() => Promise<void>) | undefined
const rowsOf = (x: unknown): unknown[] => (Array.isArray(x) ? x : ((x as { data?: unknown[] }).data ?? []))

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'build/server.js'))) throw new Error('build/server.js is missing: run npm run build first')
})
afterAll(async () => {
  devices?.proc.kill('SIGKILL')
  server?.proc.kill('SIGTERM')
  if (server) await server.exited
  await drop?.()
})

it('connects the demo facility\'s devices with keys from POST /misc/devicekey; its sensors report to the server', async () => {
  const fresh = freshOptions()
  drop = fresh.drop
  await createPgSchema(fresh.opts.pgSchema)
  const mqttPort = await freePort()
  server = await startServer({ ...fresh.childEnv, DATA_DIR: fresh.childEnv.DATA_DIR ?? tmpDir(), MQTT_PORT: String(mqttPort), DEMO_DATA: '1', DEMO_DEVICES: '0' })
  const printDir = tmpDir()
  const started = new Date().toISOString()
  devices = tsx('scripts/devices.ts', { CANOPY_URL: server.url, MQTT_URL: `mqtt://127.0.0.1:${mqttPort}`, ...{ DEVICES_EMAIL: ADMIN.email, DEVICES_PASSWORD: ADMIN.password }, DEVICES_SENSOR_EVERY_MS: '300', PRINT_DIR: printDir, LOG_LEVEL: 'info' })
  const [, count, scales, readers, sensors, printers] = await devices.waitFor(/(\d+) devices connected: (\d+) scales, (\d+) RFID readers, (\d+) sensors, (\d+) printers/, 60_000)

  const api = createApiClient({ baseUrl: server.url, ...ADMIN })
  const rows = rowsOf(await api.get('/dt/v1/sen_devices?limit=500')) as Array<{ deviceID: string; type: string }>
  const printerRows = rowsOf(await api.get('/dt/v1/set_printers?limit=500'))
  const of = (type: string) => rows.filter((r) => r.type === type)
  expect([Number(scales), Number(readers), Number(sensors)]).toEqual([of('scale').length, of('rfid').length, of('sensor').length])
  expect(Number(printers)).toBe(printerRows.length)
  expect(Number(count)).toBe(of('scale').length + of('rfid').length + of('sensor').length + printerRows.length)
  expect(of('sensor').length).toBeGreaterThan(0)

  // every simulated sensor's readings arrive through the bus and are stored
  for (const s of of('sensor')) {
    await expect
      .poll(async () => (await api.get<{ ts: string | null }>(`/dt/v1/${encodeURIComponent(s.deviceID)}?last=1`)).ts ?? '', { timeout: 15_000, interval: 200 })
      .toSatisfy((ts: string) => ts >= started)
    const latest = await api.get<{ data: Record<string, number> }>(`/dt/v1/${encodeURIComponent(s.deviceID)}?last=1`)
    expect(Object.keys(latest.data).length).toBeGreaterThan(0)
    for (const v of Object.values(latest.data)) expect(Number.isFinite(v)).toBe(true)
  }

  devices.proc.kill('SIGTERM')
  expect(await devices.exited).toEqual({ code: 0, signal: null })
}, 240_000)
