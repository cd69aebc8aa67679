/** The visitor log's server half (decision 022): a visit is signed out once, on every write path. */
import type { ServerArea } from '../area'
import { registerWriteStep } from '../../records/write-hooks.server'
import { VISITS } from './rules'
import { signedOutOnce } from './visits.server'

export const serverArea: ServerArea = {
  name: 'visitors',
  install() {
    registerWriteStep(VISITS, 'visitors:signed-out-once', signedOutOnce)
  },
}
