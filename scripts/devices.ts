/**
 * npm run devices — the device simulator beside a running Canopy (issue 8): scales, RFID readers,
 * sensors and label printers of the demo facilities, connected to the message bus as real devices.
 *   CANOPY_URL      the server (default http://127.0.0.1:3000)
 *   MQTT_URL        the broker (default mqtt://127.0.0.1:1884, the embedded one)
 *   DEVICES_EMAIL / DEVICES_PASSWORD   a facility admin who may issue device keys
 *                   (default admin@greenleaf.demo / Canopy#Demo1)
 *   DEVICES_ORGS    facilities, comma-separated (default: the admin's own)
 *   DEVICES_SENSOR_EVERY_MS (5000), PRINT_DIR (./data/prints)
 *   DEVICES_SILENT  device ids of scales or readers that never answer (the timeout path), comma-separated
 * Stop with Ctrl-C. A server started with DEMO_DEVICES=1 (the demo default) runs these itself.
 */
import path from 'node:path'
import { startSimulator } from '../app/devices/simulator/run'
import { remoteDevices } from '../app/devices/simulator/remote'
import { createLogger } from '../app/utils/logger.server'

async function main() {
  const e = process.env
  const logger = createLogger((e.LOG_LEVEL as 'info') ?? 'info', true)
  const baseUrl = e.CANOPY_URL ?? 'http://127.0.0.1:3000'
  const { devices, dictionary } = await remoteDevices({
    baseUrl,
    email: e.DEVICES_EMAIL ?? 'admin@greenleaf.demo',
    password: e.DEVICES_PASSWORD ?? 'Canopy#Demo1',
    orgs: e.DEVICES_ORGS?.split(',').map((s) => s.trim()).filter(Boolean),
  })
  const every = Number(e.DEVICES_SENSOR_EVERY_MS ?? 5000)
  const sim = startSimulator({
    mqttUrl: e.MQTT_URL ?? 'mqtt://127.0.0.1:1884',
    serverUrl: baseUrl,
    devices,
    dictionary,
    printDir: path.resolve(e.PRINT_DIR ?? './data/prints'),
    sensorEveryMs: Number.isFinite(every) && every >= 200 ? every : 5000,
    silent: e.DEVICES_SILENT?.split(',').map((s) => s.trim()).filter(Boolean),
    logger,
  })
  await sim.ready(15_000)
  const count = (k: string) => devices.filter((d) => d.kind === k).length
  logger.info(`${devices.length} devices connected: ${count('scale')} scales, ${count('rfid')} RFID readers, ${count('sensor')} sensors, ${count('printer')} printers`)
  const stop = async () => {
    await sim.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((err) => {
  process.stderr.write(`devices: ${(err as Error).message}\n`)
  process.exit(1)
})
