/** The campaigns area's server half (decision 022): the throttled sender job. */
import type { ServerArea } from '../area'
import { startCampaignSender } from './sender.server'

export const serverArea: ServerArea = {
  name: 'campaigns',
  start: (deps) => startCampaignSender(deps),
}
