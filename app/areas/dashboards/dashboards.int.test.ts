/**
 * Dashboards (issue 25) on the real database, PGlite and PostgreSQL, over the demo data: every
 * figure that links to a table screen links to one whose item count (the real table loader,
 * same URL) equals the figure's record count; the period in the URL; bad periods are named.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { saveLink } from '#app/metrc/sync/links.server'
import { loader as screenLoader } from '#app/routes/$'
import { loader as plantsLoader } from '#app/routes/DshPlants'
import { loader as harvestsLoader } from '#app/routes/DshHarvests'
import { loader as complianceLoader } from '#app/routes/DshCompliance'
import { loader as cultivationLoader } from '#app/routes/DshCultivation'
import { loader as welcomeLoader } from '#app/routes/Welcome'
import { loader as outboxLoader } from '#app/routes/MetrcOutbox'
import { loader as driftLoader } from '#app/routes/MetrcDrift'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import type { Board } from './board'
import type { Figure } from './charts/types'
import { DRIFT, LOW_TAGS, OUTBOX, TAGS } from './compliance.server'
import type { MyDay } from './my-day.server'

let t: TestDatabase
let env: Env
beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1' })
  await seedDemo(t, env)
}, 300_000)
afterAll(async () => {
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `dsh-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route module's loader takes Remix's argument object
async function get(mod: (a: any) => Promise<unknown>, url: string, session: string): Promise<Response> {
  try {
    return (await mod({ request: new Request(`http://canopy.test${url}`, { headers: { Cookie: `${COOKIE}=${session}` } }), context: ctx(), params: { '*': url.split('?')[0].slice(1) } })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}

/** every figure with a link: tiles, chart marks, list cells */
export function figuresOf(b: Board): Array<Figure & { where: string }> {
  const out: Array<Figure & { where: string }> = []
  for (const k of b.tiles) if (k.href) out.push({ ...k, where: `tile ${k.label}` })
  for (const c of b.charts) {
    const figs = c.kind === 'bars' ? c.bars : c.kind === 'line' ? c.points : c.kind === 'donut' ? c.slices : c.rows.flatMap((r) => r.parts.map((p, i) => ({ ...p, label: `${r.label} · ${c.series[i]}` })))
    for (const f of figs) if (f.href) out.push({ ...f, where: `${c.title}: ${f.label}` })
  }
  for (const l of b.lists) for (const r of l.rows) for (const c of r.cells) if (c.href && c.count !== undefined) out.push({ label: c.text, value: c.count, count: c.count, href: c.href, where: `${l.title}: ${c.text}` })
  return out
}

const TABLE_LINK = /^\/(cul|Cul|Sch|Set|Metrc)[A-Za-z]+\?/

describe.each([
  ['/DshPlants', plantsLoader],
  ['/DshHarvests', harvestsLoader],
  ['/DshCompliance', complianceLoader],
  ['/DshCultivation', cultivationLoader],
] as const)('%s', (path, loader) => {
  it('every figure that links to a table agrees with that table’s item count', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    for (const q of ['', '?range=last-7-days', '?from=2022-01-01&to=2030-12-31']) {
      const res = await get(loader, `${path}${q}`, s)
      expect(res.status).toBe(200)
      const board = (await res.json()) as Board
      expect(board.notices).toEqual([])
      expect(board.charts.length + board.lists.length).toBeGreaterThan(0)
      const figs = figuresOf(board).filter((f) => TABLE_LINK.test(f.href!) && !f.href!.startsWith('/MetrcOutbox') && !f.href!.startsWith('/MetrcDrift'))
      expect(figs.length).toBeGreaterThan(2)
      expect(figs.some((f) => (f.count ?? f.value) > 0)).toBe(true)
      for (const f of figs) {
        const r = await get(screenLoader, f.href!, s)
        expect(r.status, f.href).toBe(200)
        const data = (await r.json()) as { table: { total: number; exact: boolean; notices: string[] } }
        expect(data.table.notices, f.href).toEqual([])
        expect({ where: f.where, href: f.href, n: data.table.total }).toEqual({ where: f.where, href: f.href, n: f.count ?? f.value })
      }
    }
  })
})

describe('the METRC outbox and drift tiles (Compliance)', () => {
  it('open the outbox tab and the drift list that hold exactly the counted items', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    const statuses = ['failed', 'failed', 'held', 'pending', 'sent', 'confirmed', 'discarded']
    for (const [i, st] of statuses.entries())
      await t.db.query(
        `INSERT INTO metrc_outbox (org, id, endpoint, payload, marker, label, status, created_by, updated_by) VALUES ('greenleaf', $1, 'POST /plants/v2/waste', '{}', $1, $2, $3, 'u-admin', 'u-admin')`,
        [`dsh-ob-${i}`, `Dashboard test ${st}`, st],
      )
    for (const [i, st] of ['open', 'open', 'open', 'resolved'].entries())
      await t.db.query(`INSERT INTO metrc_drift (org, id, tbl, tag, field, record_id, metrc_doc, status) VALUES ('greenleaf', $1, 'plants', $2, 'Room', 'x', 'y', $3)`, [`dsh-dr-${i}`, `1A4DSH${i}`, st])
    try {
      const b = (await (await get(complianceLoader, '/DshCompliance', s)).json()) as Board
      const tile = (label: string) => b.tiles.find((k) => k.label === label)!
      const base = (await t.db.query<{ failed: number; queued: number; drift: number }>(
        `SELECT (SELECT count(*)::int FROM metrc_outbox WHERE org = 'greenleaf' AND status = 'failed') AS failed, (SELECT count(*)::int FROM metrc_outbox WHERE org = 'greenleaf' AND status IN ('pending', 'sent')) AS queued,
                (SELECT count(*)::int FROM metrc_drift WHERE org = 'greenleaf' AND status = 'open') AS drift`,
      )).rows[0]
      expect(base.failed).toBeGreaterThanOrEqual(2)
      expect(base.drift).toBeGreaterThanOrEqual(3)
      // each tile: its figure, its link, and the page behind the link lists that many items
      const failed = tile('Failed METRC pushes')
      expect(failed).toMatchObject({ value: base.failed, count: base.failed, href: `${OUTBOX}?tab=attention&status=failed` })
      const f = (await (await get(outboxLoader, failed.href!, s)).json()) as { items: Array<{ status: string }>; only: string }
      expect(f.only).toBe('failed')
      expect(f.items.map((i) => i.status)).toEqual(Array(base.failed).fill('failed'))
      const pending = tile('Pending METRC pushes')
      expect(pending).toMatchObject({ value: base.queued, count: base.queued, href: `${OUTBOX}?tab=queued` })
      const q = (await (await get(outboxLoader, pending.href!, s)).json()) as { items: Array<{ status: string }> }
      expect(q.items.length).toBe(base.queued)
      // a status the tab does not hold is ignored: the whole tab
      const wrong = (await (await get(outboxLoader, `${OUTBOX}?tab=queued&status=failed`, s)).json()) as { items: unknown[]; only: string | null }
      expect([wrong.only, wrong.items.length]).toEqual([null, base.queued])
      const drift = tile('Open drift items')
      expect(drift).toMatchObject({ value: base.drift, count: base.drift, href: DRIFT })
      const d = (await (await get(driftLoader, drift.href!, s)).json()) as { drift: { openTotal: number; open: unknown[] } }
      expect([d.drift.openTotal, d.drift.open.length]).toEqual([base.drift, base.drift])
    } finally {
      await t.db.query(`DELETE FROM metrc_outbox WHERE org = 'greenleaf' AND id LIKE 'dsh-ob-%'`)
      await t.db.query(`DELETE FROM metrc_drift WHERE org = 'greenleaf' AND id LIKE 'dsh-dr-%'`)
    }
  })
})

describe('the tags on hand (Compliance)', () => {
  it('counts plant and package tags as /MetrcTags lists them, amber under the threshold, and says when METRC last gave them', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    const board = async () => (await (await get(complianceLoader, '/DshCompliance', s)).json()) as Board
    const tile = (b: Board, label: string) => b.tiles.find((k) => k.label === label)
    let b = await board()
    // both tiles are doors the figure check above follows (table links with their count)
    const doors = figuresOf(b).filter((f) => f.href!.startsWith(`${TAGS}?`))
    expect(doors.map((f) => f.where)).toEqual(['tile Plant tags on hand', 'tile Package tags on hand'])
    for (const f of doors) expect(f.href).toMatch(TABLE_LINK)
    // the demo's tags as the sync stores them: 180 plant tags, 42 package tags (under 50); no link yet
    expect(tile(b, 'Plant tags on hand')).toMatchObject({ value: 180, count: 180, tone: 'ok', note: 'not synced yet' })
    expect(tile(b, 'Package tags on hand')).toMatchObject({ value: 42, count: 42, tone: 'warn', note: `under ${LOW_TAGS.Package}: order more · not synced yet` })
    for (const [type, n] of [['Plant', 180], ['Package', 42]] as const) {
      const r = (await (await get(screenLoader, tile(b, `${type} tags on hand`)!.href!, s)).json()) as { table: { total: number } }
      expect(r.table.total).toBe(n)
    }
    // linked and synced five minutes ago; tags used since are no longer on hand
    await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin', requestId: 'dsh' }, 'greenleaf', { state: 'CA', license: 'CCL21-0001234', key: 'dsh-test-key' }, null)
    await t.db.query(`INSERT INTO metrc_sync (org, collection, status, started_at, finished_at, ok_at) VALUES ('greenleaf', 'metrc_tags', 'idle', $1, $1, $1)`, [new Date(Date.now() - 5 * 60_000).toISOString()])
    const plants = await t.store.find('greenleaf', 'metrc_tags', { Type: 'Plant' }, 90)
    for (const p of plants) await t.store.remove({ uid: 'metrc-sync' }, 'greenleaf', 'metrc_tags', p._id)
    try {
      b = await board()
      expect(tile(b, 'Plant tags on hand')).toMatchObject({ value: 90, count: 90, tone: 'warn', note: `under ${LOW_TAGS.Plant}: order more · synced 5 min ago` })
      expect(tile(b, 'Package tags on hand')!.note).toMatch(/· synced 5 min ago$/)
      const r = (await (await get(screenLoader, tile(b, 'Plant tags on hand')!.href!, s)).json()) as { table: { total: number } }
      expect(r.table.total).toBe(90)
    } finally {
      await t.db.query(`DELETE FROM metrc_sync WHERE org = 'greenleaf'`)
      await t.db.query(`DELETE FROM metrc_links WHERE org = 'greenleaf'`)
    }
  })
})

describe('the period in the URL', () => {
  it('a bad period is named and the default is used; the previous period is as long', async () => {
    const s = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
    const board = (await (await get(plantsLoader, '/DshPlants?range=fortnight&from=x', s)).json()) as Board
    expect(board.notices.join(' ')).toMatch(/range="fortnight"/)
    expect(board.period.range).toBe('last-30-days')
    expect(board.period.days).toBe(30)
    const custom = (await (await get(plantsLoader, '/DshPlants?from=2026-03-01&to=2026-03-10', s)).json()) as Board
    expect(custom.period).toMatchObject({ fromDay: '2026-03-01', toDay: '2026-03-10', days: 10 })
    expect(custom.period.previous).toMatchObject({ fromDay: '2026-02-19', toDay: '2026-02-28' })
  })

  it('a user without the dashboards module is refused', async () => {
    const s = await createSession(t, { uid: 'u-dist', step: 'done', facility: 'harbor' })
    expect((await get(plantsLoader, '/DshPlants', s)).status).toBe(403)
  })
})

describe('the start page after choosing a facility', () => {
  it('shows today\'s tasks, an alert for overdue tasks and the dashboards\' tiles; none of it for a user without those modules', async () => {
    const now = Date.now()
    await t.store.insert({ uid: 'test' }, 'greenleaf', 'sch_tasks', { title: 'Overdue flush', start: new Date(now - 5 * 86_400_000).toISOString(), end: new Date(now - 5 * 86_400_000 + 3_600_000).toISOString(), allDay: 'no', assignee: 'Maria Lopez', category: 'Feeding', priority: 'High', status: 'Scheduled' })
    await t.store.insert({ uid: 'test' }, 'greenleaf', 'sch_tasks', { title: 'Today: check drippers', start: new Date(now).toISOString(), end: new Date(now + 3_600_000).toISOString(), allDay: 'no', assignee: 'Maria Lopez', category: 'Maintenance', priority: 'Normal', status: 'Scheduled' })
    const s = await createSession(t, { uid: 'u-grower', step: 'done', facility: 'greenleaf' })
    const data = (await (await get(welcomeLoader, '/Welcome', s)).json()) as { day: MyDay }
    expect(data.day.mine).toBe(true)
    expect(data.day.tasks.map((x) => x.title)).toContain('Today: check drippers')
    expect(data.day.alerts.some((a) => /scheduled tasks are overdue/.test(a.text) && a.href.startsWith('/SchTasks?'))).toBe(true)
    const overdue = data.day.alerts.find((a) => /overdue/.test(a.text))!
    const n = Number(/^(\d+)/.exec(overdue.text)![1])
    const table = (await (await get(screenLoader, overdue.href, s)).json()) as { table: { total: number } }
    expect(table.table.total).toBe(n)
    expect(data.day.tiles.length).toBeGreaterThan(2)
    const dist = await createSession(t, { uid: 'u-dist', step: 'done', facility: 'harbor' })
    const other = (await (await get(welcomeLoader, '/Welcome', dist)).json()) as { day: MyDay }
    expect(other.day.tiles).toEqual([])
    expect(other.day.tasks).toEqual([])
  })
})
