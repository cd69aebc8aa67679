/**
 * A user's tasks as iCalendar (RFC 5545; decision 043), for GET /ical/{secret}.ics: the tasks
 * of the feed's facility assigned to the user, 30 days back to 180 ahead. A repeating task is
 * sent as its occurrences (one VEVENT each, UID per day, exceptions left out), so every phone
 * shows the same days at the same wall-clock time as the calendar, across clock changes.
 */
import type { AppLoadContext } from '@remix-run/node'
import { timeZoneOf } from '../../facilities/facts.server'
import { addDays, localDate } from '../../format/date-ranges'
import { feedOwner } from './feed.server'
import { occurrences } from './recur'

const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n')
const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '')

/** Lines folded at 75 octets (RFC 5545 3.1). */
function fold(line: string): string {
  const out: string[] = []
  let rest = line
  while (Buffer.byteLength(rest) > 75) {
    let n = 74
    while (Buffer.byteLength(rest.slice(0, n)) > 74) n--
    out.push(rest.slice(0, n))
    rest = ` ${rest.slice(n)}`
  }
  out.push(rest)
  return out.join('\r\n')
}

export async function icsFeed(context: AppLoadContext, token: string, now = new Date()): Promise<string | null> {
  const owner = await feedOwner(context.database.db, token)
  if (!owner) return null
  const user = await context.database.store.get('auth', 'users', owner.uid)
  if (!user) return null
  const name = [user.firstname, user.lastname].filter(Boolean).join(' ')
  const tz = await timeZoneOf(context, owner.org)
  const today = localDate(now, tz)
  const fromDay = addDays(today, -30)
  const toDay = addDays(today, 180)
  const rows = (
    await context.database.db.query<{ id: string; doc: Record<string, unknown> }>(
      `SELECT id, doc FROM c_sch_tasks WHERE org = $1 AND (doc ->> 'IsUsed') IS DISTINCT FROM 'no' AND (doc ->> 'assignee') = $2 ORDER BY doc ->> 'start' LIMIT 5000`,
      [owner.org, name],
    )
  ).rows
  const rooms = new Map((await context.database.db.query<{ id: string; name: string }>(`SELECT id, doc ->> 'name' AS name FROM c_set_rooms WHERE org = $1`, [owner.org])).rows.map((r) => [r.id, r.name]))
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Canopy//Tasks//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', `X-WR-CALNAME:${esc(`Canopy tasks · ${name}`)}`]
  const dtstamp = stamp(now.toISOString())
  for (const r of rows) {
    const d = r.doc
    if (typeof d.start !== 'string') continue
    for (const o of occurrences(d as { start: string }, fromDay, toDay, tz)) {
      lines.push('BEGIN:VEVENT', `UID:${r.id}-${o.day}@canopy`, `DTSTAMP:${dtstamp}`)
      if (d.allDay === 'yes') lines.push(`DTSTART;VALUE=DATE:${o.day.replace(/-/g, '')}`, `DTEND;VALUE=DATE:${addDays(localDate(new Date(Date.parse(o.end) - 1), tz), 1).replace(/-/g, '')}`)
      else lines.push(`DTSTART:${stamp(o.start)}`, `DTEND:${stamp(o.end)}`)
      lines.push(`SUMMARY:${esc(String(d.title ?? ''))}`)
      if (d.category) lines.push(`CATEGORIES:${esc(String(d.category))}`)
      if (d.room && rooms.get(String(d.room))) lines.push(`LOCATION:${esc(rooms.get(String(d.room))!)}`)
      const desc = [d.status ? `Status: ${d.status}` : '', d.priority ? `Priority: ${d.priority}` : '', String(d.notes ?? '')].filter(Boolean).join('\n')
      if (desc) lines.push(`DESCRIPTION:${esc(desc)}`)
      if (d.status === 'Cancelled') lines.push('STATUS:CANCELLED')
      lines.push('END:VEVENT')
    }
  }
  lines.push('END:VCALENDAR')
  return `${lines.map(fold).join('\r\n')}\r\n`
}
