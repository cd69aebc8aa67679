/**
 * /DshCultivation: plantings per week (the last 12 weeks), the pipeline (plants per stage and
 * their average days in it) and tasks due and overdue by room. Each figure links to
 * /CulPlantings, /culPlants or /SchCalendar's table view of the tasks it counts.
 */
import { addDays } from '../../format/date-ranges'
import type { Board } from './board'
import type { Chart, Figure, Kpi } from './charts/types'
import { nameOf, type DashCtx } from './common.server'
import { tableLink } from './links'
import { spanOf } from './period'
import { LIVING, PLANTS } from './plants.server'
import { ACTIVE, between, countsInSpans, field, rows } from './sql.server'

export const PLANTINGS = '/CulPlantings'
/** the tasks as a table (the calendar's table view) */
export const TASKS = '/SchTasks'
export const OPEN_STATUSES = ['Scheduled', 'In Progress']

export async function cultivationBoard(x: DashCtx): Promise<Board> {
  const db = x.context.database.db
  const { period, facility: org } = x
  const tz = period.timeZone

  // plantings per week: Sunday to Saturday, the last 12 weeks including this one
  const dow = new Date(`${period.today}T00:00:00Z`).getUTCDay()
  const sunday = addDays(period.today, -dow)
  const weeks = Array.from({ length: 12 }, (_, i) => {
    const from = addDays(sunday, -7 * (11 - i))
    return spanOf(from, addDays(from, 6), tz)
  })
  const perWeek = await countsInSpans(db, org, 'fac_plantings', 'planted', weeks)
  const plantings: Figure[] = weeks.map((w, i) => ({ label: `Week of ${w.fromDay.slice(5)}`, value: perWeek[i], count: perWeek[i], href: tableLink(PLANTINGS, { df: 'planted', from: w.fromDay, to: w.toDay, all: true }) }))

  // the pipeline: plants on hand per stage, average days since they entered it
  const stages = await rows<{ phase: string; n: number; days: string | null }>(
    db,
    `SELECT ${field('phase')} AS phase, count(*)::int AS n,
            avg(EXTRACT(EPOCH FROM (now() - (doc ->> 'phaseDate')::timestamptz)) / 86400) FILTER (WHERE (doc ->> 'phaseDate') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T') AS days
       FROM c_fac_plants WHERE org = $1 AND ${ACTIVE} AND ${field('phase')} = ANY($2) GROUP BY 1`,
    [org, LIVING],
  )
  const pipeline: Figure[] = LIVING.map((p) => {
    const s = stages.find((r) => r.phase === p)
    const n = s?.n ?? 0
    return { label: `${p} · avg ${Math.round(Number(s?.days ?? 0))} d`, value: n, count: n, href: tableLink(PLANTS, { eq: [['phase', p]] }) }
  })

  // tasks by room: overdue (ended before today, still open) and due in the next 7 days
  const yesterday = addDays(period.today, -1)
  const weekEnd = addDays(period.today, 6)
  const pO: unknown[] = [org, OPEN_STATUSES]
  const overdue = await rows<{ room: string | null; status: string; n: number }>(
    db,
    `SELECT ${field('room')} AS room, ${field('status')} AS status, count(*)::int AS n FROM c_sch_tasks
      WHERE org = $1 AND ${ACTIVE} AND ${field('status')} = ANY($2) AND ${between('end', undefined, spanOf(yesterday, yesterday, tz).to, pO)} GROUP BY 1, 2`,
    pO,
  )
  const pD: unknown[] = [org, OPEN_STATUSES]
  const due = await rows<{ room: string | null; status: string; n: number }>(
    db,
    `SELECT ${field('room')} AS room, ${field('status')} AS status, count(*)::int AS n FROM c_sch_tasks
      WHERE org = $1 AND ${ACTIVE} AND ${field('status')} = ANY($2) AND ${between('start', spanOf(period.today, period.today, tz).from, spanOf(weekEnd, weekEnd, tz).to, pD)} GROUP BY 1, 2`,
    pD,
  )
  const rooms = await x.labels('set_rooms', [...overdue, ...due].map((r) => r.room ?? ''))
  const roomIds = [...new Set([...overdue, ...due].map((r) => r.room ?? ''))].sort((a, b) => nameOf(rooms, a).localeCompare(nameOf(rooms, b)))
  const series = ['Overdue · Scheduled', 'Overdue · In Progress', 'Due · Scheduled', 'Due · In Progress']
  const part = (room: string, list: typeof due, status: string, f: { df: string; from?: string; to: string }, tone: Figure['tone']): Figure => {
    const n = list.filter((r) => (r.room ?? '') === room && r.status === status).reduce((s, r) => s + r.n, 0)
    return { label: nameOf(rooms, room), value: n, count: n, tone, href: tableLink(TASKS, { eq: [['room', room], ['status', status]], ...f }) }
  }
  const tasks: Chart = {
    kind: 'stacked',
    title: 'Tasks overdue and due this week, by room',
    series,
    rows: roomIds.map((room) => ({
      label: nameOf(rooms, room),
      parts: [
        part(room, overdue, 'Scheduled', { df: 'end', to: yesterday }, 'bad'),
        part(room, overdue, 'In Progress', { df: 'end', to: yesterday }, 'warn'),
        part(room, due, 'Scheduled', { df: 'start', from: period.today, to: weekEnd }, 'info'),
        part(room, due, 'In Progress', { df: 'start', from: period.today, to: weekEnd }, 'ok'),
      ],
    })),
  }
  const total = (list: typeof due, status: string) => list.filter((r) => r.status === status).reduce((s, r) => s + r.n, 0)
  const [p0, p1] = await countsInSpans(db, org, 'fac_plantings', 'planted', [period, period.previous])
  const tiles: Kpi[] = [
    { label: 'Plantings', value: p0, count: p0, previous: p1, href: tableLink(PLANTINGS, { df: 'planted', from: period.fromDay, to: period.toDay, all: true }) },
    ...OPEN_STATUSES.map((st): Kpi => {
      const n = total(overdue, st)
      return { label: `Overdue tasks · ${st}`, value: n, count: n, tone: n ? 'bad' : 'ok', href: tableLink(TASKS, { eq: [['status', st]], df: 'end', to: yesterday }) }
    }),
    { label: 'Tasks due this week', value: total(due, 'Scheduled'), count: total(due, 'Scheduled'), note: 'scheduled, starting today to 6 days on', href: tableLink(TASKS, { eq: [['status', 'Scheduled']], df: 'start', from: period.today, to: weekEnd }) },
  ]
  return {
    path: '/DshCultivation',
    title: 'Cultivation',
    period,
    notices: x.notices,
    tiles,
    charts: [{ kind: 'bars', title: 'Plantings per week', bars: plantings }, { kind: 'bars', title: 'Pipeline: plants per stage', bars: pipeline }, tasks],
    lists: [],
    watch: ['fac_plantings', 'fac_plants', 'sch_tasks'],
  }
}
