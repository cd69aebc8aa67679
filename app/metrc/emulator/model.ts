/**
 * The METRC emulator's state (issue 9): keys, facilities and, per license, the records METRC keeps
 * (reference §3), every record stamped with `LastModified`. Plain JSON, so it persists as one file.
 * The demo world is built by ./seed.ts, the reference lists live in ./reference.ts.
 */
export { REF } from './reference'

export type Row = Record<string, unknown> & { Id: number; LastModified: string }

export interface License {
  Number: string
  Name: string
  LicenseType: string
  CanGrowPlants: boolean
  /** the state whose METRC the license is in: its endpoint set (reference `existsIn`) */
  State?: string
}

export interface UserKey {
  key: string
  name: string
  licenses: string[]
  /** a key METRC no longer takes (expired, revoked): every call 401 */
  expired?: boolean
  /** the METRC permissions the key's user holds (reference PERMISSIONS); absent: every one */
  permissions?: string[]
}

export interface FacilityData {
  locations: Row[]
  strains: Row[]
  items: Row[]
  packages: Row[]
  plantBatches: Row[]
  plants: Row[]
  harvests: Row[]
  employees: Row[]
  patients: Row[]
  labResults: Row[]
  plantWaste: Row[]
  harvestWaste: Row[]
  /** transfers, one row per delivery, `Direction` incoming or outgoing (not sent on the wire) */
  transfers: Row[]
  /** outgoing transfer templates (POST /transfers/v2/templates/outgoing), each with its `Destinations` as sent */
  transferTemplates: Row[]
  /** sales receipts (POST /sales/v2/receipts), each with its `Transactions` */
  receipts: Row[]
  /** tags not yet used, by kind; a tag leaves its list when used and never comes back */
  tags: { plant: string[]; package: string[] }
  usedTags: string[]
}

export interface EmulatorState {
  vendorKeys: string[]
  users: UserKey[]
  licenses: License[]
  facilities: Record<string, FacilityData>
  nextId: number
}

export const DEMO_VENDOR_KEY = 'canopy-demo-vendor-key-0001'
export const DEMO_USER_KEY = 'canopy-demo-user-key-0001'
/** a key the seed marks expired: every call with it is 401 */
export const EXPIRED_USER_KEY = 'canopy-demo-user-key-expired'
export const GROW_LICENSE = '403-X0001'
export const SHOP_LICENSE = '402-X0002'
export const HARBOR_LICENSE = '404-X0003'
/** a key whose user may do everything at the cultivation license except see its employees */
export const NO_EMPLOYEES_USER_KEY = 'canopy-demo-user-key-noemployees'

/** A 24-character tag: 1A4 + 12 characters of facility and kind + a 9-digit serial. */
export const tagOf = (license: string, kind: 'plant' | 'package', n: number) => `1A4${license.replace(/[^0-9A-Z]/gi, '').toUpperCase().padEnd(7, '0').slice(0, 7)}${kind === 'plant' ? 'C' : 'B'}0000${String(n).padStart(9, '0')}`


export function emptyFacility(): FacilityData {
  return { locations: [], strains: [], items: [], packages: [], plantBatches: [], plants: [], harvests: [], employees: [], patients: [], labResults: [], plantWaste: [], harvestWaste: [], transfers: [], transferTemplates: [], receipts: [], tags: { plant: [], package: [] }, usedTags: [] }
}
