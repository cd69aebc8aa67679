/**
 * A dashboard's period (decision 042): in the URL as on the table screens — a shortcut
 * (`range=last-30-days`, the default) or custom days (`from`, `to`, inclusive) — read in the
 * facility's time zone. The previous period is the same number of days just before it, for
 * the KPI tiles' change. Links to tables always carry the period as custom days, so a figure
 * and its table filter the same instants (customRange on both sides).
 */
import { addDays, customRange, DATE_SHORTCUTS, isDateShortcut, isIsoDate, localDate, shortcutRange, SHORTCUT_LABELS, type DateShortcut } from '../../format/date-ranges'

export interface Span {
  /** first and last calendar day, inclusive (YYYY-MM-DD) */
  fromDay: string
  toDay: string
  /** the half-open instants [from, to) of those days in the zone */
  from: string
  to: string
}

export interface Period extends Span {
  range?: DateShortcut
  label: string
  previous: Span
  today: string
  timeZone: string
  /** the period's days */
  days: number
}

export const DEFAULT_RANGE: DateShortcut = 'last-30-days'
export const PERIOD_SHORTCUTS: DateShortcut[] = DATE_SHORTCUTS.filter((s) => s !== 'yesterday')

export function spanOf(fromDay: string, toDay: string, timeZone: string): Span {
  const r = customRange(fromDay, toDay, timeZone)
  return { fromDay, toDay, from: r.from!, to: r.to! }
}

function dayCount(fromDay: string, toDay: string): number {
  return Math.round((Date.parse(`${toDay}T00:00:00Z`) - Date.parse(`${fromDay}T00:00:00Z`)) / 86_400_000) + 1
}

/** The period a dashboard URL names (bad values fall back to the default), and notices for them. */
export function readPeriod(params: URLSearchParams, timeZone: string, now = new Date()): { period: Period; notices: string[] } {
  const notices: string[] = []
  const today = localDate(now, timeZone)
  let fromDay: string
  let toDay: string
  let range: DateShortcut | undefined
  const f = params.get('from') ?? ''
  const t = params.get('to') ?? ''
  const r = params.get('range') ?? ''
  if ((f || t) && !r) {
    const okF = isIsoDate(f)
    const okT = isIsoDate(t)
    if (!okF && f) notices.push(`Ignored from="${f.slice(0, 20)}": not a date (YYYY-MM-DD).`)
    if (!okT && t) notices.push(`Ignored to="${t.slice(0, 20)}": not a date (YYYY-MM-DD).`)
    fromDay = okF ? f : addDays(okT ? t : today, -29)
    toDay = okT ? t : today
    if (fromDay > toDay) {
      notices.push(`Ignored the dates: ${fromDay} is after ${toDay}.`)
      fromDay = addDays(today, -29)
      toDay = today
    }
    if (dayCount(fromDay, toDay) > 3660) {
      notices.push('The period is limited to ten years; showing the last ten years of it.')
      fromDay = addDays(toDay, -3659)
    }
  } else {
    if (r && !isDateShortcut(r)) notices.push(`Ignored range="${r.slice(0, 20)}": not a period this dashboard knows.`)
    range = isDateShortcut(r) ? r : DEFAULT_RANGE
    const s = shortcutRange(range, now, timeZone)
    fromDay = localDate(new Date(s.from), timeZone)
    toDay = localDate(new Date(Date.parse(s.to) - 1), timeZone)
  }
  const days = dayCount(fromDay, toDay)
  const span = spanOf(fromDay, toDay, timeZone)
  const previous = spanOf(addDays(fromDay, -days), addDays(fromDay, -1), timeZone)
  const label = range ? SHORTCUT_LABELS[range] : `${usDay(fromDay)} – ${usDay(toDay)}`
  return { period: { ...span, range, label, previous, today, timeZone, days }, notices }
}

export function usDay(iso: string): string {
  const [y, m, d] = iso.split('-')
  return `${m}/${d}/${y}`
}
