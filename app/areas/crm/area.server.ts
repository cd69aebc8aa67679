/** CRM's server half (issue 27, decision 057): its to-dos with a due date on the calendar. */
import type { ServerArea } from '../area'
import { registerCalendarSource } from '../calendar/sources.server'
import { todoSource } from './todos.server'

export const serverArea: ServerArea = {
  name: 'crm',
  install() {
    registerCalendarSource(todoSource)
  },
}
