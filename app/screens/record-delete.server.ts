/**
 * Deleting a record from a table screen (SPEC §2.5 bin, §6 rules): `/{screen}/{id}/delete`
 * shows what will be deleted and asks "Are you sure you want to delete this item?"; its form
 * posts the delete. The server checks again: an editable table, the user's right to delete this
 * row (delete = no binds everyone but super), and that nobody changed the row meanwhile.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../auth/require.server'
import type { RouteEntry } from '../route-map'
import { deleteRecord as removeRecord } from '../records/write.server'
import { forbidden, notFound } from '../utils/errors'
import { readView } from './table-page.server'
import { referenceLabels } from './reference-labels.server'
import { shownValue } from './record-values'
import { rowRights } from '../records/rights'

export const DELETE_QUESTION = 'Are you sure you want to delete this item?'

/** `/DisSales/o1/delete` → the screen path and the record id; null for any other address. */
export function recordAddress(pathname: string): { screen: string; id: string } | null {
  const m = /^(\/[A-Za-z][A-Za-z0-9]*)\/([^/]{1,64})\/delete\/?$/.exec(pathname)
  return m ? { screen: m[1], id: decodeURIComponent(m[2]) } : null
}

export interface DeleteConfirm {
  id: string
  ts: string
  /** the record as the table shows it: its first visible columns */
  summary: Array<{ label: string; value: string }>
  /** the table view to go back to */
  back: string
}

async function deletable(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string) {
  const view = await readView(context, route, facility, url, s.user)
  const row = await context.database.store.get(view.org, route.collection!, id)
  if (!row) throw notFound('That record no longer exists. It may have been deleted already.')
  if (!view.editable) throw forbidden('This table is read-only: its records cannot be deleted here.')
  if (!rowRights(view, s.user, row).canDelete) throw forbidden('This record is protected against deletion (delete = no). Ask an administrator.')
  return { view, row }
}

export async function confirmDelete(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string): Promise<DeleteConfirm> {
  const { view, row } = await deletable(context, s, route, facility, url, id)
  const shown = view.columns.filter((c) => c.visible && !['image', 'qrcode', 'array', 'pdf'].includes(c.format)).slice(0, 4)
  // references by their label, text whole (issue 32 item 8), as the history shows them
  const labelOf = await referenceLabels(context, view.schema, facility, [row])
  const summary = shown.map((c) => ({ label: c.label, value: shownValue(c.key, row[c.key], c, labelOf, view.timeZone) }))
  return { id, ts: row.ts, summary, back: `${route.path}${url.search}` }
}

export async function deleteRecord(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, _url: URL, id: string, ts: string): Promise<void> {
  // the one write path (app/records/write.server.ts), through this screen's rule
  const writer = { user: s.user, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }, facility }
  await removeRecord(context, writer, route.collection!, id, { via: route, expectTs: ts || undefined })
}
