/**
 * Posts to a table screen: toggling a check cell (SPEC §2.5). The server checks again what the
 * screen only hid: an editable table, a check column that is not read-only, the user's right to
 * change this row (SPEC §6), and that nobody changed the row since the page was drawn. The change
 * then goes through the one write path (records/write.server.ts) like a form's or the API's: field
 * checks, the table's save rules (SPEC §5), the METRC pushes, the audit row. A toggle the rules
 * refuse for want of other fields (a plant marked dead needs how it was destroyed) saves nothing
 * and answers with the record's edit form, the toggle already set there, to give them (issue 32).
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../auth/require.server'
import { isAppError, badInput, forbidden, notFound } from '../utils/errors'
import type { RouteEntry } from '../route-map'
import { readView } from './table-page.server'
import { rowRights } from '../records/rights'
import { problemsOf, updateRecord } from '../records/write.server'
import { presetParam } from './record-presets'

/** Saved; or the edit form (its address) that asks for what the save rules need, with their message. */
export type ToggleOutcome = { saved: true } | { saved: false; form: string; message: string }

export async function toggleCheck(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, form: FormData): Promise<ToggleOutcome> {
  const view = await readView(context, route, facility, url, s.user)
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
  const writer = { user: s.user, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }, facility }
  try {
    // a partial update: the save rules run on the stored record with this one change
    await updateRecord(context, writer, route.collection!, id, { [field]: value }, { partial: true, via: route, expectTs: ts || undefined, anyMinute: true })
    return { saved: true }
  } catch (e) {
    const problems = problemsOf(e)
    if (!problems) throw e
    const back = new URLSearchParams(url.search)
    back.delete('_data')
    back.set(presetParam(field), value)
    return { saved: false, form: `${route.path}/${encodeURIComponent(id)}/edit?${back}`, message: problems.map((p) => p.message).join(' ') }
  }
}

/** An error from a table action as words for the user and an HTTP status. */
export function actionError(e: unknown): { error: string; status: number } {
  if (isAppError(e)) {
    const msg = e.code === 'CONFLICT' ? 'Someone else changed this record since you opened the table. Refresh to see the change, then try again.' : e.message
    return { error: msg, status: e.status }
  }
  throw e
}
