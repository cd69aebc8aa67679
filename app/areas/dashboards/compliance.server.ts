/**
 * /DshCompliance: METRC outbox health (pending, failed, confirmed per day; the oldest pending),
 * open drift items, the last sync per table, waste logged this period, the METRC credential,
 * licence expiries coming up and the METRC tags on hand (plant and package: /MetrcTags, as the
 * last sync left it). Red where a regulator would frown: failed pushes, a pending push older
 * than a day, a failing key, a sync not done for a day, a licence expiring within 30 days; amber
 * when the tags on hand run low.
 */
import { addDays } from '../../format/date-ranges'
import type { Board, ListBlock } from './board'
import type { Chart, Figure, Kpi } from './charts/types'
import type { DashCtx } from './common.server'
import { tableLink } from './links'
import { spanOf } from './period'
import { WASTE } from './plants.server'
import { ACTIVE, between, field, measure, rows } from './sql.server'

export const LICENSES = '/SetMylic'
/** METRC's unused tags, as the sync mirrors them (app/metrc/sync/tables.ts) */
export const OUTBOX = '/MetrcOutbox'
export const DRIFT = '/MetrcDrift'
export const TAGS = '/MetrcTags'
/** fewer tags on hand than this is amber: time to order more from the state */
export const LOW_TAGS = { Plant: 100, Package: 50 } as const
const DAY = 86_400_000

export async function complianceBoard(x: DashCtx, now = new Date()): Promise<Board> {
  const db = x.context.database.db
  const { period, facility: org } = x
  const tz = period.timeZone

  // every read is independent of the others: sent together (each its own statement, org-filtered)
  const first = addDays(period.today, -13)
  const wasteBy = (s: { from: string; to: string }) => {
    const p: unknown[] = [org]
    return rows<{ type: string | null; n: number; g: string | null }>(db, `SELECT ${field('wasteType')} AS type, count(*)::int AS n, sum(${measure('weight')}) AS g FROM c_fac_waste WHERE org = $1 AND ${between('wasteDate', s.from, s.to, p)} GROUP BY 1 ORDER BY 2 DESC`, p)
  }
  const pUnrep: unknown[] = [org]
  // licences expiring in the next 90 days (and those already expired but still active)
  const soon = addDays(period.today, 90)
  const pLic: unknown[] = [org]
  const [[box], perDay, [drift], [link], syncs, w0, w1, [unreported], lic, tagCounts, [grows]] = await Promise.all([
    // the outbox
    rows<{ pending: number; failed: number; held: number; oldest: string | null }>(
      db,
      `SELECT count(*) FILTER (WHERE status IN ('pending', 'sent'))::int AS pending, count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'held')::int AS held, min(created_at) FILTER (WHERE status IN ('pending', 'sent')) AS oldest
         FROM metrc_outbox WHERE org = $1`,
      [org],
    ),
    rows<{ d: string; status: string; n: number }>(
      db,
      `SELECT to_char(created_at AT TIME ZONE $2, 'YYYY-MM-DD') AS d, CASE WHEN status IN ('pending', 'sent', 'held') THEN 'pending' ELSE status END AS status, count(*)::int AS n
         FROM metrc_outbox WHERE org = $1 AND created_at >= $3 AND status IN ('pending', 'sent', 'held', 'failed', 'confirmed') GROUP BY 1, 2`,
      [org, tz, spanOf(first, first, tz).from],
    ),
    // drift, credential, syncs
    rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM metrc_drift WHERE org = $1 AND status = 'open'`, [org]),
    rows<{ status: string; failing_since: string | null; last_error: string | null; license: string }>(db, `SELECT status, failing_since, last_error, license FROM metrc_links WHERE org = $1`, [org]),
    rows<{ collection: string; status: string; ok_at: string | null; error: string | null }>(db, `SELECT collection, status, ok_at, error FROM metrc_sync WHERE org = $1 ORDER BY collection`, [org]),
    // waste this period and the one before, by type
    wasteBy(period),
    wasteBy(period.previous),
    rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM c_fac_waste WHERE org = $1 AND ${field('reported')} = 'no' AND ${between('wasteDate', period.from, period.to, pUnrep)}`, pUnrep),
    rows<{ id: string; name: string | null; number: string | null; expiry: string }>(
      db,
      `SELECT id, doc ->> 'name' AS name, doc ->> 'license_number' AS number, doc ->> 'expiry' AS expiry FROM c_set_mylic
        WHERE org = $1 AND (doc ->> 'IsUsed') IS DISTINCT FROM 'no' AND ${between('expiry', spanOf(period.today, period.today, tz).from, spanOf(soon, soon, tz).to, pLic)} ORDER BY 4`,
      pLic,
    ),
    // the tags on hand by kind (the table screen's own rows: active ones), and whether the licence grows plants at all
    rows<{ type: string | null; n: number }>(db, `SELECT ${field('Type')} AS type, count(*)::int AS n FROM c_metrc_tags WHERE org = $1 AND ${ACTIVE} GROUP BY 1`, [org]),
    rows<{ no_plants: boolean | null }>(db, `SELECT bool_and(${field('CanGrowPlants')} = 'no') AS no_plants FROM c_metrc_license WHERE org = $1 AND ${ACTIVE}`, [org]),
  ])
  const statuses = ['confirmed', 'pending', 'failed'] as const
  const tones = { confirmed: 'ok', pending: 'info', failed: 'bad' } as const
  const outboxChart: Chart = {
    kind: 'stacked',
    title: 'METRC pushes per day (last 14 days)',
    series: ['Confirmed', 'Pending', 'Failed'],
    rows: Array.from({ length: 14 }, (_, i) => addDays(first, i)).map((d) => ({
      label: d,
      parts: statuses.map((s): Figure => ({ label: d, value: perDay.find((r) => r.d === d && r.status === s)?.n ?? 0, tone: tones[s] })),
    })),
  }
  const oldestMs = box.oldest ? now.getTime() - new Date(box.oldest).getTime() : 0
  const wSpan = { df: 'wasteDate', from: period.fromDay, to: period.toDay, all: true }
  const kg = (g: number) => Math.round(g / 100) / 10
  const wasteBars: Figure[] = w0.map((r) => ({ label: r.type ?? '(none)', value: kg(Number(r.g ?? 0)), count: r.n, href: tableLink(WASTE, { ...wSpan, eq: [['wasteType', r.type ?? '']] }) }))
  const within30 = lic.filter((l) => Date.parse(l.expiry) - now.getTime() < 30 * DAY).length

  const sum = (l: typeof w0, k: 'n' | 'g') => l.reduce((s, r) => s + Number(r[k] ?? 0), 0)
  const tiles: Kpi[] = [
    { label: 'Failed METRC pushes', value: box.failed, count: box.failed, tone: box.failed ? 'bad' : 'ok', href: `${OUTBOX}?tab=attention&status=failed`, note: 'need a fix or a discard' },
    {
      label: 'Pending METRC pushes',
      value: box.pending,
      count: box.pending,
      tone: oldestMs > DAY ? 'bad' : box.pending ? 'warn' : 'ok',
      // the Queued tab is pending and sent, as counted here
      href: `${OUTBOX}?tab=queued`,
      note: box.oldest ? `oldest waiting ${ago(oldestMs)}` : box.held ? `${box.held} held for approval` : 'nothing waiting',
    },
    { label: 'Open drift items', value: drift.n, count: drift.n, tone: drift.n ? 'warn' : 'ok', href: DRIFT, note: 'Canopy and METRC disagree' },
    {
      label: 'METRC credential',
      value: link ? (link.status === 'ok' ? 1 : 0) : 0,
      tone: !link ? 'warn' : link.status === 'failing' ? 'bad' : link.status === 'ok' ? 'ok' : 'warn',
      note: !link ? 'not linked' : link.status === 'failing' ? `failing${link.failing_since ? ` since ${String(link.failing_since).slice(0, 10)}` : ''}: ${(link.last_error ?? '').slice(0, 80)}` : `${link.status} · licence ${link.license}`,
    },
    { label: 'Waste logged', unit: 'kg', value: kg(sum(w0, 'g')), previous: kg(sum(w1, 'g')), count: sum(w0, 'n'), note: `${sum(w0, 'n')} records`, href: tableLink(WASTE, wSpan) },
    { label: 'Waste not reported to the state', value: unreported.n, count: unreported.n, tone: unreported.n ? 'bad' : 'ok', href: tableLink(WASTE, { ...wSpan, eq: [['reported', 'no']] }) },
    { label: 'Licences expiring in 90 days', value: lic.length, count: lic.length, tone: within30 ? 'bad' : lic.length ? 'warn' : 'ok', note: within30 ? `${within30} within 30 days` : undefined, href: tableLink(LICENSES, { df: 'expiry', from: period.today, to: soon, all: true }) },
  ]
  // tags on hand: as many as the last good sync of METRC's lists left (or none before one)
  const tagSync = syncs.find((r) => r.collection === 'metrc_tags')
  const tagsSynced = link && tagSync?.ok_at ? `synced ${ago(Math.max(0, now.getTime() - new Date(tagSync.ok_at).getTime()))} ago` : 'not synced yet'
  const tagTile = (type: keyof typeof LOW_TAGS, label: string, idle: boolean): Kpi => {
    const n = tagCounts.find((r) => r.type === type)?.n ?? 0
    return {
      label,
      value: n,
      count: n,
      tone: idle ? 'muted' : n < LOW_TAGS[type] ? 'warn' : 'ok',
      href: tableLink(TAGS, { eq: [['Type', type]] }),
      note: idle ? `this licence grows no plants · ${tagsSynced}` : n < LOW_TAGS[type] ? `under ${LOW_TAGS[type]}: order more · ${tagsSynced}` : tagsSynced,
    }
  }
  tiles.push(tagTile('Plant', 'Plant tags on hand', !!grows?.no_plants && !tagCounts.some((r) => r.type === 'Plant')), tagTile('Package', 'Package tags on hand', false))
  const syncList: ListBlock = {
    title: 'Last METRC sync per table',
    head: ['Table', 'Status', 'Last good sync'],
    empty: 'No METRC table has been synced yet.',
    rows: syncs.map((s) => {
      const stale = !s.ok_at || now.getTime() - new Date(s.ok_at).getTime() > DAY
      return { cells: [{ text: s.collection }, { text: s.status === 'failed' ? `failed: ${(s.error ?? '').slice(0, 60)}` : s.status, tone: s.status === 'failed' ? 'bad' : undefined }, { text: s.ok_at ? `${String(s.ok_at).slice(0, 16).replace('T', ' ')}` : 'never', tone: stale ? 'bad' : undefined }] }
    }),
  }
  const licList: ListBlock = {
    title: 'Licence expiries coming up',
    head: ['Licence', 'Number', 'Expires'],
    empty: 'No licence expires in the next 90 days.',
    rows: lic.map((l) => ({ cells: [{ text: l.name ?? l.id, href: `${LICENSES}/${encodeURIComponent(l.id)}/edit` }, { text: l.number ?? '' }, { text: l.expiry.slice(0, 10), tone: Date.parse(l.expiry) - now.getTime() < 30 * DAY ? 'bad' : 'warn' }] })),
  }
  return {
    path: '/DshCompliance',
    title: 'Compliance Dashboard',
    period,
    notices: x.notices,
    tiles,
    charts: [outboxChart, { kind: 'bars', title: 'Waste logged by type', unit: 'kg', bars: wasteBars }],
    lists: [syncList, licList],
    watch: ['fac_waste', 'set_mylic', 'metrc_tags'],
  }
}

function ago(ms: number): string {
  const m = Math.round(ms / 60_000)
  if (m < 60) return `${m} min`
  const h = Math.round(m / 60)
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} days`
}
