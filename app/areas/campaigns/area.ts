/** The campaigns area's browser-safe half (decision 022): a mail template names only merge fields that exist, on every write path. */
import type { Area } from '../area'
import { registerSaveRules } from '../../forms/save-rules'
import { knownMergeFields, TEMPLATES } from './rules'

export const area: Area = {
  name: 'campaigns',
  install() {
    registerSaveRules(TEMPLATES, knownMergeFields)
  },
}
