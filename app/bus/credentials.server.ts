/**
 * Who is connecting to the bus (issue 8). Three kinds of credentials, all issued by Canopy:
 * - the server itself: username `canopy-server`, a password derived from SESSION_SECRET;
 * - a device: username `{org}/{deviceID}`, password a device key (`cdk_…`) issued for that
 *   device of that organisation (only its hash is stored; issuing a new key revokes the old one);
 * - a user (a handheld scanner app): username `{org}/{uid}`, password a valid access token of that
 *   user for that organisation.
 * Anything else is refused ("Not authorized" for the client).
 * Keys are issued and revoked only here. When the bus is a Mosquitto, startBus registers a
 * provisioner (app/bus/mosquitto.server.ts) and every key issued or revoked here is mirrored there
 * first: if Mosquitto cannot take the change, nothing changes here either (UNAVAILABLE).
 */
import crypto from 'node:crypto'
import { verifyAccessToken } from '../auth/tokens.server'
import type { Database } from '../db/index.server'
import type { BusIdentity } from './acl'
import { SEGMENT_RE } from './topics'

export const SERVER_USERNAME = 'canopy-server'
const KEY_RE = /^cdk_[A-Za-z0-9_-]{43}$/
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

export function serverPassword(secret: string): string {
  return crypto.createHmac('sha256', secret).update('canopy mqtt server v1').digest('base64url')
}

/** Mirrors device keys into an external broker (app/bus/mosquitto.server.ts). */
export interface DeviceKeyProvisioner {
  /** the device signs in with this key from now on; earlier keys stop working */
  setDeviceKey(org: string, deviceID: string, key: string): Promise<void>
  /** the device can no longer sign in */
  removeDevice(org: string, deviceID: string): Promise<void>
}

// one per process: the app's modules are loaded once (server.ts starts the app from the Remix build)
let provisioner: DeviceKeyProvisioner | null = null

/** Registers (or, with null, removes) the process's provisioner; startBus does this. */
export function setDeviceKeyProvisioner(p: DeviceKeyProvisioner | null): void {
  provisioner = p
}
export const deviceKeyProvisioner = (): DeviceKeyProvisioner | null => provisioner

/** A new key for a device of an organisation; earlier keys of that device stop working. */
export async function issueDeviceKey(database: Database, org: string, deviceID: string, by: string): Promise<{ username: string; password: string }> {
  if (!SEGMENT_RE.test(org) || !SEGMENT_RE.test(deviceID)) throw new Error('device ids are plain names (letters, digits, _ . : @ -)')
  const key = `cdk_${crypto.randomBytes(32).toString('base64url')}`
  // the broker first: a key handed out works there; a broker that is away changes nothing here
  await deviceKeyProvisioner()?.setDeviceKey(org, deviceID, key)
  await database.db.transaction(async (tx) => {
    await tx.query('UPDATE device_keys SET revoked_at = now() WHERE org = $1 AND device_id = $2 AND revoked_at IS NULL', [org, deviceID])
    await tx.query('INSERT INTO device_keys (key_hash, org, device_id, created_by) VALUES ($1, $2, $3, $4)', [sha256(key), org, deviceID, by])
  })
  return { username: `${org}/${deviceID}`, password: key }
}

export async function revokeDeviceKeys(database: Database, org: string, deviceID: string): Promise<number> {
  // the broker first: a key revoked here never keeps working there
  await deviceKeyProvisioner()?.removeDevice(org, deviceID)
  const r = await database.db.query('UPDATE device_keys SET revoked_at = now() WHERE org = $1 AND device_id = $2 AND revoked_at IS NULL', [org, deviceID])
  return r.rowCount ?? 0
}

/** `{org}/{deviceID}` of every device with a live key (what an external broker should know). */
export async function liveDeviceUsernames(database: Database): Promise<Set<string>> {
  const r = await database.db.query<{ org: string; device_id: string }>('SELECT DISTINCT org, device_id FROM device_keys WHERE revoked_at IS NULL')
  return new Set(r.rows.map((x) => `${x.org}/${x.device_id}`))
}

/** The identity behind a username and password, or null. Never throws on bad input. */
export async function authenticateBus(database: Database, secret: string, username: string | undefined, password: Buffer | string | undefined): Promise<BusIdentity | null> {
  if (!username || password === undefined || password === null) return null
  const pw = Buffer.isBuffer(password) ? password.toString('utf8') : String(password)
  if (pw.length > 4096 || username.length > 200) return null
  if (username === SERVER_USERNAME) {
    const want = Buffer.from(serverPassword(secret))
    const got = Buffer.from(pw)
    return got.length === want.length && crypto.timingSafeEqual(got, want) ? { kind: 'server' } : null
  }
  const parts = username.split('/')
  if (parts.length !== 2 || !parts.every((p) => SEGMENT_RE.test(p))) return null
  const [org, who] = parts
  if (KEY_RE.test(pw)) {
    const r = await database.db.query('SELECT 1 FROM device_keys WHERE key_hash = $1 AND org = $2 AND device_id = $3 AND revoked_at IS NULL', [sha256(pw), org, who])
    return r.rows.length ? { kind: 'device', org, deviceID: who } : null
  }
  const claims = verifyAccessToken(secret, pw)
  if (claims && claims.org === org && claims.sub === who) return { kind: 'user', org, uid: who }
  return null
}
