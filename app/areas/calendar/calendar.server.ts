/**
 * /SchCalendar (decision 043): tasks placed on the days of the month, week, day or agenda view
 * named in the URL (view, date, assignee, room, category, mine), with previous/next/today links;
 * create on a chosen day, move by new dates (a form) or by dragging (the same post), skip one
 * day of a recurring task, and the user's secret iCalendar link. Every write goes through the one
 * write path (createRecord/updateRecord) and tells the assignee over the event stream.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import type { AppLoadContext } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { timeZoneOf } from '../../facilities/facts.server'
import { addDays, isIsoDate, localDate, zonedMidnight } from '../../format/date-ranges'
import { utcWall, wallToInstant } from '../../format/zones'
import { createRecord, problemsOf, updateAndCreate, updateRecord } from '../../records/write.server'
import { PRIORITIES, TASK_CATEGORIES } from '../../seed/schemas/operations'
import { hasFeed, newFeedToken, revokeFeed } from './feed.server'
import { calendarSources } from './sources.server'
import { CAL, daysOf, placeInHours, readDate, readView, stepDate, titleOf, type Slot, type View } from './grid'

export { CAL }
import { exceptionsOf, occurrences, parseRule, ruleText, WEEKDAYS, type Rule } from './recur'

export const OPEN = ['Scheduled', 'In Progress']

export interface CalItem {
  id: string
  title: string
  day: string
  start: string
  end: string
  time: string
  /** local HH:MM of start, local day and HH:MM of end (the move form's values) */
  startTime: string
  endDay: string
  endTime: string
  allDay: boolean
  category: string
  assignee: string
  room: string
  roomName: string
  status: string
  overdue: boolean
  recurring: boolean
  ts: string
  /** week and day views: where the task sits in the hourly grid */
  slot?: Slot
  /** an item of another area's source (sources.server.ts): its kind, label and record address */
  kind?: string
  kindLabel?: string
  href?: string
}

export interface CalData {
  view: View
  date: string
  today: string
  title: string
  timeZone: string
  days: string[]
  items: CalItem[]
  filters: { assignee: string; room: string; category: string; mine: boolean }
  links: { prev: string; next: string; today: string }
  rooms: Array<{ id: string; name: string }>
  assignees: string[]
  categories: readonly string[]
  /** the Category filter's choices: the task categories and the sources' */
  filterCategories: string[]
  priorities: readonly string[]
  me: string
  /** ?new=day: the create form; ?edit=id: the move form */
  create: string | null
  /** ?new=day&at=HH:MM: the create form's start time (an hour slot's +) */
  createAt: string | null
  edit: (CalItem & { repeat: string; except: string[] }) | null
  feedSince: string | null
  origin: string
}

const wantIn = (v: string | null, max = 80) => (v ?? '').trim().slice(0, max)

/** The calendar URL with some settings changed. */
export function calUrl(base: Record<string, string | undefined>, change: Record<string, string | undefined> = {}): string {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...base, ...change })) if (v) p.set(k, v)
  const s = p.toString()
  return `${CAL}${s ? `?${s}` : ''}`
}

async function who(request: Request, context: AppLoadContext) {
  const { s, facility } = await requireScreen(request, context, CAL)
  const timeZone = await timeZoneOf(context, facility)
  const me = [s.user.firstname, s.user.lastname].filter(Boolean).join(' ') || s.user.email
  return { s, facility, timeZone, me }
}

export async function calendarLoader({ request, context }: LoaderFunctionArgs) {
  const { s, facility, timeZone, me } = await who(request, context)
  const url = new URL(request.url)
  const q = url.searchParams
  const today = localDate(new Date(), timeZone)
  const view = readView(q.get('view'))
  const date = readDate(q.get('date'), today)
  const filters = { assignee: wantIn(q.get('assignee')), room: wantIn(q.get('room')), category: wantIn(q.get('category')), mine: q.get('mine') === '1' }
  const days = daysOf(view, date)
  const from = zonedMidnight(days[0], timeZone).toISOString()
  const to = zonedMidnight(addDays(days[days.length - 1], 1), timeZone).toISOString()
  const params: unknown[] = [facility, to, from]
  const where = [`org = $1`, `(doc ->> 'IsUsed') IS DISTINCT FROM 'no'`, `((doc ->> 'start') COLLATE "C") < $2`, `(COALESCE(doc ->> 'repeat', '') <> '' OR (COALESCE(NULLIF(doc ->> 'end', ''), doc ->> 'start') COLLATE "C") >= $3)`]
  const assignee = filters.mine ? me : filters.assignee
  if (assignee) where.push(`(doc ->> 'assignee') = $${params.push(assignee)}`)
  if (filters.room) where.push(`(doc ->> 'room') = $${params.push(filters.room)}`)
  if (filters.category) where.push(`(doc ->> 'category') = $${params.push(filters.category)}`)
  const rows = (await context.database.db.query<{ id: string; doc: Record<string, unknown>; ts: string }>(`SELECT id, doc, ts FROM c_sch_tasks WHERE ${where.join(' AND ')} ORDER BY doc ->> 'start' LIMIT 2000`, params)).rows
  const roomRows = (await context.database.db.query<{ id: string; name: string }>(`SELECT id, COALESCE(doc ->> 'name', id) AS name FROM c_set_rooms WHERE org = $1 AND (doc ->> 'IsUsed') IS DISTINCT FROM 'no' ORDER BY 2`, [facility])).rows
  const roomName = new Map(roomRows.map((r) => [r.id, r.name]))
  const now = Date.now()
  const items: CalItem[] = []
  const toItem = (id: string, d: Record<string, unknown>, ts: string, o: { day: string; start: string; end: string }): CalItem => {
    const status = String(d.status ?? '')
    const allDay = d.allDay === 'yes'
    return {
      id, ts, title: String(d.title ?? ''), day: o.day, start: o.start, end: o.end, allDay,
      startTime: hhmm(o.start, timeZone), endDay: localDate(new Date(Date.parse(o.end) - (allDay ? 1 : 0)), timeZone), endTime: hhmm(o.end, timeZone),
      time: allDay ? 'all day' : new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(o.start)),
      category: String(d.category ?? ''), assignee: String(d.assignee ?? ''), room: String(d.room ?? ''), roomName: roomName.get(String(d.room ?? '')) ?? '',
      status, overdue: OPEN.includes(status) && Date.parse(o.end) < now, recurring: !!parseRule(d.repeat),
    }
  }
  for (const r of rows) for (const o of occurrences(r.doc as { start: string }, days[0], days[days.length - 1], timeZone)) items.push(toItem(r.id, r.doc, r.ts, o))
  const sources = calendarSources()
  for (const src of sources) items.push(...(await src.items({ context, facility, timeZone, days, filters: { assignee, room: filters.room, category: filters.category } })))
  items.sort((a, b) => a.start.localeCompare(b.start) || a.title.localeCompare(b.title))
  if (view === 'week' || view === 'day') {
    const slots = placeInHours(items.map((i) => ({ ...i, lastDay: localDate(new Date(Date.parse(i.end) - 1), timeZone) })), days)
    items.forEach((i, n) => (i.slot = slots[n]))
  }
  const assignees = (await context.database.db.query<{ a: string }>(`SELECT DISTINCT doc ->> 'assignee' AS a FROM c_sch_tasks WHERE org = $1 AND COALESCE(doc ->> 'assignee', '') <> '' ORDER BY 1 LIMIT 200`, [facility])).rows.map((r) => r.a)
  const base = { view: view === 'month' ? undefined : view, date: date === today ? undefined : date, assignee: filters.assignee || undefined, room: filters.room || undefined, category: filters.category || undefined, mine: filters.mine ? '1' : undefined }
  let edit: CalData['edit'] = null
  const editId = q.get('edit')
  if (editId) {
    const doc = await context.database.store.get(facility, 'sch_tasks', editId)
    if (doc && typeof doc.start === 'string') {
      const on = readDate(q.get('on'), localDate(new Date(doc.start), timeZone))
      const o = occurrences(doc as unknown as { start: string }, on, on, timeZone)[0] ?? { day: localDate(new Date(doc.start), timeZone), start: doc.start, end: String(doc.end || doc.start) }
      edit = { ...toItem(doc._id, doc, doc.ts, o), repeat: String(doc.repeat ?? ''), except: exceptionsOf(doc.except) }
    }
  }
  const data: CalData = {
    view, date, today, title: titleOf(view, date), timeZone, days, items, filters,
    links: { prev: calUrl(base, { date: stepDate(view, date, -1) }), next: calUrl(base, { date: stepDate(view, date, 1) }), today: calUrl(base, { date: undefined }) },
    rooms: roomRows, assignees: [...new Set([me, ...assignees])], categories: TASK_CATEGORIES, filterCategories: [...new Set([...TASK_CATEGORIES, ...sources.flatMap((x) => x.categories)])], priorities: PRIORITIES, me,
    create: isIsoDate(q.get('new') ?? '') ? q.get('new') : null, createAt: /^([01]\d|2[0-3]):[0-5]\d$/.test(q.get('at') ?? '') ? q.get('at') : null, edit,
    feedSince: await hasFeed(context.database.db, facility, s.user.uid),
    origin: url.origin,
  }
  return json(data, { headers: { 'Cache-Control': 'no-store' } })
}

function hhmm(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(iso))
}

/** A local day and HH:MM in the zone as an ISO instant; null when either is not one. */
export function instantOf(day: string, time: string, timeZone: string): string | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time || '00:00')
  if (!isIsoDate(day) || !m || Number(m[1]) > 23 || Number(m[2]) > 59) return null
  const [y, mo, d] = day.split('-').map(Number)
  return new Date(wallToInstant(utcWall(y, mo, d, Number(m[1]), Number(m[2])), timeZone)).toISOString()
}

/** The RRULE a create or move form asks for: repeat=none|daily|weekly|monthly, byday (weekly), until. */
export function ruleFromForm(f: FormData, startDay: string): { rule: string; error?: string } {
  const kind = String(f.get('repeat') ?? 'none')
  if (kind === 'none' || !kind) return { rule: '' }
  const until = String(f.get('until') ?? '')
  if (until && (!isIsoDate(until) || until < startDay)) return { rule: '', error: 'Repeat until must be a date on or after the start.' }
  const freq = ({ daily: 'DAILY', weekly: 'WEEKLY', monthly: 'MONTHLY' } as Record<string, Rule['freq']>)[kind]
  if (!freq) return { rule: '', error: 'Repeat must be none, daily, weekly or monthly.' }
  const byday = f.getAll('byday').map(String).filter((d): d is Rule['byday'][number] => (WEEKDAYS as readonly string[]).includes(d))
  if (freq === 'WEEKLY' && !byday.length) byday.push(WEEKDAYS[new Date(`${startDay}T00:00:00Z`).getUTCDay()])
  return { rule: ruleText({ freq, interval: 1, byday: freq === 'WEEKLY' ? byday : [], ...(until ? { until } : {}) }) }
}

export async function calendarAction({ request, context }: ActionFunctionArgs) {
  const { s, facility, timeZone } = await who(request, context)
  const f = await request.formData()
  const intent = String(f.get('intent') ?? '')
  const back = String(f.get('back') ?? CAL)
  const backTo = back.startsWith(`${CAL}`) && !back.startsWith('//') ? back : CAL
  const writer = { user: s.user, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }, facility }
  // back to the view the post came from, showing the day the task is now on
  const done = (msg: string, day?: string) => {
    const u = new URL(backTo, 'http://x')
    for (const k of ['new', 'at', 'edit', 'on', 'msg']) u.searchParams.delete(k)
    if (day) u.searchParams.set('date', day)
    u.searchParams.set('msg', msg)
    return redirect(`${u.pathname}${u.search}`, 303)
  }
  const refuse = (error: string, status = 400) => json({ error }, { status })
  try {
    if (intent === 'feed-new') return json({ feed: await newFeedToken(context.database.db, facility, s.user.uid) })
    if (intent === 'feed-revoke') {
      await revokeFeed(context.database.db, facility, s.user.uid)
      return json({ revoked: true })
    }
    if (intent === 'create' || intent === 'move') {
      const day = String(f.get('day') ?? '')
      const allDay = f.get('allDay') === 'yes'
      const start = instantOf(day, allDay ? '00:00' : String(f.get('time') ?? '08:00'), timeZone)
      if (!start) return refuse('Choose a start day and time.')
      const endDay = String(f.get('endDay') || day)
      const end = allDay ? zonedMidnight(addDays(endDay, 1), timeZone).toISOString() : instantOf(endDay, String(f.get('endTime') || ''), timeZone)
      if (!end) return refuse('Choose an end time.')
      if (end <= start) return refuse('The end must be after the start.')
      if (intent === 'create') {
        const { rule, error } = ruleFromForm(f, day)
        if (error) return refuse(error)
        const input = {
          title: String(f.get('title') ?? '').trim(), start, end, allDay: allDay ? 'yes' : 'no', assignee: String(f.get('assignee') ?? '').trim(),
          room: String(f.get('room') ?? ''), category: String(f.get('category') ?? ''), priority: String(f.get('priority') || 'Normal'), status: 'Scheduled',
          notes: String(f.get('notes') ?? ''), repeat: rule, except: '',
        }
        const r = await createRecord(context, writer, 'sch_tasks', input)
        if (r.doc) await tell(context, facility, input.assignee, `New task: ${input.title}`, `${day}${rule ? ' (repeats)' : ''}`, s.user.firstname)
        return done(`Task added: ${input.title}`, day)
      }
      const id = String(f.get('id') ?? '')
      const row = await context.database.store.get(facility, 'sch_tasks', id)
      if (!row) return refuse('That task no longer exists.', 404)
      const expect = f.get('ts') ? { expectTs: String(f.get('ts')) } : {}
      const title = String(row.title ?? '')
      if (f.get('scope') === 'day' && parseRule(row.repeat)) {
        // one day of a series on its own: the day becomes an exception of the series and a
        // standalone task (no repeat) takes it at the new dates, in one transaction
        const on = String(f.get('on') ?? '')
        if (!isIsoDate(on) || !occurrences(row as unknown as { start: string }, on, on, timeZone).some((o) => o.day === on)) return refuse('That day is not one of this task’s days.')
        const except = [...new Set([...exceptionsOf(row.except), on])].sort().join(',')
        const note = `Moved from ${on} of the repeating task “${title}” (${id}).`
        const input = {
          title, start, end, allDay: allDay ? 'yes' : 'no', assignee: String(row.assignee ?? ''), room: String(row.room ?? ''), category: String(row.category ?? ''),
          priority: String(row.priority || 'Normal'), status: String(row.status || 'Scheduled'), notes: [String(row.notes ?? '').trim(), note].filter(Boolean).join('\n'), repeat: '', except: '',
        }
        await updateAndCreate(context, writer, 'sch_tasks', id, { except }, input, { partial: true, anyMinute: true, ...expect })
        const newDay = localDate(new Date(start), timeZone)
        await tell(context, facility, String(row.assignee ?? ''), `Task moved: ${title}`, `${on} → ${newDay} (only this day)`, s.user.firstname)
        return done(`Moved ${on} only: ${title}`, newDay)
      }
      // a moved recurring task: the whole series moves by the same amount
      const shift = Date.parse(start) - Date.parse(String(f.get('from') || row.start))
      const newStart = parseRule(row.repeat) ? new Date(Date.parse(String(row.start)) + shift).toISOString() : start
      const newEnd = parseRule(row.repeat) ? new Date(Date.parse(newStart) + (Date.parse(end) - Date.parse(start))).toISOString() : end
      await updateRecord(context, writer, 'sch_tasks', id, { start: newStart, end: newEnd, allDay: allDay ? 'yes' : 'no' }, { partial: true, anyMinute: true, ...expect })
      await tell(context, facility, String(row.assignee ?? ''), `Task moved: ${title}`, localDate(new Date(newStart), timeZone), s.user.firstname)
      return done(`Task moved: ${title}`, localDate(new Date(newStart), timeZone))
    }
    if (intent === 'skip') {
      const id = String(f.get('id') ?? '')
      const day = String(f.get('day') ?? '')
      const row = await context.database.store.get(facility, 'sch_tasks', id)
      if (!row) return refuse('That task no longer exists.', 404)
      if (!parseRule(row.repeat) || !isIsoDate(day)) return refuse('Only a day of a repeating task can be skipped.')
      const except = [...new Set([...exceptionsOf(row.except), day])].sort().join(',')
      await updateRecord(context, writer, 'sch_tasks', id, { except }, { partial: true, anyMinute: true })
      await tell(context, facility, String(row.assignee ?? ''), `Task skipped on ${day}: ${String(row.title ?? '')}`, '', s.user.firstname)
      return done(`Skipped ${day}: ${String(row.title ?? '')}`)
    }
    return refuse('This page takes no such request.')
  } catch (e) {
    const problems = problemsOf(e)
    if (problems) return refuse(problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join(' '))
    if (e instanceof Error && 'status' in e && typeof (e as { status: unknown }).status === 'number') return refuse(e.message, (e as unknown as { status: number }).status)
    throw e
  }
}

/** The assignee (a name on the task) is told on their open pages: the users of this facility by that name. */
async function tell(context: AppLoadContext, facility: string, assignee: string, title: string, body: string, from: string | undefined) {
  if (!assignee) return
  const users = await context.database.db.query<{ uid: string }>(
    `SELECT id AS uid FROM c_users WHERE org = 'auth' AND trim(concat_ws(' ', doc ->> 'firstname', doc ->> 'lastname')) = $1`,
    [assignee],
  )
  for (const u of users.rows) context.events.publishToUser(facility, u.uid, 'notification', { id: `task-${Date.now()}`, title, body, from: from ?? '', expanded: false })
}
