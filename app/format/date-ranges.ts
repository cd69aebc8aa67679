/**
 * Date-range filters in the facility's time zone: the named shortcuts (Today, Last week, This
 * month, …) and custom from/to calendar days, as half-open [from, to) ranges of UTC instants ready
 * for a query. Weeks start on Sunday. Only Intl, no dependencies: server and browser alike.
 *
 * Calendar days are YYYY-MM-DD strings and all arithmetic on them is pure calendar arithmetic in
 * UTC; a zone is consulted only to find where a day starts (zonedMidnight) and which day an
 * instant falls on (localDate). An unknown or empty zone is read as UTC, never an error.
 */

import { utcWall as utc, wallParts, wallToInstant } from './zones'

export const DATE_SHORTCUTS = ['today', 'yesterday', 'this-week', 'last-week', 'last-7-days', 'last-30-days', 'this-month', 'last-month', 'this-year', 'last-year'] as const
export type DateShortcut = (typeof DATE_SHORTCUTS)[number]

export const SHORTCUT_LABELS: Record<DateShortcut, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  'this-week': 'This week',
  'last-week': 'Last week',
  'last-7-days': 'Last 7 days',
  'last-30-days': 'Last 30 days',
  'this-month': 'This month',
  'last-month': 'Last month',
  'this-year': 'This year',
  'last-year': 'Last year',
}

/** True for the names of DATE_SHORTCUTS, e.g. to read one from a query string. */
export function isDateShortcut(s: unknown): s is DateShortcut {
  return typeof s === 'string' && (DATE_SHORTCUTS as readonly string[]).includes(s)
}

/** ISO-8601 UTC instants as toISOString() writes them; half-open: from ≤ t < to. */
export interface InstantRange {
  from: string
  to: string
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

// YYYY-MM-DD of the UTC date of epoch ms; RangeError outside the years 0001–9999.
function isoDay(t: number): string {
  const d = new Date(t)
  const y = d.getUTCFullYear()
  if (!(y >= 1 && y <= 9999)) throw new RangeError(`Date out of range: ${d.toISOString()}`)
  return `${pad(y, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}

// The year, month and day of a YYYY-MM-DD date; RangeError when it is not one (see isIsoDate).
function parse(date: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  const [y, mo, d] = m ? [+m[1], +m[2], +m[3]] : [0, 0, 0]
  const days = new Date(utc(y, mo + 1, 0)).getUTCDate() // the month's last day: engines would roll 02/30 over to March
  if (!m || y < 1 || mo < 1 || mo > 12 || d < 1 || d > days) throw new RangeError(`Not a YYYY-MM-DD date: ${JSON.stringify(date)}`)
  return [y, mo, d]
}

/** Strictly YYYY-MM-DD (years 0001–9999) and a real calendar day: '2026-02-28' yes, '2026-02-30' and '2026-2-3' no. */
export function isIsoDate(s: string): boolean {
  try {
    parse(s)
    return true
  } catch {
    return false
  }
}

/** The calendar day n days after (n < 0: before) a YYYY-MM-DD date: addDays('2026-02-28', 1) → '2026-03-01'. RangeError for a bad date. */
export function addDays(date: string, n: number): string {
  const [y, mo, d] = parse(date)
  return isoDay(utc(y, mo, d + n))
}

/** The calendar day (YYYY-MM-DD) an instant falls on in the zone: 2026-03-08T06:00Z is '2026-03-07' in Los Angeles. RangeError for an invalid Date. */
export function localDate(at: Date, timeZone: string): string {
  if (Number.isNaN(at.getTime())) throw new RangeError('Invalid Date')
  const w = wallParts(at.getTime(), timeZone)
  return isoDay(utc(w.y, w.mo, w.d))
}

/**
 * The instant a calendar day starts in the zone: zonedMidnight('2026-03-08', 'America/Los_Angeles')
 * is 2026-03-08T08:00:00.000Z. Reads midnight as UTC (the guess), takes the zone's offset there
 * and re-checks the offset at the result, which differs when a clock change falls between the
 * two (Pacific/Auckland, east of UTC, meets every one of its changes this way). Where midnight
 * happens twice (Asia/Amman fell back from 01:00 to 00:00), the earlier; where the clocks skip it
 * (America/Havana springs forward from 00:00 to 01:00), the first instant of the day, 01:00.
 * RangeError for a bad date.
 */
export function zonedMidnight(date: string, timeZone: string): Date {
  const [y, mo, d] = parse(date)
  return new Date(wallToInstant(utc(y, mo, d), timeZone))
}

// [start of one day, start of another) as instants in the zone.
function days(from: string, to: string, timeZone: string): InstantRange {
  return { from: zonedMidnight(from, timeZone).toISOString(), to: zonedMidnight(to, timeZone).toISOString() }
}

/**
 * A shortcut's range around `now`, in calendar days of the facility's zone. Today is
 * [today 00:00, tomorrow 00:00); weeks run Sunday to Sunday; Last 7 days and Last 30 days
 * include today; months and years are calendar ones. A day is 23 or 25 hours long across a
 * clock change. RangeError for an invalid `now`.
 */
export function shortcutRange(name: DateShortcut, now: Date, timeZone: string): InstantRange {
  const today = localDate(now, timeZone)
  const [y, mo, d] = parse(today)
  const sunday = addDays(today, -new Date(utc(y, mo, d)).getUTCDay()) // getUTCDay: 0 is Sunday, the week's first day
  const month = (dy: number, dm: number) => isoDay(utc(y + dy, mo + dm, 1)) // the 1st of a month, relative to this one
  const year = (dy: number) => isoDay(utc(y + dy, 1, 1))
  switch (name) {
    case 'today':
      return days(today, addDays(today, 1), timeZone)
    case 'yesterday':
      return days(addDays(today, -1), today, timeZone)
    case 'this-week':
      return days(sunday, addDays(sunday, 7), timeZone)
    case 'last-week':
      return days(addDays(sunday, -7), sunday, timeZone)
    case 'last-7-days':
      return days(addDays(today, -6), addDays(today, 1), timeZone)
    case 'last-30-days':
      return days(addDays(today, -29), addDays(today, 1), timeZone)
    case 'this-month':
      return days(month(0, 0), month(0, 1), timeZone)
    case 'last-month':
      return days(month(0, -1), month(0, 0), timeZone)
    case 'this-year':
      return days(year(0), year(1), timeZone)
    case 'last-year':
      return days(year(-1), year(0), timeZone)
    default:
      throw new RangeError(`Unknown date shortcut: ${JSON.stringify(name)}`)
  }
}

/**
 * A custom range of calendar days, both inclusive: from '2026-03-01' to '2026-03-07' is
 * [03/01 00:00, 03/08 00:00) in the zone. Either side may be missing, and so is a side that is
 * not a YYYY-MM-DD date (these come from query strings), so the range is then open on that side.
 * From after to is left as given: an empty range.
 */
export function customRange(from: string | undefined, to: string | undefined, timeZone: string): Partial<InstantRange> {
  const r: Partial<InstantRange> = {}
  if (from !== undefined && isIsoDate(from)) r.from = zonedMidnight(from, timeZone).toISOString()
  // 9999-12-31 has no following day to end at: no end, as if missing
  if (to !== undefined && isIsoDate(to) && to !== '9999-12-31') r.to = zonedMidnight(addDays(to, 1), timeZone).toISOString()
  return r
}
