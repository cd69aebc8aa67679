/**
 * Starts the device simulator inside the Canopy process for the demo (DEMO_DEVICES=1, on by default
 * with DEMO_DATA=1): the demo facilities' scales, RFID readers, sensors and label printers connect to
 * this process's bus, so a newcomer sees live gauges and a working Remote Scale button.
 * `npm run devices` (scripts/devices.ts) runs the same devices against a server elsewhere.
 */
import path from 'node:path'
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import { startSimulator, type Simulator } from './run'
import { demoDevices } from './setup.server'

export const demoDevicesOn = (env: Pick<Env, 'DEMO_DEVICES' | 'DEMO_DATA'>) => (env.DEMO_DEVICES ?? env.DEMO_DATA) === '1'
export const printDirOf = (env: Pick<Env, 'PRINT_DIR' | 'DATA_DIR'>) => path.resolve(env.PRINT_DIR ?? path.join(env.DATA_DIR, 'prints'))

export async function startDemoDevices(o: { env: Env; database: Database; mqttUrl: string; serverUrl: string; logger: Logger }): Promise<Simulator> {
  const { devices, dictionary } = await demoDevices(o.database)
  const sim = startSimulator({
    mqttUrl: o.mqttUrl,
    serverUrl: o.serverUrl,
    devices,
    dictionary,
    printDir: printDirOf(o.env),
    sensorEveryMs: o.env.DEVICES_SENSOR_EVERY_MS,
    silent: o.env.DEVICES_SILENT,
    logger: o.logger,
  })
  o.logger.info({ devices: devices.length, printDir: printDirOf(o.env) }, 'demo devices started (DEMO_DEVICES=0 turns them off)')
  return sim
}
