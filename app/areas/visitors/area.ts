/** The visitor log's browser-safe half (decision 022): its save rule on every write path. */
import type { Area } from '../area'
import { registerSaveRules } from '../../forms/save-rules'
import { signInRule, VISITS } from './rules'

export const area: Area = {
  name: 'visitors',
  install() {
    registerSaveRules(VISITS, signInRule)
  },
}
