/** The release notes' server half (decision 022): the demo's notes, seeded once on the platform. */
import type { ServerArea } from '../area'
import { registerSeedGroup } from '../../seed/index.server'
import { seedReleaseNotes } from './seed'

export const serverArea: ServerArea = {
  name: 'release-notes',
  install() {
    registerSeedGroup({ name: 'release-notes', platformRecords: seedReleaseNotes })
  },
}
