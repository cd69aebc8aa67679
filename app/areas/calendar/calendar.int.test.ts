/**
 * The calendar (issue 25) on the real database, PGlite and PostgreSQL: seeded tasks on their days
 * in month and week views; create, move, a weekly repeating task with one skipped day (the form
 * posts a browser without JavaScript makes); the assignee is told over the event stream; the
 * .ics feed parses with ical.js and holds the same occurrences; a new link revokes the old one.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import ICAL from 'ical.js'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { timeZoneOf } from '#app/facilities/facts.server'
import { addDays, localDate } from '#app/format/date-ranges'
import { action as calAction, loader as calLoader } from '#app/routes/SchCalendar'
import { loader as icalLoader } from '#app/routes/ical.$file'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import type { CalData } from './calendar.server'

let t: TestDatabase
let env: Env
const events = new EventHub()
beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1' })
  await seedDemo(t, env)
}, 300_000)
afterAll(async () => {
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events, logger: pino({ level: 'silent' }), requestId: `cal-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- route functions take Remix's argument object
type Fn = (a: any) => Promise<unknown>
async function call(fn: Fn, url: string, session: string, form?: Record<string, string | string[]>, params: Record<string, string> = {}): Promise<Response> {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x)
  const init: RequestInit = form ? { method: 'POST', headers: { Cookie: `${COOKIE}=${session}`, 'content-type': 'application/x-www-form-urlencoded' }, body } : { headers: { Cookie: `${COOKIE}=${session}` } }
  try {
    return (await fn({ request: new Request(`http://canopy.test${url}`, init), context: ctx(), params })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
const view = async (url: string, s: string) => (await (await call(calLoader, url, s)).json()) as CalData

describe('the calendar', () => {
  it('shows the seeded tasks on their days in month and week view', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    const tz = await timeZoneOf(ctx(), 'greenleaf')
    const seeded = (await t.store.find('greenleaf', 'sch_tasks', {}, 500)).filter((d) => d.IsUsed !== 'no')
    const month = await view('/SchCalendar', s)
    expect(month.view).toBe('month')
    expect(month.days).toHaveLength(42)
    const inMonth = seeded.filter((d) => { const day = localDate(new Date(String(d.start)), tz); return day >= month.days[0] && day <= month.days[41] })
    expect(inMonth.length).toBeGreaterThan(10)
    for (const d of inMonth) expect(month.items.find((i) => i.id === d._id)?.day, String(d.title)).toBe(localDate(new Date(String(d.start)), tz))
    const week = await view(`/SchCalendar?view=week&date=${month.today}`, s)
    expect(week.days).toHaveLength(7)
    // a task is in the week when it overlaps it: one that starts on the Saturday before and ends inside the week counts
    const inWeek = (i: { day: string; endDay: string }) => i.day <= week.days[6] && i.endDay >= week.days[0]
    for (const i of week.items) expect(inWeek(i), `${i.title}: ${i.day}–${i.endDay}`).toBe(true)
    expect(week.items.map((i) => i.id).sort()).toEqual(month.items.filter(inWeek).map((i) => i.id).sort())
    // previous/next/today are links with the view and filters kept
    const f = await view(`/SchCalendar?view=week&date=2026-03-04&category=IPM`, s)
    expect(f.links.next).toBe('/SchCalendar?view=week&date=2026-03-11&category=IPM')
    expect(f.links.prev).toBe('/SchCalendar?view=week&date=2026-02-25&category=IPM')
    expect(f.items.every((i) => i.category === 'IPM')).toBe(true)
    expect(month.items.some((i) => i.overdue)).toBe(true)
  })

  it('creates, moves, repeats weekly with one day skipped, tells the assignee, and the .ics feed holds the same occurrences', async () => {
    const s = await createSession(t, { uid: 'u-grower', step: 'done', facility: 'greenleaf' })
    const told: Array<{ event: string; data: unknown }> = []
    const detach = events.attach({ org: 'greenleaf', uid: 'u-grower', send: (event: string, data: unknown) => told.push({ event, data }) } as never)
    const me = await view('/SchCalendar', s)
    const base = addDays(me.today, 2)
    // a bad post changes nothing and says why
    const bad = await call(calAction, '/SchCalendar', s, { intent: 'create', title: 'x', day: base, time: '10:00', endDay: base, endTime: '09:00' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toMatch(/end must be after/)
    // create (the form without JavaScript)
    const res = await call(calAction, '/SchCalendar', s, { intent: 'create', back: `/SchCalendar?new=${base}`, title: 'Scout for mites', day: base, time: '09:30', endDay: base, endTime: '10:15', assignee: me.me, category: 'IPM', room: me.rooms[0].id, repeat: 'none' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(new RegExp(`^/SchCalendar\\?date=${base}&msg=Task\\+added`))
    let v = await view(`/SchCalendar?view=week&date=${base}&mine=1`, s)
    const made = v.items.find((i) => i.title === 'Scout for mites')!
    expect(made).toMatchObject({ day: base, startTime: '09:30', endTime: '10:15', assignee: me.me })
    expect(told.some((x) => x.event === 'notification' && JSON.stringify(x.data).includes('Scout for mites'))).toBe(true)
    // move by new dates
    const to = addDays(base, 1)
    expect((await call(calAction, '/SchCalendar', s, { intent: 'move', id: made.id, ts: made.ts, from: made.start, day: to, time: '13:00', endDay: to, endTime: '14:00' })).status).toBe(303)
    v = await view(`/SchCalendar?view=week&date=${to}&mine=1`, s)
    expect(v.items.find((i) => i.id === made.id)).toMatchObject({ day: to, startTime: '13:00' })
    // a stale move (someone saved meanwhile) is refused and changes nothing
    expect((await call(calAction, '/SchCalendar', s, { intent: 'move', id: made.id, ts: made.ts, from: made.start, day: base, time: '08:00', endDay: base, endTime: '09:00' })).status).toBe(409)
    // weekly on Monday and Thursday, skipping the second occurrence
    await call(calAction, '/SchCalendar', s, { intent: 'create', title: 'Reservoir change', day: base, time: '07:00', endDay: base, endTime: '08:00', assignee: me.me, category: 'Feeding', repeat: 'weekly', byday: ['MO', 'TH'], until: addDays(base, 27) })
    const agenda = await view(`/SchCalendar?view=agenda&date=${base}&mine=1`, s)
    const series = agenda.items.filter((i) => i.title === 'Reservoir change')
    expect(series.length).toBeGreaterThanOrEqual(7)
    expect(series.every((i) => [1, 4].includes(new Date(`${i.day}T00:00:00Z`).getUTCDay()) && i.startTime === '07:00' && i.recurring)).toBe(true)
    const skip = series[1]
    expect((await call(calAction, '/SchCalendar', s, { intent: 'skip', id: skip.id, day: skip.day })).status).toBe(303)
    const after = (await view(`/SchCalendar?view=agenda&date=${base}&mine=1`, s)).items.filter((i) => i.title === 'Reservoir change')
    expect(after.map((i) => i.day)).toEqual(series.filter((i) => i.day !== skip.day).map((i) => i.day))

    // the feed: a secret link, parsed by an iCalendar parser, the same occurrences
    const made1 = await call(calAction, '/SchCalendar', s, { intent: 'feed-new' })
    const token = ((await made1.json()) as { feed: string }).feed
    const ics = await call(icalLoader, `/ical/${token}.ics`, '', undefined, { file: `${token}.ics` })
    expect(ics.status).toBe(200)
    expect(ics.headers.get('content-type')).toMatch(/text\/calendar/)
    const cal = new ICAL.Component(ICAL.parse(await ics.text()))
    const evs = cal.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c))
    const feedRes = evs.filter((e) => e.summary === 'Reservoir change').map((e) => e.startDate.toJSDate().toISOString()).sort()
    expect(feedRes).toEqual(after.map((i) => i.start).sort())
    expect(evs.find((e) => e.summary === 'Scout for mites')!.startDate.toJSDate().toISOString()).toBe(v.items.find((i) => i.id === made.id)!.start)
    // nobody else's tasks are in it
    expect(evs.length).toBeGreaterThan(0)
    // a new link revokes the old one; turning it off revokes that one
    const second = ((await (await call(calAction, '/SchCalendar', s, { intent: 'feed-new' })).json()) as { feed: string }).feed
    expect((await call(icalLoader, `/ical/${token}.ics`, '', undefined, { file: `${token}.ics` })).status).toBe(404)
    expect((await call(icalLoader, `/ical/${second}.ics`, '', undefined, { file: `${second}.ics` })).status).toBe(200)
    await call(calAction, '/SchCalendar', s, { intent: 'feed-revoke' })
    expect((await call(icalLoader, `/ical/${second}.ics`, '', undefined, { file: `${second}.ics` })).status).toBe(404)
    detach()
  })

  it('moves one day of a repeating task on its own: the series skips it and a standalone task takes it, in one transaction; the .ics follows', async () => {
    const s = await createSession(t, { uid: 'u-grower', step: 'done', facility: 'greenleaf' })
    const told: Array<{ event: string; data: unknown }> = []
    const detach = events.attach({ org: 'greenleaf', uid: 'u-grower', send: (event: string, data: unknown) => told.push({ event, data }) } as never)
    const me = await view('/SchCalendar', s)
    const base = addDays(me.today, 3)
    await call(calAction, '/SchCalendar', s, { intent: 'create', title: 'Flush lines', day: base, time: '06:00', endDay: base, endTime: '06:45', assignee: me.me, category: 'Feeding', room: me.rooms[0].id, notes: 'Use the blue hose', repeat: 'daily', until: addDays(base, 6) })
    const agenda = async () => (await view(`/SchCalendar?view=agenda&date=${base}&mine=1`, s)).items.filter((i) => i.title === 'Flush lines')
    const series = await agenda()
    expect(series).toHaveLength(7)
    const occ = series[2]
    const id = occ.id
    const tasks = async () => (await t.store.find('greenleaf', 'sch_tasks', { title: 'Flush lines' }, 50)).filter((d) => d.IsUsed !== 'no')
    const before = (await t.store.get('greenleaf', 'sch_tasks', id))!
    const to = addDays(occ.day, 1)
    const move = (ts: string, day: string, on = occ.day, from = occ.start) => call(calAction, '/SchCalendar', s, { intent: 'move', scope: 'day', on, id, ts, from, day, time: '15:00', endDay: day, endTime: '16:30', back: `/SchCalendar?edit=${id}&on=${on}` })

    // a failure half way (after the series' update, at the new task's insert) leaves the series as it was and no new task
    const spy = vi.spyOn(t.store, 'insertIn').mockRejectedValueOnce(new Error('disk full'))
    await expect(move(before.ts, to)).rejects.toThrow('disk full')
    spy.mockRestore()
    expect((await t.store.get('greenleaf', 'sch_tasks', id))!).toMatchObject({ ts: before.ts, except: before.except })
    expect(await tasks()).toHaveLength(1)
    expect((await agenda()).map((i) => i.day)).toEqual(series.map((i) => i.day))

    // not a day of the series: refused
    expect((await move(before.ts, to, addDays(base, 30))).status).toBe(400)
    // the form's "Only this day" (no JavaScript; the drag's dialog posts the same)
    const res = await move(before.ts, to)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(new RegExp(`^/SchCalendar\\?date=${to}&msg=Moved`))
    const now = await agenda()
    expect(now.filter((i) => i.id === id).map((i) => i.day)).toEqual(series.filter((i) => i.day !== occ.day).map((i) => i.day))
    const single = now.find((i) => i.id !== id)!
    expect(single).toMatchObject({ day: to, startTime: '15:00', endTime: '16:30', recurring: false, assignee: me.me, category: 'Feeding', room: me.rooms[0].id })
    const doc = (await t.store.get('greenleaf', 'sch_tasks', single.id))!
    expect(doc.repeat ?? '').toBe('')
    expect(String(doc.notes)).toContain('Use the blue hose')
    expect(String(doc.notes)).toContain(id)
    expect((await t.store.get('greenleaf', 'sch_tasks', id))!.except).toBe(occ.day)
    expect(told.some((x) => x.event === 'notification' && JSON.stringify(x.data).includes('only this day'))).toBe(true)
    // both writes are audited
    expect((await t.store.history('greenleaf', 'sch_tasks', single.id)).map((h) => h.action)).toEqual(['insert'])
    // a stale one-day move (the series was saved meanwhile) is refused and writes nothing
    const other = series[4]
    expect((await move(before.ts, addDays(other.day, 1), other.day, other.start)).status).toBe(409)
    expect(await tasks()).toHaveLength(2)
    expect((await t.store.get('greenleaf', 'sch_tasks', id))!.except).toBe(occ.day)

    // the .ics: the moved day at its new time, not at the old
    const token = ((await (await call(calAction, '/SchCalendar', s, { intent: 'feed-new' })).json()) as { feed: string }).feed
    const ics = await call(icalLoader, `/ical/${token}.ics`, '', undefined, { file: `${token}.ics` })
    const evs = new ICAL.Component(ICAL.parse(await ics.text())).getAllSubcomponents('vevent').map((c) => new ICAL.Event(c)).filter((e) => e.summary === 'Flush lines')
    const starts = evs.map((e) => e.startDate.toJSDate().toISOString()).sort()
    expect(starts).toContain(single.start)
    expect(starts).not.toContain(occ.start)
    expect(starts).toEqual(now.map((i) => i.start).sort())
    detach()
  })

  it('places tasks in the hourly grid of the week and day views: by start and end in the facility zone, earlier/later rows, the band', async () => {
    const s = await createSession(t, { uid: 'u-grower', step: 'done', facility: 'greenleaf' })
    const me = await view('/SchCalendar', s)
    const day = addDays(me.today, 8)
    const add = (title: string, time: string, endTime: string, extra: Record<string, string> = {}) =>
      call(calAction, '/SchCalendar', s, { intent: 'create', title, day, time, endDay: day, endTime, assignee: me.me, category: 'IPM', repeat: 'none', ...extra })
    await add('Grid morning', '09:30', '10:15')
    await add('Grid overlap', '10:00', '11:00')
    await add('Grid night', '03:00', '04:00')
    await add('Grid late', '22:30', '23:00')
    await add('Grid all day', '00:00', '00:00', { allDay: 'yes', endDay: addDays(day, 1) })
    for (const v of ['week', 'day'] as const) {
      const w = await view(`/SchCalendar?view=${v}&date=${day}&mine=1`, s)
      const col = w.days.indexOf(day)
      const by = (title: string) => w.items.find((i) => i.title === title)!.slot
      expect(by('Grid morning')).toMatchObject({ kind: 'grid', col, top: (9 - 5) * 60 + 30, height: 45, lane: 0, lanes: 2 })
      expect(by('Grid overlap')).toMatchObject({ kind: 'grid', col, top: (10 - 5) * 60, height: 60, lane: 1, lanes: 2 })
      expect(by('Grid night')).toMatchObject({ kind: 'early', col })
      expect(by('Grid late')).toMatchObject({ kind: 'late', col })
      expect(by('Grid all day')).toMatchObject({ kind: 'band', col, span: Math.min(2, w.days.length - col) })
    }
    // the month and agenda views have no grid
    expect((await view(`/SchCalendar?date=${day}&mine=1`, s)).items.every((i) => i.slot === undefined)).toBe(true)
    // an hour slot's + opens the create form at that time
    expect((await view(`/SchCalendar?view=week&date=${day}&new=${day}&at=14:00`, s)).createAt).toBe('14:00')
    expect((await view(`/SchCalendar?view=week&date=${day}&new=${day}&at=25:00`, s)).createAt).toBeNull()
  })
})
