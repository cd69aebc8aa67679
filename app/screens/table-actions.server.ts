/**
 * Posts to a table screen: toggling a check cell (SPEC §2.5). The server checks again what the
 * screen only hid: an editable table, a check column that is not read-only, the user's right to
 * change this row (SPEC §6), and that nobody changed the row since the page was drawn.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../auth/require.server'
import { isAppError, badInput, forbidden, notFound } from '../utils/errors'
import type { RouteEntry } from '../route-map'
import { outboxStep } from '../metrc/outbox/record-step.server'
import { readView } from './table-page.server'
import { rowRights } from '../records/rights'
import { timeZoneOf } from '../facilities/facts.server'

export async function toggleCheck(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, form: FormData): Promise<void> {
  const view = await readView(context, route, facility, url)
  const id = String(form.get('id') ?? '')
  const field = String(form.get('field') ?? '')
  const value = String(form.get('value') ?? '')
  const col = view.columns.find((c) => c.key === field)
  if (!col || col.format !== 'check') throw badInput('That column is not a yes/no column of this table.')
  if (!col.toggles) throw forbidden(view.editable ? `${col.label} is read-only.` : 'This table is read-only.')
  if (value !== 'yes' && value !== 'no') throw badInput('A yes/no column takes yes or no.')
  const row = await context.database.store.get(view.org, route.collection!, id)
  if (!row) throw notFound('That record no longer exists. Refresh the table to see the current records.')
  if (!rowRights(view, s.user, row).canEdit) throw forbidden('This record is locked against changes (ed = no). Ask an administrator.')
  const ts = String(form.get('ts') ?? '')
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }
  // a check that METRC hears about (a plant marked dead) is queued with the change, as on the edit form
  const also = await outboxStep(view.org, actor, route.collection!, () => timeZoneOf(context, facility))
  await context.database.store.update(actor, view.org, route.collection!, id, { [field]: value }, { expectTs: ts || undefined, also })
}

/** An error from a table action as words for the user and an HTTP status. */
export function actionError(e: unknown): { error: string; status: number } {
  if (isAppError(e)) {
    const msg = e.code === 'CONFLICT' ? 'Someone else changed this record since you opened the table. Refresh to see the change, then try again.' : e.message
    return { error: msg, status: e.status }
  }
  throw e
}
