/**
 * Where METRC answers for a state (SPEC §4 credential states; reference §1.1, §5.1). Production is
 * `https://api-{st}.metrc.com`, the sandbox `https://sandbox-api-{st}.metrc.com`; a configured
 * base URL (the emulator, a proxy) replaces both.
 */
export const METRC_STATES = ['CA', 'AK', 'DC', 'CO', 'LA', 'ME', 'MA', 'MD', 'MI', 'MO', 'MT', 'NV', 'OH', 'OK', 'OR', 'WV'] as const
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
