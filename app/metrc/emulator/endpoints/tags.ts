/**
 * Tags available (plant and package): bare arrays of the facility's unused tags, each in METRC's
 * documented row (Tags_GetAvailablePlant/Package.bru: Id, Label, TagTypeName, TagInventoryTypeName,
 * MaxGroupSize, FacilityId; the group tag fields null). A tag keeps its Id while it waits (taken
 * from its serial, not from its place in the list, which shrinks as tags are used); a used tag
 * leaves its list for good (kit.ts useTag), so the next read no longer lists it.
 */
import type { EmulatorState, FacilityData } from '../model'
import { tagWire } from '../wire'
import type { Family } from './kit'

/** A tag's METRC Id: the facility, the kind and the tag's serial (plant and package Ids never meet). */
export function tagId(facility: number, kind: 'Plant' | 'Package', label: string, i: number): number {
  const serial = /(\d{9})$/.exec(label)
  return facility * 10_000_000_000 + (kind === 'Plant' ? 1 : 2) * 1_000_000_000 + (serial ? Number(serial[1]) : i + 1)
}

function tagRows(s: EmulatorState, f: FacilityData, kind: 'Plant' | 'Package') {
  const facility = Object.values(s.facilities).indexOf(f) + 1
  const labels = kind === 'Plant' ? f.tags.plant : f.tags.package
  return labels.map((Label, i) => tagWire({ Id: tagId(facility, kind, Label, i), Label, TagTypeName: kind, TagInventoryTypeName: `Medical${kind}`, MaxGroupSize: kind === 'Plant' ? 100 : 1, FacilityId: facility }))
}

export const tags: Family = {
  lists: {
    '/tags/v2/plant/available': { license: 'required', shape: 'bare', plants: true, rows: (s, f) => tagRows(s, f!, 'Plant') },
    '/tags/v2/package/available': { license: 'required', shape: 'bare', rows: (s, f) => tagRows(s, f!, 'Package') },
  },
}
