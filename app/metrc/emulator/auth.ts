/**
 * Who is calling (reference §1.2, §1.3, §6.6): HTTP Basic with the integrator's vendor key as the
 * user name and the licensee's user key as the password; a missing, unknown or expired key is 401.
 * `licenseNumber` must name a license the key's user reaches, else 401 as well.
 */
import { missingPermissions } from '../reference'
import type { EmulatorState, License, UserKey } from './model'
import { Refusal } from './refusal'

export const DENIED = 'Authorization has been denied for this request.'

export interface Caller {
  vendor: string
  user: UserKey
}

/** `Basic base64(vendor:user)` → the pair, or null when the header is not that. */
export function basicPair(header: string | undefined): { vendor: string; userKey: string } | null {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '')
  if (!m) return null
  const pair = Buffer.from(m[1], 'base64').toString('utf8')
  const cut = pair.indexOf(':')
  if (cut <= 0) return null
  return { vendor: pair.slice(0, cut), userKey: pair.slice(cut + 1) }
}

export function authenticate(state: EmulatorState, header: string | undefined, expiredKeys: readonly string[]): Caller {
  const pair = basicPair(header)
  const user = pair ? state.users.find((u) => u.key === pair.userKey) : undefined
  if (!pair || !user || !state.vendorKeys.includes(pair.vendor) || user.expired || expiredKeys.includes(user.key)) throw new Refusal(401, DENIED)
  return { vendor: pair.vendor, user }
}

/** The license `licenseNumber` names (any case), which the caller must reach; null without one. */
export function licenseFor(state: EmulatorState, caller: Caller, licenseNo: string | null): License | null {
  if (!licenseNo) return null
  const license = state.licenses.find((l) => l.Number.toLowerCase() === licenseNo.toLowerCase())
  if (!license || !caller.user.licenses.includes(license.Number)) throw new Refusal(401, DENIED)
  return license
}

/** METRC's 403: authenticated, but this license's type cannot do plant work. */
export function requirePlants(license: License) {
  if (!license.CanGrowPlants) throw new Refusal(403, `License ${license.Number} (${license.LicenseType}) cannot work with plants.`)
}

/**
 * A user key carries its METRC user's permissions: an endpoint the user may not use answers 401
 * with METRC's usual text, while every other endpoint answers normally (reference PERMISSIONS).
 */
export function requirePermission(caller: Caller, endpoint: string) {
  if (!caller.user.permissions) return
  if (missingPermissions(endpoint, caller.user.permissions).length) throw new Refusal(401, DENIED)
}
