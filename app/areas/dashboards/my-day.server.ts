/**
 * The start page after choosing a facility (issue 25 item 5): the user's tasks for today, alerts
 * (failed METRC pushes, sensor alarms, overdue tasks) and the headline tiles of the dashboards
 * the user may open. Each piece only when the user's modules show it.
 */
import type { AppLoadContext } from '@remix-run/node'
import { visibleRoutes, type SessionUser } from '../../auth/entitlements'
import { timeZoneOf } from '../../facilities/facts.server'
import { addDays, localDate } from '../../format/date-ranges'
import { sensorBoard } from '../../sensors/board.server'
import { occurrences } from '../calendar/recur'
import type { Kpi } from './charts/types'
import { cultivationBoard } from './cultivation.server'
import { readPeriod } from './period'
import { plantsBoard } from './plants.server'
import { labelsOf } from './common.server'

export interface MyDay {
  today: string
  tasks: Array<{ id: string; title: string; time: string; room: string; overdue: boolean; status: string }>
  mine: boolean
  alerts: Array<{ text: string; href: string; tone: 'bad' | 'warn' }>
  tiles: Kpi[]
}

export async function myDay(context: AppLoadContext, user: SessionUser, facility: string, now = new Date()): Promise<MyDay | null> {
  if (!facility) return null
  const paths = new Set(visibleRoutes(user, facility).map((r) => r.path))
  const tz = await timeZoneOf(context, facility)
  const today = localDate(now, tz)
  const db = context.database.db
  const out: MyDay = { today, tasks: [], mine: true, alerts: [], tiles: [] }
  if (paths.has('/SchCalendar')) {
    const me = [user.firstname, user.lastname].filter(Boolean).join(' ')
    const load = async (who?: string) => {
      const p: unknown[] = [facility, new Date(now.getTime() + 86_400_000).toISOString()]
      const rows = (await db.query<{ id: string; doc: Record<string, unknown> }>(`SELECT id, doc FROM c_sch_tasks WHERE org = $1 AND (doc ->> 'IsUsed') IS DISTINCT FROM 'no' AND ((doc ->> 'start') COLLATE "C") < $2 ${who ? `AND (doc ->> 'assignee') = $${p.push(who)}` : ''} AND (COALESCE(doc ->> 'repeat', '') <> '' OR ((COALESCE(NULLIF(doc ->> 'end', ''), doc ->> 'start')) COLLATE "C") >= $${p.push(new Date(now.getTime() - 40 * 86_400_000).toISOString())}) LIMIT 2000`, p)).rows
      return rows
    }
    let rows = await load(me)
    if (!rows.some((r) => occurrences(r.doc as { start: string }, today, today, tz).length)) {
      out.mine = false
      rows = await load()
    }
    const rooms = await labelsOf(context, facility, 'set_rooms', rows.map((r) => String(r.doc.room ?? '')))
    for (const r of rows) {
      for (const o of occurrences(r.doc as { start: string }, today, today, tz)) {
        const status = String(r.doc.status ?? '')
        out.tasks.push({ id: r.id, title: String(r.doc.title ?? ''), time: r.doc.allDay === 'yes' ? 'all day' : new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: tz }).format(new Date(o.start)), room: rooms.get(String(r.doc.room ?? '')) ?? '', status, overdue: ['Scheduled', 'In Progress'].includes(status) && Date.parse(o.end) < now.getTime() })
      }
    }
    out.tasks.sort((a, b) => a.time.localeCompare(b.time))
    const yesterday = addDays(today, -1)
    const [od] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM c_sch_tasks WHERE org = $1 AND (doc ->> 'IsUsed') IS DISTINCT FROM 'no' AND (doc ->> 'status') = 'Scheduled' AND ((doc ->> 'end') COLLATE "C") < $2`, [facility, readPeriod(new URLSearchParams(`from=${yesterday}&to=${yesterday}`), tz, now).period.to])).rows
    if (od.n) out.alerts.push({ text: `${od.n} scheduled tasks are overdue`, href: `/SchTasks?eq=status%3AScheduled&df=end&to=${yesterday}`, tone: 'bad' })
  }
  if (paths.has('/MetrcOutbox')) {
    const [f] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM metrc_outbox WHERE org = $1 AND status = 'failed'`, [facility])).rows
    if (f.n) out.alerts.push({ text: `${f.n} METRC pushes failed`, href: '/MetrcOutbox', tone: 'bad' })
  }
  if (paths.has('/DshSensors')) {
    const board = await sensorBoard(context, facility, now.getTime())
    const alarms = board.devices.flatMap((d) => d.gauges.filter((g) => g.level === 'error' || g.level === 'warn').map((g) => `${d.deviceName}: ${g.label} ${g.value}${g.units ? ` ${g.units}` : ''}`))
    if (alarms.length) out.alerts.push({ text: `${alarms.length} sensor alarms (${alarms.slice(0, 2).join('; ')}${alarms.length > 2 ? '…' : ''})`, href: '/DshSensors', tone: 'warn' })
  }
  const x = { context, facility, period: readPeriod(new URLSearchParams(), tz, now).period, notices: [], labels: (c: string, ids: string[]) => labelsOf(context, facility, c, ids) }
  if (paths.has('/DshPlants')) out.tiles.push(...(await plantsBoard(x)).tiles.filter((t) => t.href).slice(0, 4))
  if (paths.has('/DshCultivation')) out.tiles.push(...(await cultivationBoard(x)).tiles.filter((t) => t.href).slice(1, 3))
  return out
}
