/** Lab tests (→ MetrcLabStates, MetrcLabTypes, MetrcLabTests): results filter on packageId. */
import { REF } from '../reference'
import type { Family } from './kit'

export const labTests: Family = {
  lists: {
    '/labtests/v2/states': { license: 'none', shape: 'bare', rows: () => REF.labStates },
    '/labtests/v2/types': { license: 'none', shape: 'paged', rows: () => REF.labTypes },
    '/labtests/v2/results': { license: 'required', shape: 'paged', rows: (_s, f, q) => f!.labResults.filter((r) => !q.get('packageId') || String(r.PackageId) === q.get('packageId')) },
  },
}
