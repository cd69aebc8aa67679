/**
 * The METRC emulator inside the Canopy process (issue 9): when no vendor key names a real METRC
 * (METRC_VENDOR_KEY unset) and METRC_EMULATOR is 1 (unset: 1 with demo data, 0 on a real install), it listens on METRC_EMULATOR_PORT with its
 * state in DATA_DIR/metrc-emulator, and every state's calls go to it (connection.server.ts).
 */
import path from 'node:path'
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import { registerMetrcEndpoint } from '../connection.server'
import { startMetrcEmulator, type RunningEmulator } from './index'

export async function startInProcessEmulator(env: Env, logger: Logger): Promise<RunningEmulator | null> {
  if (env.METRC_VENDOR_KEY || (env.METRC_EMULATOR ?? (env.DEMO_DATA === '1' ? '1' : '0')) === '0') return null
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST
  const emu = await startMetrcEmulator({ dataDir: path.join(env.DATA_DIR, 'metrc-emulator'), port: env.METRC_EMULATOR_PORT, host })
  registerMetrcEndpoint({ vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true })
  logger.info({ url: emu.url }, 'METRC emulator running (no METRC_VENDOR_KEY set); METRC_EMULATOR=0 turns it off')
  return emu
}
