/**
 * A record's change history from the audit trail (issue 6): who, when, on whose behalf when
 * impersonating, and each field that changed with its value before and after, as a person reads
 * it: references by their label (looked up once per referenced table), text whole (issue 32).
 * Also what changed since a given moment, for a refused (conflicting) save.
 */
import type { AppLoadContext } from '@remix-run/node'
import { findUser } from '../auth/accounts.server'
import type { RouteEntry } from '../route-map'
import { notFound } from '../utils/errors'
import { NO_LABELS, referenceLabels, type LabelOf } from './reference-labels.server'
import { fieldLabel, sameValue, shownValue } from './record-values'
import { readView, type TableView } from './table-page.server'

export interface HistoryEntry {
  at: string
  action: 'insert' | 'update' | 'delete'
  who: string
  /** the signed-in user when `who` was impersonated */
  onBehalf: string | null
  changes: Array<{ field: string; before: string; after: string }>
}

const IGNORED = new Set(['_id', 'ts', 'octs', '_labels'])

/**
 * Fields whose value differs between two versions, as a person reads them (record-values.ts):
 * references by label, text whole; a field whose value only changed form (missing → empty,
 * 'no' → false) is not a change.
 */
export function changesBetween(view: Pick<TableView, 'columns' | 'timeZone'>, before: Record<string, unknown> | null, after: Record<string, unknown> | null, labelOf: LabelOf = NO_LABELS): HistoryEntry['changes'] {
  // in the schema's order (the stored documents' key order is the database's), then the rest
  const keys = new Set([...view.columns.map((c) => c.key), ...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  const out: HistoryEntry['changes'] = []
  for (const k of keys) {
    if (IGNORED.has(k) || (before?.[k] === undefined && after?.[k] === undefined)) continue
    const col = view.columns.find((c) => c.key === k)
    if (sameValue(k, before?.[k], after?.[k], col)) continue
    out.push({ field: fieldLabel(k, col), before: shownValue(k, before?.[k], col, labelOf, view.timeZone), after: shownValue(k, after?.[k], col, labelOf, view.timeZone) })
  }
  return out
}

async function names(context: AppLoadContext, uids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const uid of new Set(uids)) {
    const u = await findUser(context.database, uid)
    out.set(uid, u ? [u.firstname, u.lastname].filter(Boolean).join(' ') || u.email : uid)
  }
  return out
}

export async function recordHistory(context: AppLoadContext, route: RouteEntry, facility: string, url: URL, id: string, since?: string): Promise<{ entries: HistoryEntry[]; timeZone: string }> {
  const view = await readView(context, route, facility, url)
  const rows = await context.database.store.history(view.org, route.collection!, id)
  if (!rows.length) throw notFound('This record has no history here.')
  const chosen = since ? rows.filter((r) => new Date(r.at).getTime() > new Date(since).getTime()) : rows
  const who = await names(context, chosen.flatMap((r) => [r.uid, r.orig_uid]))
  const docs = chosen.flatMap((r) => [r.before, r.after] as Array<Record<string, unknown> | null>)
  const labelOf = await referenceLabels(context, view.schema, facility, docs)
  const entries = chosen.map((r) => ({
    at: r.at,
    action: r.action as HistoryEntry['action'],
    who: who.get(r.uid) ?? r.uid,
    onBehalf: r.orig_uid && r.orig_uid !== r.uid ? (who.get(r.orig_uid) ?? r.orig_uid) : null,
    changes: changesBetween(view, r.before as Record<string, unknown> | null, r.action === 'delete' ? null : (r.after as Record<string, unknown> | null), labelOf),
  }))
  return { entries, timeZone: view.timeZone }
}
