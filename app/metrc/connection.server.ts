/**
 * How this process reaches METRC: the vendor (integrator) key, and a base URL per state —
 * METRC's own hosts (sandbox with METRC_SANDBOX=1) or METRC_URL for every state (the emulator,
 * a proxy). With no vendor key there is no METRC: credentials stay "pending" and nothing syncs.
 * The in-process emulator (demo, tests) registers itself with `registerMetrcEndpoint`.
 */
import type { Env } from '../config/env.server'
import { MetrcClient, type MetrcClientOptions } from './client/client.server'
import { metrcBaseUrl } from './client/states'

export interface MetrcEndpoint {
  vendorKey: string
  baseUrl: (state: string) => string
  /** the emulator rather than METRC itself (shown to users: "demo METRC") */
  emulated: boolean
}

// the process loads this module once (server.ts starts the app from inside the Remix build)
let registered: MetrcEndpoint | null = null

/** The emulator started in this process (or null to forget it). */
export function registerMetrcEndpoint(e: MetrcEndpoint | null) {
  registered = e
}

export function metrcEndpoint(env: Pick<Env, 'METRC_URL' | 'METRC_SANDBOX' | 'METRC_VENDOR_KEY'>): MetrcEndpoint | null {
  if (env.METRC_VENDOR_KEY) {
    const override = env.METRC_URL
    return { vendorKey: env.METRC_VENDOR_KEY, baseUrl: (state) => metrcBaseUrl(state, { sandbox: env.METRC_SANDBOX === '1', override }), emulated: false }
  }
  return registered
}

/** A client for one user key in one state. */
export function metrcClient(endpoint: MetrcEndpoint, state: string, userKey: string, o: Partial<MetrcClientOptions> = {}): MetrcClient {
  return new MetrcClient({ baseUrl: endpoint.baseUrl(state), vendorKey: endpoint.vendorKey, userKey, ...o })
}
