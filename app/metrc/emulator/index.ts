/**
 * The METRC emulator that ships with Canopy (issue 9, decision 018): `startMetrcEmulator` runs it
 * in this process (the demo and the tests), `npm run metrc` on its own. Its state lives in
 * `dataDir/state.json` and survives restarts; a folder without one starts from the demo world.
 */
import crypto from 'node:crypto'
import { once } from 'node:events'
import { DEMO_USER_KEY, DEMO_VENDOR_KEY, GROW_LICENSE, SHOP_LICENSE, type EmulatorState, type SeedOptions } from './model'
import { StateFile } from './persist'
import { createEmulatorServer, type Faults, type Limits, type LoggedRequest } from './server'

export { DEMO_USER_KEY, DEMO_VENDOR_KEY, GROW_LICENSE, SHOP_LICENSE }

export interface RunningEmulator {
  url: string
  vendorKey: string
  adminToken: string
  faults: Faults
  requests: LoggedRequest[]
  state: EmulatorState
  close(): Promise<void>
}

export async function startMetrcEmulator(o: { dataDir: string; port?: number; host?: string; seed?: SeedOptions; limits?: Limits; adminToken?: string }): Promise<RunningEmulator> {
  const file = StateFile.open(o.dataDir, o.seed)
  const adminToken = o.adminToken ?? crypto.randomBytes(16).toString('hex')
  const emu = createEmulatorServer({ file, limits: o.limits, adminToken })
  emu.server.listen(o.port ?? 0, o.host ?? '127.0.0.1')
  await once(emu.server, 'listening')
  const a = emu.address()
  return {
    url: `http://${o.host ?? '127.0.0.1'}:${a.port}`,
    vendorKey: file.state.vendorKeys[0],
    adminToken,
    faults: emu.faults,
    requests: emu.requests,
    state: file.state,
    close: async () => {
      emu.server.closeAllConnections()
      await new Promise<void>((r) => emu.server.close(() => r()))
      file.saveNow()
    },
  }
}
