/**
 * The cultivation area's server half (decision 022, issue 23): the lifecycle as row actions
 * (decision 038) on the plantings, plants, mothers, harvests and packages screens, and the trace of each
 * mother, batch, plant, harvest and package (issue 23 item 3, trace.server.ts).
 */
import type { ServerArea } from '../area'
import { registerBatchActions } from './batches.server'
import { registerHarvestActions } from './harvests.server'
import { registerPackageActions } from './packages.server'
import { registerPlantActions } from './plants.server'
import { registerCultivationTraces } from './trace.server'

export const serverArea: ServerArea = {
  name: 'cultivation',
  install() {
    registerBatchActions()
    registerPlantActions()
    registerHarvestActions()
    registerPackageActions()
    registerCultivationTraces()
  },
}
