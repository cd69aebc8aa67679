/** The messaging area's server half (decision 022): the job that mails messages left unread. */
import type { ServerArea } from '../area'
import { startUnreadMailer } from './notify.server'

export const serverArea: ServerArea = {
  name: 'messaging',
  start: (deps) => startUnreadMailer(deps),
}
