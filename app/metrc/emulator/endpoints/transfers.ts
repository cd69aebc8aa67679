/**
 * Transfers (→ MetrcTransfers types, MetrcXferStates): incoming and outgoing lists (one row per
 * delivery, lastModified windows), a delivery's packages, transfer types, package states.
 */
import type { EmulatorState, UserKey } from '../model'
import { REF } from '../reference'
import type { Family } from './kit'

const wire = ({ Direction: _d, Packages: _p, ...row }: Record<string, unknown>) => row

export const transfers: Family = {
  lists: {
    '/transfers/v2/incoming': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.transfers.filter((t) => t.Direction === 'incoming').map(wire) },
    '/transfers/v2/outgoing': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.transfers.filter((t) => t.Direction === 'outgoing').map(wire) },
    '/transfers/v2/types': { license: 'required', shape: 'paged', rows: () => REF.transferTypes },
    '/transfers/v2/deliveries/packages/states': { license: 'none', shape: 'bare', rows: () => REF.transferPackageStates },
  },
}

/** `GET /transfers/v2/deliveries/{id}/packages` (no licenseNumber: keyed by delivery; only the caller's own deliveries) */
export const DELIVERY_PACKAGES = /^\/transfers\/v2\/deliveries\/(\d+)\/packages$/

/** A delivery's packages, when the delivery belongs to one of the caller's licenses; else null (401). */
export function deliveryPackages(s: EmulatorState, user: UserKey, deliveryId: number): unknown[] | null {
  for (const lic of user.licenses) {
    const t = s.facilities[lic]?.transfers.find((x) => x.DeliveryId === deliveryId)
    if (t) return (t.Packages as unknown[]) ?? []
  }
  return null
}
