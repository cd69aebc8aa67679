/**
 * The METRC emulator that ships with Canopy (issue 9, decision 018): `startMetrcEmulator` runs it
 * in this process (the demo and the tests), `npm run metrc` on its own. Its state lives in
 * `dataDir/state.json` and survives restarts; a folder without one starts from the demo world,
 * deterministic from `seed`.
 */
import crypto from 'node:crypto'
import { once } from 'node:events'
import { DEMO_USER_KEY, DEMO_VENDOR_KEY, EXPIRED_USER_KEY, GROW_LICENSE, HARBOR_LICENSE, SHOP_LICENSE, type EmulatorState } from './model'
import { StateFile } from './persist'
import type { SeedOptions } from './seed'
import { createEmulatorServer, type Faults, type Limits, type LoggedRequest } from './server'

export { DEMO_USER_KEY, DEMO_VENDOR_KEY, EXPIRED_USER_KEY, GROW_LICENSE, HARBOR_LICENSE, SHOP_LICENSE }
export type { Faults, Limits, LoggedRequest, SeedOptions }

export interface RunningEmulator {
  url: string
  vendorKey: string
  adminToken: string
  /** switch faults on and off by assignment: `emu.faults.down = true` */
  faults: Faults
  /** every request answered, oldest first (the same array as it grows) */
  requests: LoggedRequest[]
  clearRequests(): void
  /** METRC unreachable: stop listening (connection refused) until `plugIn()` */
  unplug(): Promise<void>
  plugIn(): Promise<void>
  state: EmulatorState
  close(): Promise<void>
}

export async function startMetrcEmulator(o: { dataDir: string; port?: number; host?: string; seed?: SeedOptions; limits?: Limits; adminToken?: string }): Promise<RunningEmulator> {
  const file = StateFile.open(o.dataDir, o.seed)
  const host = o.host ?? '127.0.0.1'
  const adminToken = o.adminToken ?? crypto.randomBytes(16).toString('hex')
  let refuseTimer: ReturnType<typeof setTimeout> | null = null
  const emu = createEmulatorServer({
    file,
    limits: o.limits,
    adminToken,
    onRefuse: (ms) => {
      void unplug().then(() => {
        refuseTimer = setTimeout(() => void plugIn(), ms)
      })
    },
  })
  const listen = async (port: number) => {
    emu.server.listen(port, host)
    await once(emu.server, 'listening')
  }
  await listen(o.port ?? 0)
  const port = emu.address().port
  const unplug = async () => {
    if (!emu.server.listening) return
    emu.server.closeAllConnections()
    await new Promise<void>((r) => emu.server.close(() => r()))
    // a turn of the event loop's I/O: a client in this process sees its kept-alive sockets closed
    // (and dials again, to be refused) rather than writing to one the server has just dropped
    await new Promise((r) => setTimeout(r, 10))
  }
  const plugIn = async () => {
    if (refuseTimer) clearTimeout(refuseTimer)
    refuseTimer = null
    if (!emu.server.listening) await listen(port)
  }
  return {
    url: `http://${host}:${port}`,
    vendorKey: file.state.vendorKeys[0],
    adminToken,
    faults: emu.faults,
    requests: emu.requests,
    clearRequests: emu.clearRequests,
    unplug,
    plugIn,
    state: file.state,
    close: async () => {
      if (refuseTimer) clearTimeout(refuseTimer)
      await unplug()
      file.saveNow()
    },
  }
}
