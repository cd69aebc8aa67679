/**
 * Recurring tasks (decision 043): an RFC 5545 RRULE subset stored on the task — FREQ=DAILY,
 * WEEKLY (BYDAY), MONTHLY (the start's day of the month), INTERVAL, UNTIL (a day) or COUNT —
 * and exceptions as local days (YYYY-MM-DD) the series skips. Occurrences keep the first one's
 * wall-clock time in the facility's zone. Pure: the calendar, the .ics feed and tests share it.
 */
import { addDays, localDate, zonedMidnight } from '../../format/date-ranges'

export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export interface Rule {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY'
  interval: number
  byday: Weekday[]
  /** last local day (inclusive) */
  until?: string
  count?: number
}

/** Reads the RRULE subset; null for anything else (the task is then a single one). */
export function parseRule(s: unknown): Rule | null {
  if (typeof s !== 'string' || !s.trim()) return null
  const parts = new Map(s.replace(/^RRULE:/i, '').split(';').map((p) => p.split('=') as [string, string]).map(([k, v]) => [k?.toUpperCase(), (v ?? '').toUpperCase()]))
  const freq = parts.get('FREQ')
  if (freq !== 'DAILY' && freq !== 'WEEKLY' && freq !== 'MONTHLY') return null
  const interval = Math.min(99, Math.max(1, Number(parts.get('INTERVAL') ?? 1) || 1))
  const byday = (parts.get('BYDAY') ?? '').split(',').filter((d): d is Weekday => (WEEKDAYS as readonly string[]).includes(d))
  const u = parts.get('UNTIL')
  const until = u && /^\d{8}/.test(u) ? `${u.slice(0, 4)}-${u.slice(4, 6)}-${u.slice(6, 8)}` : undefined
  const count = parts.has('COUNT') ? Math.min(1000, Math.max(1, Number(parts.get('COUNT')) || 1)) : undefined
  return { freq, interval, byday, ...(until ? { until } : {}), ...(count ? { count } : {}) }
}

/** A rule back to RRULE text. */
export function ruleText(r: Rule): string {
  const p = [`FREQ=${r.freq}`]
  if (r.interval > 1) p.push(`INTERVAL=${r.interval}`)
  if (r.freq === 'WEEKLY' && r.byday.length) p.push(`BYDAY=${r.byday.join(',')}`)
  if (r.until) p.push(`UNTIL=${r.until.replace(/-/g, '')}T235959Z`)
  if (r.count) p.push(`COUNT=${r.count}`)
  return p.join(';')
}

const dow = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay()
const dayNum = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000

/** The local days of a series, in order, from its first day, at most `max` (exceptions not removed). */
export function seriesDays(first: string, r: Rule, lastDay: string, max = 2000): string[] {
  const out: string[] = []
  const end = r.until && r.until < lastDay ? r.until : lastDay
  const days = r.freq === 'WEEKLY' ? (r.byday.length ? r.byday.map((d) => WEEKDAYS.indexOf(d)) : [dow(first)]) : []
  const week0 = dayNum(addDays(first, -dow(first)))
  const [fy, fm, fd] = first.split('-').map(Number)
  for (let i = 0, day = first; day <= end && out.length < max; i++) {
    let ok = false
    if (r.freq === 'DAILY') ok = (dayNum(day) - dayNum(first)) % r.interval === 0
    else if (r.freq === 'WEEKLY') ok = days.includes(dow(day)) && Math.floor((dayNum(day) - week0) / 7) % r.interval === 0
    else {
      const [y, m, d] = day.split('-').map(Number)
      ok = d === fd && ((y - fy) * 12 + (m - fm)) % r.interval === 0
    }
    if (ok) {
      out.push(day)
      if (r.count && out.length >= r.count) break
    }
    day = addDays(day, 1)
    if (i > 40_000) break
  }
  return out
}

export interface Occurrence {
  /** the local day of this occurrence */
  day: string
  start: string
  end: string
}

/** Occurrences of a task that overlap [fromDay, toDay], exceptions skipped; a single task is its own one occurrence. */
export function occurrences(task: { start: string; end?: string; repeat?: unknown; except?: unknown }, fromDay: string, toDay: string, timeZone: string): Occurrence[] {
  const s = Date.parse(task.start)
  if (Number.isNaN(s)) return []
  const e = task.end && !Number.isNaN(Date.parse(task.end)) && Date.parse(task.end) > s ? Date.parse(task.end) : s + 3_600_000
  const first = localDate(new Date(s), timeZone)
  const rule = parseRule(task.repeat)
  if (!rule) {
    const lastDay = localDate(new Date(e - 1), timeZone)
    return lastDay < fromDay || first > toDay ? [] : [{ day: first, start: new Date(s).toISOString(), end: new Date(e).toISOString() }]
  }
  const skip = new Set(exceptionsOf(task.except))
  const offset = s - zonedMidnight(first, timeZone).getTime()
  return seriesDays(first, rule, toDay)
    .filter((d) => d >= fromDay && !skip.has(d))
    .map((d) => {
      const st = zonedMidnight(d, timeZone).getTime() + offset
      return { day: d, start: new Date(st).toISOString(), end: new Date(st + (e - s)).toISOString() }
    })
}

/** The exception days stored on a task (a comma-separated text). */
export function exceptionsOf(v: unknown): string[] {
  return typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter((x) => /^\d{4}-\d{2}-\d{2}$/.test(x)) : []
}
