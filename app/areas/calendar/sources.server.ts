/**
 * Other areas' dated things on the calendar (decision 057): an area registers a source at install
 * (its area.server.ts); the calendar loader asks every source for the items of the days it shows,
 * with the same facility and filters, and places them like tasks (every view, the same cells).
 * A source's item carries `kind` (its styling), `href` (opening it goes to its own record) and
 * `kindLabel`; it is not dragged — it is moved where it lives.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { CalItem } from './calendar.server'

export interface SourceQuery {
  context: AppLoadContext
  /** the signed-in user's facility: a source reads only its rows */
  facility: string
  timeZone: string
  /** the local days shown, first to last */
  days: string[]
  /** the filters as the calendar applies them (assignee is the signed-in user's name with "My tasks") */
  filters: { assignee: string; room: string; category: string }
}

export interface CalendarSource {
  name: string
  /** categories this source's items belong to (offered in the Category filter) */
  categories: readonly string[]
  items(q: SourceQuery): Promise<CalItem[]>
}

const sources = new Map<string, CalendarSource>()

export function registerCalendarSource(s: CalendarSource): void {
  sources.set(s.name, s)
}

export function calendarSources(): CalendarSource[] {
  return [...sources.values()]
}
