/**
 * The finance area's server half (decision 022, issue 24): after the seed, the demo's orders,
 * invoices and payments at every stage, made by the flow itself (finance builds on distribution).
 */
import type { ServerArea } from '../area'
import { registerAfterSeed } from '../../seed/index.server'
import { seedDemoFlow } from './demo.server'

export const serverArea: ServerArea = {
  name: 'finance',
  install() {
    registerAfterSeed('finance:demo-flow', (database, env) => seedDemoFlow(database, env))
  },
}
