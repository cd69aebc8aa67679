/**
 * An external broker (MQTT_URL) that lets clients in without a username and password lets anyone
 * who can reach it read every facility's traffic and publish readings (issue 20 item 8). Before
 * using it, Canopy connects once with no credentials: a broker that accepts is refused at start
 * (a ConfigError naming the fix) unless MQTT_ALLOW_ANONYMOUS=1, which accepts it with a warning.
 * A broker that does not answer at start is checked when the server's own connection first
 * reaches it; refused then, the server's bus connection is closed (the console keeps working
 * without devices) and the reason logged as an error.
 */
import crypto from 'node:crypto'
import mqtt from 'mqtt'

/** true: let in without credentials · false: refused · null: no answer (unreachable, timed out) */
export async function acceptsAnonymous(url: string, ms = 5000): Promise<boolean | null> {
  const u = new URL(url)
  // a username or password in the address would be used by the client: the probe sends none
  u.username = ''
  u.password = ''
  const c = mqtt.connect(u.toString(), { reconnectPeriod: 0, connectTimeout: ms, clean: true, clientId: `canopy-probe-${crypto.randomBytes(4).toString('hex')}` })
  const verdict = await new Promise<boolean | null>((resolve) => {
    c.once('connect', () => resolve(true))
    c.once('error', (e: Error & { code?: unknown }) => resolve(typeof e.code === 'number' ? false : null))
    c.once('close', () => resolve(null))
  })
  await c.endAsync(true).catch(() => {})
  return verdict
}

/** MQTT_URL without its credentials, for messages */
export const shownUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//')

/** What to say about a broker that let an anonymous client in: `refuse` (MQTT_ALLOW_ANONYMOUS unset) or the warning. */
export function anonymousVerdict(url: string, allowed: boolean): { refuse?: string; warn?: string } {
  const what = `The broker at MQTT_URL=${shownUrl(url)} lets clients in without a username and password: anyone who can reach it can read every facility's device traffic and publish readings.`
  if (allowed) return { warn: `${what} Accepted because MQTT_ALLOW_ANONYMOUS=1.` }
  return {
    refuse: `${what} Turn anonymous access off there (Mosquitto: allow_anonymous false with the dynamic-security plugin, ops/mosquitto/README.md), or set MQTT_ALLOW_ANONYMOUS=1 to accept it (a test broker).`,
  }
}
