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
import { loader as screenLoader } from '#app/routes/$'
import { loader as plantsLoader } from '#app/routes/DshPlants'
import { loader as harvestsLoader } from '#app/routes/DshHarvests'
import { loader as complianceLoader } from '#app/routes/DshCompliance'
import { loader as cultivationLoader } from '#app/routes/DshCultivation'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import type { Board } from './board'
import type { Figure } from './charts/types'

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
