/**
 * /DshHarvests: wet and dry weight by strain and yield per plant by room (harvests of the
 * period), harvests drying now, and the last harvests with their packages. Weights in lb; each
 * bar links to /CulHarvest filtered to the harvests it sums.
 */
import type { Board, ListBlock } from './board'
import type { Figure, Kpi } from './charts/types'
import { labelSql, nameOf, type DashCtx } from './common.server'
import { tableLink } from './links'
import { ACTIVE, between, field, measure, rows } from './sql.server'

export const HARVESTS = '/CulHarvest'
export const INVENTORY = '/culInventory'
const LB = 453.592
const r1 = (n: number) => Math.round(n * 10) / 10

export async function harvestsBoard(x: DashCtx): Promise<Board> {
  const db = x.context.database.db
  const { period, facility: org } = x
  const span = { df: 'harvested', from: period.fromDay, to: period.toDay, all: true }
  // one scan of the harvests of the two periods and those drying, for the sums by strain (this period
  // and the one before), by room (this period) and the count drying (GROUPING SETS); the last
  // harvests beside it
  type Sums = { k: string | null; n: number; wet: string | null; dry: string | null; plants: string | null; dryPlants: string | null }
  /** the sums of the harvests `w` holds for, named with a prefix (`p` for the previous period) */
  const sums = (w: string, p = '') =>
    `count(*) FILTER (WHERE ${w})::int AS "${p}n", sum(${measure('wetWeight')}) FILTER (WHERE ${w}) AS "${p}wet", sum(${measure('dryWeight')}) FILTER (WHERE ${w}) AS "${p}dry",
     sum(canopy_num(doc -> 'plants')) FILTER (WHERE ${w}) AS "${p}plants", sum(canopy_num(doc -> 'plants')) FILTER (WHERE ${w} AND ${measure('dryWeight')} > 0) AS "${p}dryPlants"`
  const pS: unknown[] = [org]
  const inP = between('harvested', period.from, period.to, pS)
  const inQ = between('harvested', period.previous.from, period.previous.to, pS)
  type Grouped = Sums & { set: 'strain' | 'room' | 'all'; label: string | null; pn: number; pwet: string | null; pdry: string | null; pplants: string | null; pdryPlants: string | null; drying: number }
  const [grouped, last] = await Promise.all([
    rows<Grouped>(
      db,
      `WITH g AS (SELECT CASE WHEN GROUPING(${field('strain')}) = 0 THEN 'strain' WHEN GROUPING(${field('room')}) = 0 THEN 'room' ELSE 'all' END AS set,
              COALESCE(${field('strain')}, ${field('room')}) AS k, ${sums(inP)}, ${sums(inQ, 'p')},
              count(*) FILTER (WHERE ${ACTIVE} AND ${field('status')} = 'Drying')::int AS drying
         FROM c_fac_harvests WHERE org = $1 AND ((${inP}) OR (${inQ}) OR ${field('status')} = 'Drying') GROUP BY GROUPING SETS ((${field('strain')}), (${field('room')}), ()))
       SELECT g.*, CASE g.set WHEN 'strain' THEN ${await labelSql(x, 'set_strains', 'g.k')} WHEN 'room' THEN ${await labelSql(x, 'set_rooms', 'g.k')} END AS label FROM g`,
      pS,
    ),
    rows<{ id: string; name: string | null; harvested: string | null; status: string | null; dry: string | null; pk: number }>(
      db,
      `SELECT h.id, h.doc ->> 'name' AS name, h.doc ->> 'harvested' AS harvested, h.doc ->> 'status' AS status, canopy_measure(h.doc -> 'dryWeight') AS dry, count(i.id)::int AS pk
         FROM (SELECT id, doc FROM c_fac_harvests WHERE org = $1 ORDER BY (doc ->> 'harvested') COLLATE "C" DESC NULLS LAST, id LIMIT 8) h
         LEFT JOIN c_fac_inventory i ON i.org = $1 AND (i.doc ->> 'harvest') = h.id
        GROUP BY h.id, h.doc ORDER BY (h.doc ->> 'harvested') COLLATE "C" DESC NULLS LAST, h.id`,
      [org],
    ),
  ])
  const byStrain = grouped.filter((r) => r.set === 'strain' && r.n > 0)
  const byRoom = grouped.filter((r) => r.set === 'room' && r.n > 0)
  const drying = { n: grouped.find((r) => r.set === 'all')?.drying ?? 0 }
  const prevStrain: Sums[] = grouped.filter((r) => r.set === 'strain' && r.pn > 0).map((r) => ({ k: r.k, n: r.pn, wet: r.pwet, dry: r.pdry, plants: r.pplants, dryPlants: r.pdryPlants }))
  // names of strains and rooms came with the sums (one statement fewer on each side)
  const namesOf = (list: Array<Sums & { label: string | null }>) => new Map(list.flatMap((r) => (r.k && r.label !== null ? [[r.k, r.label] as const] : [])))
  const strains = namesOf(byStrain)
  const rooms = namesOf(byRoom)
  const sorted = [...byStrain].sort((a, b) => Number(b.wet ?? 0) - Number(a.wet ?? 0))
  const bar = (r: Sums, v: number, names: Map<string, string>, key: string): Figure => ({ label: nameOf(names, r.k), value: r1(v), count: r.n, href: tableLink(HARVESTS, { ...span, eq: [[key, r.k ?? '']] }) })
  const wet = sorted.map((r) => bar(r, Number(r.wet ?? 0) / LB, strains, 'strain'))
  const dry = sorted.map((r) => bar(r, Number(r.dry ?? 0) / LB, strains, 'strain'))
  const yieldRoom = byRoom.map((r) => bar(r, Number(r.dryPlants) > 0 ? Number(r.dry ?? 0) / Number(r.dryPlants) : 0, rooms, 'room'))
  const sum = (list: Sums[], k: 'n' | 'wet' | 'dry' | 'plants' | 'dryPlants') => list.reduce((s, r) => s + Number(r[k] ?? 0), 0)
  const yPer = (list: Sums[]) => (sum(list, 'dryPlants') > 0 ? r1(sum(list, 'dry') / sum(list, 'dryPlants')) : 0)

  const tiles: Kpi[] = [
    { label: 'Harvests', value: sum(byStrain, 'n'), count: sum(byStrain, 'n'), previous: sum(prevStrain, 'n'), href: tableLink(HARVESTS, span) },
    { label: 'Wet weight', unit: 'lb', value: r1(sum(byStrain, 'wet') / LB), previous: r1(sum(prevStrain, 'wet') / LB), count: sum(byStrain, 'n'), href: tableLink(HARVESTS, span) },
    { label: 'Dry weight', unit: 'lb', value: r1(sum(byStrain, 'dry') / LB), previous: r1(sum(prevStrain, 'dry') / LB), count: sum(byStrain, 'n'), href: tableLink(HARVESTS, span) },
    { label: 'Dry yield per plant', unit: 'g', value: yPer(byStrain), previous: yPer(prevStrain), count: sum(byStrain, 'n'), href: tableLink(HARVESTS, span), note: 'harvests with a dry weight' },
    { label: 'Drying now', value: drying.n, count: drying.n, href: tableLink(HARVESTS, { eq: [['status', 'Drying']] }) },
  ]

  // the last harvests and the packages made from them (read above)
  const list: ListBlock = {
    title: 'Last harvests and their packages',
    head: ['Harvest', 'Harvested', 'Status', 'Dry (lb)', 'Packages'],
    empty: 'No harvests yet.',
    rows: last.map((h) => ({
      cells: [
        { text: h.name ?? h.id, href: `${HARVESTS}/${encodeURIComponent(h.id)}/edit` },
        { text: (h.harvested ?? '').slice(0, 10) },
        { text: h.status ?? '' },
        { text: h.dry ? String(r1(Number(h.dry) / LB)) : '–' },
        { text: String(h.pk), count: h.pk, href: tableLink(INVENTORY, { eq: [['harvest', h.id]], all: true }) },
      ],
    })),
  }
  return {
    path: '/DshHarvests',
    title: 'Harvests Dashboard',
    period,
    notices: x.notices,
    tiles,
    charts: [
      { kind: 'bars', title: 'Wet weight by strain', unit: 'lb', bars: wet },
      { kind: 'bars', title: 'Dry weight by strain', unit: 'lb', bars: dry },
      { kind: 'bars', title: 'Dry yield per plant by room', unit: 'g', bars: yieldRoom },
    ],
    lists: [list],
    watch: ['fac_harvests', 'fac_inventory'],
  }
}
