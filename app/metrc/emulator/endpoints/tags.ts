/** Tags available (plant and package): bare arrays of the facility's unused tags. */
import type { Family } from './kit'

const tagRows = (labels: string[], kind: 'Plant' | 'Package', facilityId: number) => labels.map((Label, i) => ({ Id: i + 1, Label, TagTypeName: kind, TagInventoryTypeName: `Medical${kind}`, MaxGroupSize: kind === 'Plant' ? 100 : 1, FacilityId: facilityId, StatusName: 'Received' }))

export const tags: Family = {
  lists: {
    '/tags/v2/plant/available': { license: 'required', shape: 'bare', plants: true, rows: (s, f) => tagRows(f!.tags.plant, 'Plant', Object.values(s.facilities).indexOf(f!) + 1) },
    '/tags/v2/package/available': { license: 'required', shape: 'bare', rows: (s, f) => tagRows(f!.tags.package, 'Package', Object.values(s.facilities).indexOf(f!) + 1) },
  },
}
