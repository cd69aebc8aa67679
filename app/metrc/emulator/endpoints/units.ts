/** Units of measure (→ MetrcUnits): bare arrays, no licenseNumber. */
import { REF } from '../reference'
import type { Family } from './kit'

export const units: Family = {
  lists: {
    '/unitsofmeasure/v2/active': { license: 'none', shape: 'bare', rows: () => REF.unitsOfMeasure },
    '/unitsofmeasure/v2/inactive': { license: 'none', shape: 'bare', rows: () => [] },
  },
}
