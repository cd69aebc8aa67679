/**
 * The CRM pipeline board and follow-ups (issue 27) on the real database, PGlite and PostgreSQL:
 * moves through the board's action (the form post a browser without JavaScript makes, and the
 * script's) change the stage through the write path (audit rows, ts); every refusal changes
 * nothing — another facility's prospect is not found, an unknown stage, a stale move (moved or
 * saved by someone else meanwhile); the calendar reads only the caller's facility's to-dos.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { timeZoneOf } from '#app/facilities/facts.server'
import { addDays, localDate, zonedMidnight } from '#app/format/date-ranges'
import { action as boardAction, loader as boardLoader } from '#app/routes/CrmSalesPipeline._index'
import { loader as calLoader } from '#app/routes/SchCalendar'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import type { CalData } from '../calendar/calendar.server'
import type { BoardData } from './board.server'
import { FOLLOW_UP, STAGES } from './rules'
import { todoItems } from './todos.server'

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

const ctx = () => ({ database: t, env, events, logger: pino({ level: 'silent' }), requestId: `crm-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- route functions take Remix's argument object
type Fn = (a: any) => Promise<unknown>
async function call(fn: Fn, url: string, session: string, form?: Record<string, string>): Promise<Response> {
  const init: RequestInit = form
    ? { method: 'POST', headers: { Cookie: `${COOKIE}=${session}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) }
    : { headers: { Cookie: `${COOKIE}=${session}` } }
  try {
    return (await fn({ request: new Request(`http://canopy.test${url}`, init), context: ctx(), params: {} })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
const board = async (s: string) => (await (await call(boardLoader, '/CrmSalesPipeline', s)).json()) as BoardData
const stored = (org: string, id: string) => t.store.get(org, 'crm_prospects', id)
const audits = async (org: string, id: string) => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM audit_log WHERE org = $1 AND collection = 'crm_prospects' AND doc_id = $2`, [org, id])).rows[0].n)
const move = (s: string, p: { _id: string; stage?: unknown; ts: string }, stage: string, extra: Record<string, string> = {}) =>
  call(boardAction, '/CrmSalesPipeline', s, { intent: 'move', id: p._id, from: String(p.stage ?? ''), ts: p.ts, stage, ...extra })

describe('the pipeline board', () => {
  it('shows the facility’s prospects in a column per stage, with counts and value', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    const b = await board(s)
    expect(b.columns.map((c) => c.stage)).toEqual([...STAGES])
    const mine = (await t.store.find('greenleaf', 'crm_prospects', {}, 1000)).filter((d) => d.IsUsed !== 'no')
    expect(b.columns.reduce((a, c) => a + c.count, 0) + b.unstaged.length).toBe(mine.length)
    // the demo has prospects in several stages
    expect(b.columns.filter((c) => c.count > 0).length).toBeGreaterThanOrEqual(5)
    for (const c of b.columns) {
      expect(c.value).toBe(c.cards.reduce((a, x) => a + x.value, 0))
      for (const card of c.cards) expect(mine.find((d) => d._id === card.id)?.stage).toBe(c.stage)
    }
  })

  it('moves a prospect through two stages (a plain form post and a script’s), audited, and the board shows it', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    const p = await t.store.insert({ uid: 'test' }, 'greenleaf', 'crm_prospects', { company: 'Board Move Dispensary', contact: 'Ana Ruiz', stage: 'New', value: 12000 })
    const before = await audits('greenleaf', p._id)
    const r1 = await move(s, p, 'Contacted')
    expect(r1.status).toBe(303)
    expect(decodeURIComponent(r1.headers.get('Location') ?? '')).toContain('Board Move Dispensary moved to Contacted.')
    const p1 = (await stored('greenleaf', p._id))!
    expect(p1.stage).toBe('Contacted')
    // the script's post carries the card as the board gave it (its ts: the unchanged-since check)
    const card = (await board(s)).columns.find((c) => c.stage === 'Contacted')!.cards.find((c) => c.id === p._id)!
    expect(new Date(card.ts).getTime()).toBe(new Date(p1.ts).getTime())
    const r2 = await move(s, { _id: card.id, stage: card.stage, ts: card.ts }, 'Proposal', { _js: '1' })
    expect(r2.status).toBe(200)
    expect(await r2.json()).toEqual({ ok: true, msg: 'Board Move Dispensary moved to Proposal.' })
    expect((await stored('greenleaf', p._id))!.stage).toBe('Proposal')
    expect(await audits('greenleaf', p._id)).toBe(before + 2)
    const b = await board(s)
    expect(b.columns.find((c) => c.stage === 'Proposal')!.cards.map((c) => c.id)).toContain(p._id)
    expect(b.columns.find((c) => c.stage === 'New')!.cards.map((c) => c.id)).not.toContain(p._id)
  })

  it('refuses another facility’s prospect (not found, not changed), an unknown stage and a stale move; nothing changes', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    // a prospect of harbor only: from greenleaf it is not found, and harbor's record stays as it was
    const theirs = await t.store.insert({ uid: 'test' }, 'harbor', 'crm_prospects', { company: 'Harbor Only Co.', stage: 'New', value: 5000 })
    const r = await move(s, theirs, 'Won')
    expect(r.status).toBe(404)
    expect(((await r.json()) as { error: string }).error).toMatch(/not found in this facility/)
    expect((await stored('harbor', theirs._id))!.stage).toBe('New')
    expect(await stored('greenleaf', theirs._id)).toBeNull()
    expect(await audits('harbor', theirs._id)).toBe(1)
    // the same id in both facilities: a greenleaf session moves greenleaf's only
    const twinId = `twin-${Math.random().toString(36).slice(2, 8)}`
    const g = await t.store.insert({ uid: 'test' }, 'greenleaf', 'crm_prospects', { _id: twinId, company: 'Twin G', stage: 'New' })
    await t.store.insert({ uid: 'test' }, 'harbor', 'crm_prospects', { _id: twinId, company: 'Twin H', stage: 'New' })
    expect((await move(s, g, 'Qualified')).status).toBe(303)
    expect((await stored('greenleaf', twinId))!.stage).toBe('Qualified')
    expect((await stored('harbor', twinId))!.stage).toBe('New')

    const p = await t.store.insert({ uid: 'test' }, 'greenleaf', 'crm_prospects', { company: 'Refusal Test Co.', stage: 'Qualified', value: 8000 })
    const audited = await audits('greenleaf', p._id)
    // an unknown stage
    const bad = await move(s, p, 'Closed Won')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toMatch(/“Closed Won” is not a stage/)
    // a stale move: someone moved it meanwhile (the board still showed Qualified)
    const other = await t.store.update({ uid: 'someone' }, 'greenleaf', 'crm_prospects', p._id, { ...p, stage: 'Proposal' })
    const stale = await move(s, p, 'Negotiation')
    expect(stale.status).toBe(409)
    expect(((await stale.json()) as { error: string }).error).toMatch(/was moved to Proposal by someone else meanwhile/)
    expect((await stored('greenleaf', p._id))!.stage).toBe('Proposal')
    // saved by someone else meanwhile (same stage, other fields): the unchanged-since check of the write path
    await t.store.update({ uid: 'someone' }, 'greenleaf', 'crm_prospects', p._id, { ...other, notes: 'Called today' })
    const stale2 = await move(s, other, 'Negotiation')
    expect(stale2.status).toBe(409)
    expect(((await stale2.json()) as { error: string }).error).toMatch(/changed by someone else since the board was loaded/)
    const now = (await stored('greenleaf', p._id))!
    expect(now.stage).toBe('Proposal')
    expect(now.notes).toBe('Called today')
    // only the two saves of "someone": the refusals wrote nothing
    expect(await audits('greenleaf', p._id)).toBe(audited + 2)
  })

  it('keeps entitlement and row rights: no CRM screen is 403; a locked prospect is refused for a user with CRM', async () => {
    const p = await t.store.insert({ uid: 'test' }, 'greenleaf', 'crm_prospects', { company: 'Locked Co.', stage: 'New', ed: 'no' })
    const open = await t.store.insert({ uid: 'test' }, 'greenleaf', 'crm_prospects', { company: 'Open Co.', stage: 'New' })
    // the grower has no CRM module in greenleaf: the screen itself is refused
    const grower = await createSession(t, { uid: 'u-grower', step: 'done', facility: 'greenleaf' })
    expect((await move(grower, open, 'Contacted')).status).toBe(403)
    expect((await stored('greenleaf', open._id))!.stage).toBe('New')
    // a plain user with the CRM module moves an open prospect, not a locked one
    const uid = `u-crm-${Math.random().toString(36).slice(2, 8)}`
    await t.store.insert({ uid: 'test' }, 'auth', 'users', { _id: uid, uid, email: `${uid}@test.local`, role: 'user', org: 'greenleaf', firstname: 'Sal', lastname: 'Rep', props: { facilities: ['greenleaf'], modules: { greenleaf: ['crm'] } }, web: 'yes', eulaip: '127.0.0.1' })
    const rep = await createSession(t, { uid, step: 'done', facility: 'greenleaf' })
    expect((await move(rep, open, 'Contacted')).status).toBe(303)
    expect((await stored('greenleaf', open._id))!.stage).toBe('Contacted')
    const r = await move(rep, p, 'Contacted')
    expect(r.status).toBe(403)
    expect(((await r.json()) as { error: string }).error).toMatch(/locked/)
    expect((await stored('greenleaf', p._id))!.stage).toBe('New')
  })
})

describe('CRM to-dos on the calendar', () => {
  it('shows a to-do with a due date on its day as a CRM follow-up, only the facility’s, and the filters apply', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    const tz = await timeZoneOf(ctx(), 'greenleaf')
    const day = addDays(localDate(new Date(), tz), 2)
    const due = new Date(Date.parse(`${day}T12:00:00Z`)).toISOString()
    const mine = await t.store.insert({ uid: 'test' }, 'greenleaf', 'crm_todo', { task: 'Call the buyer back', due, assigned_to: 'Zed Follow', status: 'Open', done: 'no' })
    // late in the evening of the day, facility time (the next day in UTC): still on its local day
    const late = new Date(zonedMidnight(addDays(day, 1), tz).getTime() - 30 * 60_000).toISOString()
    const plain = await t.store.insert({ uid: 'test' }, 'greenleaf', 'crm_todo', { task: 'Late evening to-do', due: late, status: 'Open', done: 'no' })
    const theirs = await t.store.insert({ uid: 'test' }, 'harbor', 'crm_todo', { task: 'Harbor to-do', due, status: 'Open', done: 'no' })
    const undated = await t.store.insert({ uid: 'test' }, 'greenleaf', 'crm_todo', { task: 'No date', status: 'Open', done: 'no' })
    for (const v of ['month', 'week', 'day', 'agenda']) {
      const c = (await (await call(calLoader, `/SchCalendar?view=${v}&date=${day}`, s)).json()) as CalData
      const it = c.items.find((i) => i.id === mine._id)
      expect(it, v).toMatchObject({ day, kind: 'crm-todo', category: FOLLOW_UP, href: `/CrmToDo/${mine._id}/edit`, allDay: true })
      expect(c.items.find((i) => i.id === plain._id)?.day, v).toBe(day)
      expect(c.items.some((i) => i.id === theirs._id), v).toBe(false)
      expect(c.items.some((i) => i.id === undated._id), v).toBe(false)
      // every CRM item is one of greenleaf's to-dos
      for (const i of c.items.filter((x) => x.kind === 'crm-todo')) expect(await t.store.get('greenleaf', 'crm_todo', i.id), i.title).not.toBeNull()
      if (v === 'month') expect(c.filterCategories).toContain(FOLLOW_UP)
    }
    const q = async (qs: string) => ((await (await call(calLoader, `/SchCalendar?view=week&date=${day}&${qs}`, s)).json()) as CalData).items
    expect((await q('assignee=Zed+Follow')).map((i) => i.id)).toContain(mine._id)
    expect((await q('assignee=Zed+Follow')).some((i) => i.id === plain._id)).toBe(false)
    expect((await q('category=IPM')).some((i) => i.kind === 'crm-todo')).toBe(false)
    const only = await q(`category=${encodeURIComponent(FOLLOW_UP)}`)
    expect(only.map((i) => i.id)).toContain(mine._id)
    expect(only.every((i) => i.kind === 'crm-todo')).toBe(true)
    const room = (await t.store.find('greenleaf', 'set_rooms', {}, 1))[0]
    expect((await q(`room=${room._id}`)).some((i) => i.kind === 'crm-todo')).toBe(false)
    // the source itself, asked for harbor, reads harbor's only
    const h = await todoItems({ context: ctx(), facility: 'harbor', timeZone: tz, days: [day], filters: { assignee: '', room: '', category: '' } })
    expect(h.map((i) => i.id)).toContain(theirs._id)
    for (const i of h) expect(await t.store.get('harbor', 'crm_todo', i.id)).not.toBeNull()
    expect(h.some((i) => i.id === mine._id && i.title.startsWith('Call the buyer'))).toBe(false)
  })
})
