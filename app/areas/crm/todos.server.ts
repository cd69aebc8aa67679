/**
 * CRM to-dos on the calendar (issue 27): a calendar source (calendar/sources.server.ts) that
 * gives every crm_todo of the facility with a due date in the days shown as an all-day item on
 * its local day, labelled a CRM follow-up, linking to the to-do's record. The calendar's filters
 * apply: the assignee (or My tasks) matches "Assigned To"; a room filter shows none (a to-do has
 * no room); a category filter shows them only for "CRM follow-up".
 */
import { addDays, isIsoDate, localDate, zonedMidnight } from '../../format/date-ranges'
import type { CalItem } from '../calendar/calendar.server'
import type { CalendarSource, SourceQuery } from '../calendar/sources.server'
import { FOLLOW_UP, TODOS } from './rules'

/** The local day of a due value: a plain date as it is, an instant in the facility's zone. */
export function dueDay(due: unknown, timeZone: string): string | null {
  if (typeof due !== 'string' || !due) return null
  if (isIsoDate(due)) return due
  const t = Date.parse(due)
  return Number.isNaN(t) ? null : localDate(new Date(t), timeZone)
}

export async function todoItems({ context, facility, timeZone, days, filters }: SourceQuery): Promise<CalItem[]> {
  if (filters.room || (filters.category && filters.category !== FOLLOW_UP) || !days.length) return []
  const first = days[0]
  const last = days[days.length - 1]
  // a wide text range on the stored value (plain dates and instants both), then the exact local day
  const params: unknown[] = [facility, addDays(first, -1), addDays(last, 2)]
  const where = [`t.org = $1`, `(t.doc ->> 'IsUsed') IS DISTINCT FROM 'no'`, `COALESCE(t.doc ->> 'due', '') <> ''`, `((t.doc ->> 'due') COLLATE "C") >= $2`, `((t.doc ->> 'due') COLLATE "C") < $3`]
  if (filters.assignee) where.push(`(t.doc ->> 'assigned_to') = $${params.push(filters.assignee)}`)
  const rows = (await context.database.db.query<{ id: string; doc: Record<string, unknown>; ts: Date | string; prospect: string | null }>(
    `SELECT t.id, t.doc, t.ts, p.doc ->> 'company' AS prospect FROM c_crm_todo t LEFT JOIN c_crm_prospects p ON p.org = t.org AND p.id = t.doc ->> 'prospect' WHERE ${where.join(' AND ')} ORDER BY t.doc ->> 'due' LIMIT 1000`,
    params,
  )).rows
  const today = localDate(new Date(), timeZone)
  const items: CalItem[] = []
  for (const r of rows) {
    const day = dueDay(r.doc.due, timeZone)
    if (!day || day < first || day > last) continue
    const done = r.doc.done === 'yes' || r.doc.status === 'Done'
    const title = `${String(r.doc.task ?? '')}${r.prospect ? ` — ${r.prospect}` : ''}`
    items.push({
      id: r.id, ts: (r.ts instanceof Date ? r.ts : new Date(r.ts)).toISOString(), title, day, start: zonedMidnight(day, timeZone).toISOString(), end: zonedMidnight(addDays(day, 1), timeZone).toISOString(),
      time: 'all day', startTime: '00:00', endDay: day, endTime: '00:00', allDay: true, category: FOLLOW_UP,
      assignee: String(r.doc.assigned_to ?? ''), room: '', roomName: '', status: String(r.doc.status || (done ? 'Done' : 'Open')),
      overdue: !done && day < today, recurring: false, kind: 'crm-todo', kindLabel: 'CRM', href: `${TODOS}/${encodeURIComponent(r.id)}/edit`,
    })
  }
  return items
}

export const todoSource: CalendarSource = { name: 'crm-todo', categories: [FOLLOW_UP], items: todoItems }
