/**
 * /DshPlants: plants by phase and room, the plant count over the last 90 days, plants due to flip
 * or harvest (days in phase against the strain's expected days), deaths and waste this period.
 * Every figure but the daily line links to /culPlants or /culWaste filtered to its records.
 */
import { addDays } from '../../format/date-ranges'
import { GROWTH_PHASES } from '../../seed/schemas/operations'
import type { Board } from './board'
import type { Chart, Figure, Kpi } from './charts/types'
import { nameOf, type DashCtx } from './common.server'
import { tableLink } from './links'
import { spanOf } from './period'
import { ACTIVE, between, field, measure, rows } from './sql.server'

export const PLANTS = '/culPlants'
export const WASTE = '/culWaste'
/** days a plant normally stays in veg before the flip (the strain records carry flower weeks only) */
export const VEG_DAYS = 28
/** flower weeks for a strain that does not say */
export const DEFAULT_FLOWER_WEEKS = 9
export const LIVING = ['Clone', 'Vegetative', 'Flowering', 'Mother']

export async function plantsBoard(x: DashCtx): Promise<Board> {
  const db = x.context.database.db
  const { period, facility } = x
  const org = facility

  // plants on hand by phase and room (the table's default view: active records)
  const byPR = await rows<{ phase: string | null; room: string | null; n: number }>(
    db,
    `SELECT ${field('phase')} AS phase, ${field('room')} AS room, count(*)::int AS n FROM c_fac_plants WHERE org = $1 AND ${ACTIVE} GROUP BY 1, 2`,
    [org],
  )
  const rooms = await x.labels('set_rooms', byPR.map((r) => r.room ?? ''))
  const phases = [...GROWTH_PHASES.filter((p) => byPR.some((r) => r.phase === p)), ...new Set(byPR.map((r) => r.phase ?? '').filter((p) => !(GROWTH_PHASES as readonly string[]).includes(p)))]
  const phaseFig: Figure[] = phases.map((p) => {
    const n = byPR.filter((r) => (r.phase ?? '') === p).reduce((s, r) => s + r.n, 0)
    return { label: p || '(none)', value: n, count: n, href: tableLink(PLANTS, { eq: [['phase', p]] }) }
  })
  const living = LIVING.filter((p) => byPR.some((r) => r.phase === p))
  const roomIds = [...new Set(byPR.filter((r) => LIVING.includes(r.phase ?? '')).map((r) => r.room ?? ''))].sort((a, b) => nameOf(rooms, a).localeCompare(nameOf(rooms, b)))
  const byRoom: Chart = {
    kind: 'stacked',
    title: 'Living plants by room and phase',
    series: living,
    rows: roomIds.map((room) => ({
      label: nameOf(rooms, room),
      parts: living.map((p) => {
        const n = byPR.find((r) => (r.room ?? '') === room && r.phase === p)?.n ?? 0
        return { label: nameOf(rooms, room), value: n, count: n, href: tableLink(PLANTS, { eq: [['room', room], ['phase', p]] }) }
      }),
    })),
  }

  // due: flowering longer than the strain's flower weeks, veg longer than VEG_DAYS
  const strains = await rows<{ id: string; name: string | null; weeks: string | null }>(db, `SELECT id, doc ->> 'name' AS name, doc ->> 'flower_weeks' AS weeks FROM c_set_strains WHERE org = $1`, [org])
  const cutoffDay = (weeks: number) => addDays(period.today, -Math.round(weeks * 7))
  const weeksOf = (s: { weeks: string | null } | undefined) => (s && Number(s.weeks) > 0 ? Number(s.weeks) : DEFAULT_FLOWER_WEEKS)
  const cutoffs: Record<string, string> = {}
  for (const s of strains) cutoffs[s.id] = spanOf(cutoffDay(weeksOf(s)), cutoffDay(weeksOf(s)), period.timeZone).to
  const defaultCut = spanOf(cutoffDay(DEFAULT_FLOWER_WEEKS), cutoffDay(DEFAULT_FLOWER_WEEKS), period.timeZone).to
  const dueH = await rows<{ strain: string | null; n: number }>(
    db,
    `SELECT ${field('strain')} AS strain, count(*)::int AS n FROM c_fac_plants
      WHERE org = $1 AND ${ACTIVE} AND ${field('phase')} = 'Flowering'
        AND ((doc ->> 'phaseDate') COLLATE "C") < COALESCE($2::jsonb ->> (doc ->> 'strain'), $3) GROUP BY 1 ORDER BY 2 DESC`,
    [org, JSON.stringify(cutoffs), defaultCut],
  )
  const strainNames = new Map(strains.map((s) => [s.id, s.name ?? s.id]))
  const dueHarvest: Figure[] = dueH.map((r) => {
    const s = strains.find((z) => z.id === r.strain)
    return { label: nameOf(strainNames, r.strain), value: r.n, count: r.n, tone: 'warn', href: tableLink(PLANTS, { eq: [['strain', r.strain ?? ''], ['phase', 'Flowering']], df: 'phaseDate', to: cutoffDay(weeksOf(s)) }) }
  })
  const flipDay = addDays(period.today, -VEG_DAYS)
  const flipP: unknown[] = [org]
  const [flip] = await rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM c_fac_plants WHERE org = $1 AND ${ACTIVE} AND ${field('phase')} = 'Vegetative' AND ${between('phaseDate', undefined, spanOf(flipDay, flipDay, period.timeZone).to, flipP)}`, flipP)

  // deaths and waste this period and the one before
  const deaths = async (s: { from: string; to: string }) => {
    const p: unknown[] = [org]
    return (await rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM c_fac_plants WHERE org = $1 AND ${field('phase')} = 'Destroyed' AND ${between('phaseDate', s.from, s.to, p)}`, p))[0].n
  }
  const waste = async (s: { from: string; to: string }) => {
    const p: unknown[] = [org]
    const [r] = await rows<{ n: number; g: string | null }>(db, `SELECT count(*)::int AS n, sum(${measure('weight')}) AS g FROM c_fac_waste WHERE org = $1 AND ${between('wasteDate', s.from, s.to, p)}`, p)
    return { n: r.n, kg: Math.round(Number(r.g ?? 0) / 100) / 10 }
  }
  const [d0, d1, w0, w1] = await Promise.all([deaths(period), deaths(period.previous), waste(period), waste(period.previous)])

  const tiles: Kpi[] = [
    ...living.map((p) => phaseFig.find((f) => f.label === p)!).map((f) => ({ ...f, label: `${f.label} plants` })),
    { label: 'Due to harvest', value: dueHarvest.reduce((s, f) => s + f.value, 0), tone: dueHarvest.length ? 'warn' : 'ok', note: 'flowering past the strain’s flower weeks (by strain below)' },
    { label: 'Due to flip', value: flip.n, count: flip.n, tone: flip.n ? 'warn' : 'ok', note: `in veg ${VEG_DAYS}+ days`, href: tableLink(PLANTS, { eq: [['phase', 'Vegetative']], df: 'phaseDate', to: flipDay }) },
    { label: 'Deaths', value: d0, count: d0, previous: d1, tone: d0 > d1 ? 'warn' : 'ok', href: tableLink(PLANTS, { eq: [['phase', 'Destroyed']], df: 'phaseDate', from: period.fromDay, to: period.toDay, all: true }) },
    { label: 'Waste logged', value: w0.kg, unit: 'kg', count: w0.n, previous: w1.kg, note: `${w0.n} waste records`, href: tableLink(WASTE, { df: 'wasteDate', from: period.fromDay, to: period.toDay, all: true }) },
  ]
  const line = await plantCountLine(x)
  return {
    path: '/DshPlants',
    title: 'Plants',
    period,
    notices: x.notices,
    tiles,
    charts: [
      { kind: 'donut', title: 'Plants by phase', slices: phaseFig },
      byRoom,
      { kind: 'bars', title: 'Due to harvest by strain', bars: dueHarvest },
      line,
    ],
    lists: [],
    watch: ['fac_plants', 'fac_waste', 'set_strains'],
  }
}

/**
 * Living plants at the end of each of the last 90 days: planted by then and not yet harvested or
 * destroyed by then. Two grouped reads (entries and exits by day), summed up in order.
 */
async function plantCountLine(x: DashCtx): Promise<Chart> {
  const db = x.context.database.db
  const { period } = x
  const first = addDays(period.today, -89)
  const start = spanOf(first, first, period.timeZone).from
  const iso = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}T'`
  const day = (key: string) => `to_char(((doc ->> '${key}')::timestamptz AT TIME ZONE $2), 'YYYY-MM-DD')`
  const gone = `${field('phase')} IN ('Harvested', 'Destroyed')`
  const [base] = await rows<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM c_fac_plants WHERE org = $1 AND (doc ->> 'planted') ~ ${iso} AND ((doc ->> 'planted') COLLATE "C") < $2
       AND NOT (${gone} AND (doc ->> 'phaseDate') ~ ${iso} AND ((doc ->> 'phaseDate') COLLATE "C") < $2)`,
    [x.facility, start],
  )
  const ins = await rows<{ d: string; n: number }>(db, `SELECT ${day('planted')} AS d, count(*)::int AS n FROM c_fac_plants WHERE org = $1 AND (doc ->> 'planted') ~ ${iso} AND ((doc ->> 'planted') COLLATE "C") >= $3 GROUP BY 1`, [x.facility, period.timeZone, start])
  const outs = await rows<{ d: string; n: number }>(
    db,
    `SELECT ${day('phaseDate')} AS d, count(*)::int AS n FROM c_fac_plants WHERE org = $1 AND ${gone} AND (doc ->> 'phaseDate') ~ ${iso} AND ((doc ->> 'phaseDate') COLLATE "C") >= $3
       AND ((doc ->> 'planted') COLLATE "C") < (doc ->> 'phaseDate') GROUP BY 1`,
    [x.facility, period.timeZone, start],
  )
  const inBy = new Map(ins.map((r) => [r.d, r.n]))
  const outBy = new Map(outs.map((r) => [r.d, r.n]))
  let n = base.n
  const points: Figure[] = []
  for (let i = 0; i < 90; i++) {
    const d = addDays(first, i)
    n += (inBy.get(d) ?? 0) - (outBy.get(d) ?? 0)
    points.push({ label: d, value: n })
  }
  return { kind: 'line', title: 'Living plants, last 90 days', points }
}
