/**
 * Where METRC answers for a state (reference §1.1, §5.1; issue 21). Production is
 * `https://api-{st}.metrc.com`, the sandbox `https://sandbox-api-{st}.metrc.com`; a configured
 * base URL (the emulator, a proxy) replaces both. Every state METRC runs in (its 23, from
 * om-v2-summary.md) plus Alaska, which SPEC §5's credentials dialog still offers; the dialog's
 * own list (auth/messages.ts CREDENTIAL_STATES) is SPEC's and stays as it is.
 */
import { METRC_HOST_STATES } from '../reference'

export const METRC_STATES = [...METRC_HOST_STATES, 'AK'] as const
export type MetrcState = (typeof METRC_STATES)[number]

export function isMetrcState(s: unknown): s is MetrcState {
  return typeof s === 'string' && (METRC_STATES as readonly string[]).includes(s)
}

/** The base URL for a state: `override` (emulator or proxy) when given, else METRC's own host. */
export function metrcBaseUrl(state: string, o: { sandbox?: boolean; override?: string } = {}): string {
  if (o.override) return o.override.replace(/\/+$/, '')
  const st = state.toUpperCase()
  if (!isMetrcState(st)) throw new Error(`${state}: not a METRC state (${METRC_STATES.join(', ')})`)
  return `https://${o.sandbox ? 'sandbox-' : ''}api-${st.toLowerCase()}.metrc.com`
}
