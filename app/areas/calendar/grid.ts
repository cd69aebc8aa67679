/** The calendar's views (decision 043): which days a view shows, its title, and the dates of previous and next. Pure; weeks start on Sunday. */
import { addDays, isIsoDate } from '../../format/date-ranges'

/** the calendar's address */
export const CAL = '/SchCalendar'

export const VIEWS = ['month', 'week', 'day', 'agenda'] as const
export type View = (typeof VIEWS)[number]
export const AGENDA_DAYS = 30

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const dow = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay()

export function readView(v: string | null): View {
  return (VIEWS as readonly string[]).includes(v ?? '') ? (v as View) : 'month'
}

export function readDate(d: string | null, today: string): string {
  return d && isIsoDate(d) ? d : today
}

/** The days a view shows, in order (a month: six whole weeks around it). */
export function daysOf(view: View, date: string): string[] {
  if (view === 'day') return [date]
  if (view === 'agenda') return Array.from({ length: AGENDA_DAYS }, (_, i) => addDays(date, i))
  const first = view === 'month' ? `${date.slice(0, 8)}01` : date
  const start = addDays(first, -dow(first))
  return Array.from({ length: view === 'month' ? 42 : 7 }, (_, i) => addDays(start, i))
}

export function titleOf(view: View, date: string): string {
  const [y, m] = date.split('-').map(Number)
  if (view === 'month') return `${MONTHS[m - 1]} ${y}`
  const days = daysOf(view, date)
  const fmt = (d: string) => `${MONTHS[Number(d.slice(5, 7)) - 1].slice(0, 3)} ${Number(d.slice(8))}, ${d.slice(0, 4)}`
  return view === 'day' ? `${['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][dow(date)]}, ${fmt(date)}` : `${fmt(days[0])} – ${fmt(days[days.length - 1])}`
}

/** The date the previous (-1) or next (+1) link of a view goes to. */
export function stepDate(view: View, date: string, dir: -1 | 1): string {
  if (view === 'day') return addDays(date, dir)
  if (view === 'week') return addDays(date, 7 * dir)
  if (view === 'agenda') return addDays(date, AGENDA_DAYS * dir)
  const [y, m] = date.split('-').map(Number)
  const t = new Date(Date.UTC(y, m - 1 + dir, 1))
  return `${t.getUTCFullYear()}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-01`
}
