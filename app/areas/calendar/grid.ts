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

/** The hourly grid of the week and day views (decision 043): the hours shown as rows, [FIRST_HOUR, LAST_HOUR). */
export const FIRST_HOUR = 5
export const LAST_HOUR = 22
/** the height of an hour row and the least height of a task in it, in px (a 44 px target) */
export const HOUR_PX = 48
export const MIN_TASK_PX = 44

/**
 * Where a task sits in the hourly grid: `band` (all day, or over more than one local day: the
 * band at the top, from column `col` across `span` days), `early`/`late` (ends by FIRST_HOUR /
 * starts at LAST_HOUR or later: the Earlier/Later rows), or `grid` (minutes `top` from FIRST_HOUR,
 * `height` minutes, clipped to the rows; side by side with the tasks it overlaps: `lane` of `lanes`).
 */
export interface Slot {
  kind: 'band' | 'early' | 'late' | 'grid'
  col: number
  span: number
  top: number
  height: number
  lane: number
  lanes: number
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000)

/**
 * Places tasks (local start day and HH:MM, local last day and end HH:MM, all day or not) in the
 * columns `days`; returns a slot per task, in the same order.
 */
export function placeInHours(items: ReadonlyArray<{ day: string; startTime: string; lastDay: string; endTime: string; allDay: boolean }>, days: readonly string[]): Slot[] {
  const first = FIRST_HOUR * 60
  const last = LAST_HOUR * 60
  const slots: Slot[] = items.map((t) => {
    const col = Math.max(0, daysBetween(days[0], t.day))
    if (t.allDay || t.lastDay > t.day) {
      const end = Math.min(days.length - 1, daysBetween(days[0], t.lastDay))
      return { kind: 'band', col, span: Math.max(1, end - col + 1), top: 0, height: 0, lane: 0, lanes: 1 }
    }
    const s = minutes(t.startTime)
    const e = Math.max(s + 1, t.endTime === '00:00' ? 1440 : minutes(t.endTime))
    if (e <= first) return { kind: 'early', col, span: 1, top: 0, height: 0, lane: 0, lanes: 1 }
    if (s >= last) return { kind: 'late', col, span: 1, top: 0, height: 0, lane: 0, lanes: 1 }
    const top = Math.max(s, first) - first
    return { kind: 'grid', col, span: 1, top, height: Math.min(e, last) - first - top, lane: 0, lanes: 1 }
  })
  // side by side: per column, tasks that overlap on screen (a short one is drawn MIN_TASK_PX tall) share the width
  const minMinutes = (MIN_TASK_PX / HOUR_PX) * 60
  for (let c = 0; c < days.length; c++) {
    const col = slots.filter((x) => x.kind === 'grid' && x.col === c).sort((a, b) => a.top - b.top || b.height - a.height)
    let group: Slot[] = []
    let laneEnds: number[] = []
    let groupEnd = -1
    const close = () => {
      for (const x of group) x.lanes = laneEnds.length
      group = []
      laneEnds = []
    }
    for (const x of col) {
      const end = x.top + Math.max(x.height, minMinutes)
      if (x.top >= groupEnd) close()
      let lane = laneEnds.findIndex((e) => e <= x.top)
      if (lane < 0) lane = laneEnds.push(end) - 1
      else laneEnds[lane] = end
      x.lane = lane
      group.push(x)
      groupEnd = Math.max(groupEnd, end)
    }
    close()
  }
  return slots
}
