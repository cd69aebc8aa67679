/**
 * A record's change history from the audit trail (issue 6): who, when, on whose behalf when
 * impersonating, and each field that changed with its value before and after, shown as the
 * table shows it. Also what changed since a given moment, for a refused (conflicting) save.
 */
import type { AppLoadContext } from '@remix-run/node'
import { findUser } from '../auth/accounts.server'
import { formatCell } from '../format/format'
import type { RouteEntry } from '../route-map'
import { notFound } from '../utils/errors'
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

/** Fields whose stored value differs between two versions, as the screen would show them. */
export function changesBetween(view: Pick<TableView, 'columns' | 'timeZone'>, before: Record<string, unknown> | null, after: Record<string, unknown> | null): HistoryEntry['changes'] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  const out: HistoryEntry['changes'] = []
  for (const k of keys) {
    if (IGNORED.has(k)) continue
    const a = before?.[k]
    const b = after?.[k]
    if (JSON.stringify(a ?? null) === JSON.stringify(b ?? null)) continue
    const col = view.columns.find((c) => c.key === k)
    const show = (v: unknown) => (v === undefined || v === null ? '' : formatCell(v, col?.format.startsWith('id:') ? '' : col?.format ?? (k === 'cts' ? 'date' : ''), { timeZone: view.timeZone }))
    out.push({ field: col?.label ?? (k === 'cts' ? 'Created' : k), before: show(a), after: show(b) })
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
  const entries = chosen.map((r) => ({
    at: r.at,
    action: r.action as HistoryEntry['action'],
    who: who.get(r.uid) ?? r.uid,
    onBehalf: r.orig_uid && r.orig_uid !== r.uid ? (who.get(r.orig_uid) ?? r.orig_uid) : null,
    changes: changesBetween(view, r.before as Record<string, unknown> | null, r.action === 'delete' ? null : (r.after as Record<string, unknown> | null)),
  }))
  return { entries, timeZone: view.timeZone }
}
