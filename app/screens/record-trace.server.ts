/**
 * A record's trace page (issue 23 item 3): the record, where it came from and where it went, as
 * the area's provider (records/trace.server.ts) links them, each with its last audit steps (who,
 * when, what changed: record-history.server.ts's words) and its METRC pushes (the outbox items
 * whose source it is). A few queries for the whole page, whatever the number of records: one for
 * the audit steps of every record shown, one for their pushes, a view and labels per table.
 */
import type { AppLoadContext } from '@remix-run/node'
import { findUser } from '../auth/accounts.server'
import type { SignedIn } from '../auth/require.server'
import { resolveScreen } from '../auth/screens.server'
import { hasTrace, traceProviderOf, type TraceGroup, type TraceNode } from '../records/trace.server'
import { findRoute, ROUTES, type RouteEntry } from '../route-map'
import { notFound } from '../utils/errors'
import { changesBetween, type HistoryEntry } from './record-history.server'
import { referenceLabels } from './reference-labels.server'
import { readView } from './table-page.server'

/** Most records a group lists; most audit steps a record shows. */
export const TRACE_LIMIT = 20
export const TRACE_STEPS = 10

export interface TraceStep {
  at: string
  action: HistoryEntry['action']
  who: string
  changes: HistoryEntry['changes']
}

export interface TracePush {
  endpoint: string
  status: string
  label: string
  at: string
  message: string | null
}

export interface TraceNodeData extends TraceNode {
  /** its own trace page, or its own page (href); null when the user may not open its screen */
  link: string | null
  /** its full change history */
  history: string | null
  steps: TraceStep[]
  /** all its audit steps (steps holds the last TRACE_STEPS) */
  stepCount: number
  pushes: TracePush[]
}

export interface TraceGroupData extends Omit<TraceGroup, 'nodes'> {
  nodes: TraceNodeData[]
  /** the user is not entitled to these records' screen: the count only */
  hidden: boolean
}

export interface TraceData {
  self: TraceNodeData
  from: TraceGroupData[]
  to: TraceGroupData[]
  timeZone: string
}

/** The table screen of a collection (its first mapped table route). */
const tableRoute = (collection: string): RouteEntry | undefined => ROUTES.find((r) => r.kind === 'table' && r.collection === collection)

export async function recordTrace(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string): Promise<TraceData> {
  const provider = traceProviderOf(route.collection!)
  if (!provider) throw notFound('This table has no trace.')
  const view = await readView(context, route, facility, url, s.user)
  const graph = await provider.trace({ db: context.database.db, org: view.org, limit: TRACE_LIMIT }, id)
  if (!graph) throw notFound('That record no longer exists. It may have been deleted.')
  const keep = url.searchParams.get('facility')
  const suffix = keep ? `?facility=${encodeURIComponent(keep)}` : ''

  // which screens this user may open (the record's own was checked by the route's guard)
  const allowed = new Map<string, RouteEntry | null>([[route.collection!, route]])
  const groups = [...graph.from, ...graph.to]
  for (const c of new Set(groups.flatMap((g) => g.nodes.map((n) => n.collection)))) {
    if (allowed.has(c)) continue
    // a record with a page of its own (an order: /DisSales/{id}) is seen through that screen
    const href = groups.flatMap((g) => g.nodes).find((n) => n.collection === c && n.href)?.href
    const r = href ? findRoute(`/${href.split('/')[1]}`) : tableRoute(c)
    const screen = r ? await resolveScreen(context.database, s.user, facility, r.path) : 'unknown'
    allowed.set(c, typeof screen === 'object' ? screen.route : null)
  }
  const visible = (g: TraceGroup) => g.nodes.every((n) => allowed.get(n.collection))
  const shown = [graph.self, ...groups.filter(visible).flatMap((g) => g.nodes)]

  // every record's last audit steps, in one query
  const refs = { c: shown.map((n) => n.collection), i: shown.map((n) => n.id) }
  const audit = await context.database.db.query<{ collection: string; doc_id: string; at: Date | string; action: HistoryEntry['action']; uid: string | null; before: Record<string, unknown> | null; after: Record<string, unknown> | null; n: string }>(
    `SELECT collection, doc_id, at, action, uid, before, after, n FROM (
       SELECT a.*, row_number() OVER (PARTITION BY a.collection, a.doc_id ORDER BY a.seq DESC) AS rn,
              count(*) OVER (PARTITION BY a.collection, a.doc_id) AS n
       FROM audit_log a JOIN unnest($2::text[], $3::text[]) AS r(c, i) ON a.collection = r.c AND a.doc_id = r.i
       WHERE a.org = $1) x
     WHERE rn <= $4 ORDER BY collection, doc_id, rn DESC`,
    [view.org, refs.c, refs.i, TRACE_STEPS],
  )
  // and their pushes, in one query
  const pushes = await context.database.db.query<{ source_collection: string; source_id: string; endpoint: string; status: string; label: string; at: Date | string; message: string | null }>(
    `SELECT o.source_collection, o.source_id, o.endpoint, o.status, o.label, o.updated_at AS at, o.message
     FROM metrc_outbox o JOIN unnest($2::text[], $3::text[]) AS r(c, i) ON o.source_collection = r.c AND o.source_id = r.i
     WHERE o.org = $1 ORDER BY o.seq`,
    [view.org, refs.c, refs.i],
  )

  // changes in a person's words: the columns and reference labels of each table, once per table
  const words = new Map<string, { view: Awaited<ReturnType<typeof readView>>; labelOf: Awaited<ReturnType<typeof referenceLabels>> }>()
  for (const c of new Set(audit.rows.map((a) => a.collection))) {
    const r = tableRoute(c)
    if (!r) continue
    const v = c === route.collection ? view : await readView(context, r, facility, new URL('http://x/'))
    const docs = audit.rows.filter((a) => a.collection === c).flatMap((a) => [a.before, a.after])
    words.set(c, { view: v, labelOf: await referenceLabels(context, v.schema, facility, docs) })
  }
  const who = new Map<string, string>()
  for (const uid of new Set(audit.rows.map((a) => a.uid).filter((u): u is string => !!u))) {
    const u = await findUser(context.database, uid)
    who.set(uid, u ? [u.firstname, u.lastname].filter(Boolean).join(' ') || u.email : uid)
  }
  const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString()
  const key = (c: string, i: string) => `${c}\u0000${i}`
  const stepsOf = new Map<string, TraceStep[]>()
  const countOf = new Map<string, number>()
  for (const a of audit.rows) {
    const k = key(a.collection, a.doc_id)
    const w = words.get(a.collection)
    countOf.set(k, Number(a.n))
    const list = stepsOf.get(k) ?? []
    list.push({ at: iso(a.at), action: a.action, who: a.uid ? (who.get(a.uid) ?? a.uid) : '', changes: w ? changesBetween(w.view, a.before, a.action === 'delete' ? null : a.after, w.labelOf) : [] })
    stepsOf.set(k, list)
  }
  const pushesOf = new Map<string, TracePush[]>()
  for (const p of pushes.rows) {
    const k = key(p.source_collection, p.source_id)
    pushesOf.set(k, [...(pushesOf.get(k) ?? []), { endpoint: p.endpoint, status: p.status, label: p.label, at: iso(p.at), message: p.message }])
  }

  const nodeData = (n: TraceNode): TraceNodeData => {
    const r = allowed.get(n.collection) ?? null
    const path = r && r.kind === 'table' && r.collection === n.collection ? `${r.path}/${encodeURIComponent(n.id)}` : null
    const k = key(n.collection, n.id)
    return {
      ...n,
      link: n.href ?? (path && hasTrace(n.collection) ? `${path}/trace${suffix}` : null),
      history: path ? `${path}/history${suffix}` : null,
      steps: stepsOf.get(k) ?? [],
      stepCount: countOf.get(k) ?? 0,
      pushes: pushesOf.get(k) ?? [],
    }
  }
  const groupData = (g: TraceGroup): TraceGroupData => (visible(g) ? { ...g, nodes: g.nodes.map(nodeData), hidden: false } : { label: g.label, total: g.total, nodes: [], hidden: true })
  return { self: nodeData(graph.self), from: graph.from.map(groupData), to: graph.to.map(groupData), timeZone: view.timeZone }
}
