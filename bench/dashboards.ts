/**
 * Scenario "dash" (issue 25): each dashboard's loader (plantsBoard, harvestsBoard, complianceBoard,
 * cultivationBoard — what /DshPlants … /DshCultivation run, without the HTTP and sign-in around it)
 * over a facility of 1,000,000 plants on PostgreSQL and 100,000 on PGlite (BENCH_DASH_PLANTS_PG /
 * BENCH_DASH_PLANTS_PGLITE), against hand-written SQL for the same figures: one statement per
 * dashboard, one scan per table where FILTER clauses allow it, names of rooms and strains included.
 * Target: within 1.5× at p50. The figures of both sides are compared (a mismatch is printed).
 *
 * Then, on the built server with the demo data (embedded database), Chromium with a 6× CPU
 * slowdown (DevTools' CPU throttling): the time from navigation until a dashboard's charts are
 * visible, warm, for each of the four. Target: under 1.5 s.
 */
import type { AppLoadContext } from '@remix-run/node'
import { installServerAreas } from '../app/areas/index.server'
import { complianceBoard } from '../app/areas/dashboards/compliance.server'
import { cultivationBoard, OPEN_STATUSES } from '../app/areas/dashboards/cultivation.server'
import { labelsOf, type DashCtx } from '../app/areas/dashboards/common.server'
import { harvestsBoard } from '../app/areas/dashboards/harvests.server'
import { readPeriod, spanOf, type Period } from '../app/areas/dashboards/period'
import { LIVING, plantsBoard, VEG_DAYS, DEFAULT_FLOWER_WEEKS } from '../app/areas/dashboards/plants.server'
import type { Board } from '../app/areas/dashboards/board'
import { loadEnv } from '../app/config/env.server'
import type { Database } from '../app/db/index.server'
import { addDays } from '../app/format/date-ranges'
import { ensurePlatform } from '../app/seed/index.server'
import { chromiumTimes } from './dashboards-browser'
import { DASH_ORG, prepareDashData } from './dashboards-data'
import { comparePair, type BenchRow, type Scenario } from './lib'

const TZ = 'America/Los_Angeles'
const ACTIVE = `(doc ->> 'IsUsed') IS DISTINCT FROM 'no'`
const C = (key: string) => `((doc ->> '${key}') COLLATE "C")`
const ISO = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}T'`

type Figures = Record<string, number>
interface Side {
  name: string
  board: (x: DashCtx) => Promise<Board>
  /** the same figures, one hand-written statement */
  hand: (db: Database['db'], p: Period) => Promise<Figures>
  /** the figures the board shows, by the same names */
  shown: (b: Board) => Figures
}

const tile = (b: Board, label: string) => Number(b.tiles.find((t) => t.label === label)?.value ?? NaN)
const one = async (db: Database['db'], sql: string, params: unknown[]) => (await db.query<Record<string, unknown>>(sql, params)).rows[0]
const strainCut = `(((($2::date - round(CASE WHEN (s.doc ->> 'flower_weeks') ~ '^[0-9]+(\\.[0-9]+)?$' AND (s.doc ->> 'flower_weeks')::numeric > 0 THEN (s.doc ->> 'flower_weeks')::numeric ELSE ${DEFAULT_FLOWER_WEEKS} END * 7)::int + 1)::timestamp) AT TIME ZONE $3))`

const PLANTS: Side = {
  name: 'plants',
  board: plantsBoard,
  async hand(db, p) {
    const flip = addDays(p.today, -VEG_DAYS)
    const line = addDays(p.today, -89)
    const r = await one(
      db,
      `WITH pl AS (SELECT doc FROM c_fac_plants WHERE org = $1)
       SELECT
        (SELECT json_agg(x) FROM (SELECT doc ->> 'phase' AS phase, doc ->> 'room' AS room, count(*)::int AS n FROM pl WHERE ${ACTIVE} GROUP BY 1, 2) x) AS by_pr,
        (SELECT json_agg(x) FROM (SELECT p.doc ->> 'strain' AS strain, count(*)::int AS n FROM c_fac_plants p LEFT JOIN c_set_strains s ON s.org = $1 AND s.id = p.doc ->> 'strain'
            WHERE p.org = $1 AND (p.doc ->> 'IsUsed') IS DISTINCT FROM 'no' AND p.doc ->> 'phase' = 'Flowering'
              AND (p.doc ->> 'phaseDate')::timestamptz < COALESCE(${strainCut}, ((($2::date - ${DEFAULT_FLOWER_WEEKS * 7} + 1)::timestamp) AT TIME ZONE $3)) GROUP BY 1) x) AS due,
        (SELECT count(*)::int FROM pl WHERE ${ACTIVE} AND doc ->> 'phase' = 'Vegetative' AND ${C('phaseDate')} < $4) AS flip,
        (SELECT json_build_array(count(*) FILTER (WHERE ${C('phaseDate')} >= $5 AND ${C('phaseDate')} < $6), count(*) FILTER (WHERE ${C('phaseDate')} >= $7 AND ${C('phaseDate')} < $8))
           FROM pl WHERE doc ->> 'phase' = 'Destroyed') AS deaths,
        (SELECT json_build_array(count(*) FILTER (WHERE ${C('wasteDate')} >= $5 AND ${C('wasteDate')} < $6), sum(canopy_measure(doc -> 'weight')) FILTER (WHERE ${C('wasteDate')} >= $5 AND ${C('wasteDate')} < $6))
           FROM c_fac_waste WHERE org = $1) AS waste,
        (SELECT count(*)::int FROM pl WHERE (doc ->> 'planted') ~ ${ISO} AND ${C('planted')} < $9 AND NOT (doc ->> 'phase' IN ('Harvested', 'Destroyed') AND (doc ->> 'phaseDate') ~ ${ISO} AND ${C('phaseDate')} < $9)) AS base,
        (SELECT json_object_agg(d, n) FROM (SELECT to_char(((doc ->> 'planted')::timestamptz AT TIME ZONE $3), 'YYYY-MM-DD') AS d, count(*)::int AS n FROM pl WHERE (doc ->> 'planted') ~ ${ISO} AND ${C('planted')} >= $9 GROUP BY 1) x) AS ins,
        (SELECT json_object_agg(d, n) FROM (SELECT to_char(((doc ->> 'phaseDate')::timestamptz AT TIME ZONE $3), 'YYYY-MM-DD') AS d, count(*)::int AS n FROM pl
            WHERE doc ->> 'phase' IN ('Harvested', 'Destroyed') AND (doc ->> 'phaseDate') ~ ${ISO} AND ${C('phaseDate')} >= $9 AND ${C('planted')} < (doc ->> 'phaseDate') GROUP BY 1) x) AS outs,
        (SELECT json_object_agg(id, doc ->> 'name') FROM c_set_rooms WHERE org = $1) AS rooms,
        (SELECT json_object_agg(id, doc ->> 'name') FROM c_set_strains WHERE org = $1) AS strains`,
      [DASH_ORG, p.today, p.timeZone, spanOf(flip, flip, p.timeZone).to, p.from, p.to, p.previous.from, p.previous.to, spanOf(line, line, p.timeZone).from],
    )
    const byPR = (r.by_pr ?? []) as Array<{ phase: string; n: number }>
    const ins = (r.ins ?? {}) as Record<string, number>
    const outs = (r.outs ?? {}) as Record<string, number>
    let n = Number(r.base)
    for (let i = 0; i < 90; i++) n += (ins[addDays(line, i)] ?? 0) - (outs[addDays(line, i)] ?? 0)
    const [d0] = r.deaths as number[]
    const [w0, g0] = r.waste as [number, number | null]
    const fig: Figures = { due: ((r.due ?? []) as Array<{ n: number }>).reduce((s, x) => s + x.n, 0), flip: Number(r.flip), deaths: d0, waste: Math.round(Number(g0 ?? 0) / 100) / 10, wasteRecords: w0, living: n }
    for (const ph of LIVING) fig[ph] = byPR.filter((x) => x.phase === ph).reduce((s, x) => s + x.n, 0)
    return fig
  },
  shown(b) {
    const line = b.charts.find((c) => c.kind === 'line')
    const fig: Figures = { due: tile(b, 'Due to harvest'), flip: tile(b, 'Due to flip'), deaths: tile(b, 'Deaths'), waste: tile(b, 'Waste logged'), wasteRecords: Number(b.tiles.find((t) => t.label === 'Waste logged')?.count), living: line?.kind === 'line' ? line.points.at(-1)!.value : NaN }
    for (const ph of LIVING) fig[ph] = Number(b.tiles.find((t) => t.label === `${ph} plants`)?.value ?? 0)
    return fig
  },
}

const LB = 453.592
const HARVESTS: Side = {
  name: 'harvests',
  board: harvestsBoard,
  async hand(db, p) {
    const inP = `${C('harvested')} >= $2 AND ${C('harvested')} < $3`
    const inQ = `${C('harvested')} >= $4 AND ${C('harvested')} < $5`
    const r = await one(
      db,
      `SELECT
        (SELECT json_agg(x) FROM (SELECT doc ->> 'strain' AS k, count(*) FILTER (WHERE ${inP})::int AS n, sum(canopy_measure(doc -> 'wetWeight')) FILTER (WHERE ${inP}) AS wet,
                 sum(canopy_measure(doc -> 'dryWeight')) FILTER (WHERE ${inP}) AS dry, sum(canopy_num(doc -> 'plants')) FILTER (WHERE ${inP} AND canopy_measure(doc -> 'dryWeight') > 0) AS dp,
                 count(*) FILTER (WHERE ${inQ})::int AS pn
            FROM c_fac_harvests WHERE org = $1 AND ((${inP}) OR (${inQ})) GROUP BY 1) x) AS by_strain,
        (SELECT json_agg(x) FROM (SELECT doc ->> 'room' AS k, sum(canopy_measure(doc -> 'dryWeight')) AS dry, sum(canopy_num(doc -> 'plants')) FILTER (WHERE canopy_measure(doc -> 'dryWeight') > 0) AS dp
            FROM c_fac_harvests WHERE org = $1 AND ${inP} GROUP BY 1) x) AS by_room,
        (SELECT count(*)::int FROM c_fac_harvests WHERE org = $1 AND ${ACTIVE} AND doc ->> 'status' = 'Drying') AS drying,
        (SELECT json_agg(x) FROM (SELECT h.id, h.doc ->> 'name' AS name, count(i.id)::int AS pk FROM (SELECT id, doc FROM c_fac_harvests WHERE org = $1 ORDER BY (doc ->> 'harvested') COLLATE "C" DESC NULLS LAST, id LIMIT 8) h
            LEFT JOIN c_fac_inventory i ON i.org = $1 AND i.doc ->> 'harvest' = h.id GROUP BY h.id, h.doc) x) AS last,
        (SELECT json_object_agg(id, doc ->> 'name') FROM c_set_rooms WHERE org = $1) AS rooms,
        (SELECT json_object_agg(id, doc ->> 'name') FROM c_set_strains WHERE org = $1) AS strains`,
      [DASH_ORG, p.from, p.to, p.previous.from, p.previous.to],
    )
    const s = (r.by_strain ?? []) as Array<{ n: number; wet: number | null; dry: number | null; dp: number | null; pn: number }>
    const sum = (k: 'n' | 'wet' | 'dry' | 'dp' | 'pn') => s.reduce((a, x) => a + Number(x[k] ?? 0), 0)
    const r1 = (n: number) => Math.round(n * 10) / 10
    return { harvests: sum('n'), previous: sum('pn'), wet: r1(sum('wet') / LB), dry: r1(sum('dry') / LB), yield: sum('dp') > 0 ? r1(sum('dry') / sum('dp')) : 0, drying: Number(r.drying), lastPackages: ((r.last ?? []) as Array<{ pk: number }>).reduce((a, x) => a + x.pk, 0) }
  },
  shown(b) {
    const last = b.lists[0]?.rows ?? []
    return {
      harvests: tile(b, 'Harvests'),
      previous: Number(b.tiles.find((t) => t.label === 'Harvests')?.previous),
      wet: tile(b, 'Wet weight'),
      dry: tile(b, 'Dry weight'),
      yield: tile(b, 'Dry yield per plant'),
      drying: tile(b, 'Drying now'),
      lastPackages: last.reduce((a, row) => a + Number(row.cells[4]?.count ?? 0), 0),
    }
  },
}

const COMPLIANCE: Side = {
  name: 'compliance',
  board: (x) => complianceBoard(x),
  async hand(db, p) {
    const first = addDays(p.today, -13)
    const inP = `${C('wasteDate')} >= $2 AND ${C('wasteDate')} < $3`
    const r = await one(
      db,
      `SELECT
        (SELECT json_build_object('pending', count(*) FILTER (WHERE status IN ('pending', 'sent')), 'failed', count(*) FILTER (WHERE status = 'failed'), 'held', count(*) FILTER (WHERE status = 'held'),
                 'oldest', min(created_at) FILTER (WHERE status IN ('pending', 'sent')), 'days', (SELECT json_agg(x) FROM (SELECT to_char(created_at AT TIME ZONE $6, 'YYYY-MM-DD') AS d, status, count(*)::int AS n
                   FROM metrc_outbox WHERE org = $1 AND created_at >= $7 GROUP BY 1, 2) x)) FROM metrc_outbox WHERE org = $1) AS box,
        (SELECT count(*)::int FROM metrc_drift WHERE org = $1 AND status = 'open') AS drift,
        (SELECT json_agg(x) FROM (SELECT status, failing_since, license FROM metrc_links WHERE org = $1) x) AS link,
        (SELECT json_agg(x) FROM (SELECT collection, status, ok_at FROM metrc_sync WHERE org = $1 ORDER BY 1) x) AS syncs,
        (SELECT json_agg(x) FROM (SELECT doc ->> 'wasteType' AS type, count(*) FILTER (WHERE ${inP})::int AS n, sum(canopy_measure(doc -> 'weight')) FILTER (WHERE ${inP}) AS g,
                 count(*) FILTER (WHERE ${C('wasteDate')} >= $4 AND ${C('wasteDate')} < $5)::int AS pn, count(*) FILTER (WHERE ${inP} AND doc ->> 'reported' = 'no')::int AS unrep
            FROM c_fac_waste WHERE org = $1 AND ${C('wasteDate')} >= least($2, $4) AND ${C('wasteDate')} < greatest($3, $5) GROUP BY 1) x) AS waste,
        (SELECT json_agg(x) FROM (SELECT id, doc ->> 'name' AS name, doc ->> 'expiry' AS expiry FROM c_set_mylic WHERE org = $1 AND ${ACTIVE} AND ${C('expiry')} >= $8 AND ${C('expiry')} < $9 ORDER BY 3) x) AS lic,
        (SELECT json_object_agg(coalesce(type, ''), n) FROM (SELECT doc ->> 'Type' AS type, count(*)::int AS n FROM c_metrc_tags WHERE org = $1 AND ${ACTIVE} GROUP BY 1) x) AS tags,
        (SELECT bool_and(doc ->> 'CanGrowPlants' = 'no') FROM c_metrc_license WHERE org = $1 AND ${ACTIVE}) AS no_plants`,
      [DASH_ORG, p.from, p.to, p.previous.from, p.previous.to, p.timeZone, spanOf(first, first, p.timeZone).from, spanOf(p.today, p.today, p.timeZone).from, spanOf(addDays(p.today, 90), addDays(p.today, 90), p.timeZone).to],
    )
    const box = r.box as { pending: number; failed: number }
    const w = (r.waste ?? []) as Array<{ n: number; unrep: number }>
    const tags = (r.tags ?? {}) as Record<string, number>
    return { pending: box.pending, failed: box.failed, drift: Number(r.drift), waste: w.reduce((a, x) => a + x.n, 0), unreported: w.reduce((a, x) => a + x.unrep, 0), licences: ((r.lic ?? []) as unknown[]).length, plantTags: tags.Plant ?? 0, packageTags: tags.Package ?? 0 }
  },
  shown(b) {
    const byLabel = (re: RegExp) => Number(b.tiles.find((t) => re.test(t.label))?.value ?? NaN)
    const countOf = (re: RegExp) => Number(b.tiles.find((t) => re.test(t.label))?.count ?? NaN)
    return { pending: byLabel(/^Pending METRC/), failed: byLabel(/^Failed METRC/), drift: byLabel(/^Open drift/), waste: countOf(/^Waste logged/), unreported: byLabel(/^Waste not reported/), licences: byLabel(/^Licences expiring/), plantTags: byLabel(/^Plant tags on hand/), packageTags: byLabel(/^Package tags on hand/) }
  },
}

const CULTIVATION: Side = {
  name: 'cultivation',
  board: cultivationBoard,
  async hand(db, p) {
    const dow = new Date(`${p.today}T00:00:00Z`).getUTCDay()
    const sunday = addDays(p.today, -dow)
    const spans = [...Array.from({ length: 12 }, (_, i) => spanOf(addDays(sunday, -7 * (11 - i)), addDays(sunday, -7 * (11 - i) + 6), p.timeZone)), p, p.previous]
    const params: unknown[] = [DASH_ORG, LIVING, OPEN_STATUSES]
    const f = spans.map((s) => `count(*) FILTER (WHERE ${C('planted')} >= $${params.push(s.from)} AND ${C('planted')} < $${params.push(s.to)})`).join(', ')
    const yesterday = addDays(p.today, -1)
    const y = params.push(spanOf(yesterday, yesterday, p.timeZone).to)
    const a = params.push(spanOf(p.today, p.today, p.timeZone).from)
    const z = params.push(spanOf(addDays(p.today, 6), addDays(p.today, 6), p.timeZone).to)
    const r = await one(
      db,
      `SELECT
        (SELECT json_build_array(${f}) FROM c_fac_plantings WHERE org = $1) AS weeks,
        (SELECT json_agg(x) FROM (SELECT doc ->> 'phase' AS phase, count(*)::int AS n, avg(EXTRACT(EPOCH FROM (now() - (doc ->> 'phaseDate')::timestamptz)) / 86400) FILTER (WHERE (doc ->> 'phaseDate') ~ ${ISO}) AS days
            FROM c_fac_plants WHERE org = $1 AND ${ACTIVE} AND doc ->> 'phase' = ANY($2) GROUP BY 1) x) AS stages,
        (SELECT json_agg(x) FROM (SELECT doc ->> 'room' AS room, doc ->> 'status' AS status, count(*) FILTER (WHERE ${C('end')} < $${y})::int AS overdue,
                 count(*) FILTER (WHERE ${C('start')} >= $${a} AND ${C('start')} < $${z})::int AS due
            FROM c_sch_tasks WHERE org = $1 AND ${ACTIVE} AND doc ->> 'status' = ANY($3) GROUP BY 1, 2) x) AS tasks,
        (SELECT json_object_agg(id, doc ->> 'name') FROM c_set_rooms WHERE org = $1) AS rooms`,
      params,
    )
    const weeks = r.weeks as number[]
    const t = (r.tasks ?? []) as Array<{ status: string; overdue: number; due: number }>
    const stages = (r.stages ?? []) as Array<{ n: number }>
    return { plantings: weeks[12], previous: weeks[13], thisWeek: weeks[11], pipeline: stages.reduce((s, x) => s + x.n, 0), overdueScheduled: t.filter((x) => x.status === 'Scheduled').reduce((s, x) => s + x.overdue, 0), dueScheduled: t.filter((x) => x.status === 'Scheduled').reduce((s, x) => s + x.due, 0) }
  },
  shown(b) {
    const bars = (title: RegExp) => {
      const c = b.charts.find((x) => 'title' in x && title.test(x.title))
      return c?.kind === 'bars' ? c.bars : []
    }
    return {
      plantings: tile(b, 'Plantings'),
      previous: Number(b.tiles.find((t) => t.label === 'Plantings')?.previous),
      thisWeek: bars(/Plantings per week/).at(-1)?.value ?? NaN,
      pipeline: bars(/Pipeline/).reduce((s, x) => s + x.value, 0),
      overdueScheduled: tile(b, 'Overdue tasks · Scheduled'),
      dueScheduled: tile(b, 'Tasks due this week'),
    }
  },
}

/** BENCH_DASH_ONLY=harvests,plants,…,browser runs only those parts (for a quick look at one loader) */
const ONLY = process.env.BENCH_DASH_ONLY?.split(',').map((x) => x.trim())

export const dashboardsScenario: Scenario = {
  name: 'dash',
  legend: [
    'dash: each dashboard\'s loader (store) vs one hand-written statement for the same figures (hand), over a facility of N plants (docs) with waste, harvests, packages, plantings, tasks and METRC pushes in proportion; target <=1.5x at p50.',
    'dash (Chromium): the built server with the demo data, Chromium with DevTools CPU throttling 6x, warm: navigation start until the dashboard\'s charts are visible (store p50/p95; no hand side); target < 1500 ms.',
  ],
  async run(ctx) {
    installServerAreas()
    const rows: BenchRow[] = []
    for (const engine of ctx.engines) {
      const { database } = engine
      await ensurePlatform(database, loadEnv({ DATA_DIR: '/tmp', LOG_LEVEL: 'warn' }))
      const plants = Number(engine.name === 'pg' ? (process.env.BENCH_DASH_PLANTS_PG ?? 1_000_000) : (process.env.BENCH_DASH_PLANTS_PGLITE ?? 100_000))
      await prepareDashData(database, plants, { reload: false, log: ctx.log, label: engine.name })
      const context = { database } as unknown as AppLoadContext
      const { period } = readPeriod(new URLSearchParams('range=last-30-days'), TZ)
      const x: DashCtx = { context, facility: DASH_ORG, period, notices: [], labels: (c, ids) => labelsOf(context, DASH_ORG, c, ids) }
      for (const side of [PLANTS, HARVESTS, COMPLIANCE, CULTIVATION].filter((d) => !ONLY || ONLY.includes(d.name))) {
        ctx.log(`dash: ${side.name} on ${engine.name}…`)
        const shown = side.shown(await side.board(x))
        const hand = await side.hand(database.db, period)
        const differ = Object.keys(hand).filter((k) => !(Math.abs(hand[k] - shown[k]) < 0.05))
        const r = await comparePair(() => side.board(x), () => side.hand(database.db, period), { iterations: ctx.secondaryIterations, warmup: Math.min(5, ctx.warmup), budgetSec: ctx.rowBudgetSec })
        const ratio = r.a.p50 / r.b.p50
        rows.push({
          scenario: `dash: /Dsh${side.name[0].toUpperCase()}${side.name.slice(1)} loader`,
          engine: engine.name,
          docs: plants,
          store: r.a,
          hand: r.b,
          target: '<=1.5x',
          met: ratio <= 1.5,
          notes: [
            `loader/hand = ${ratio.toFixed(2)}x at p50; figures ${Object.entries(shown).map(([k, v]) => `${k} ${v}`).join(', ')}`,
            differ.length ? `FIGURES DIFFER: ${differ.map((k) => `${k}: loader ${shown[k]}, hand ${hand[k]}`).join('; ')}` : 'the hand-written SQL gives the same figures',
          ],
        })
      }
    }
    if (!ONLY || ONLY.includes('browser')) rows.push(...(await chromiumTimes(ctx.log)))
    return rows
  },
}
