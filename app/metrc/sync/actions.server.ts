/**
 * The posts of a Metrc screen's sync panel (app/routes/$.tsx): "Sync now" (anyone who may open the
 * screen; waits for the run, at most SYNC_WAIT_MS, so a form without JavaScript comes back to a
 * page that shows the result) and the METRC connection form of /MetrcLicense (administrators).
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../../auth/require.server'
import type { RouteEntry } from '../../route-map'
import { isAppError } from '../../utils/errors'
import { saveLink } from '../link.server'
import { isMetrcAdmin } from './panel.server'
import { metrcSyncer } from './syncer.server'
import { syncTableOf } from './table-map'

const SYNC_WAIT_MS = 20_000

export type PanelAnswer = { ok: true; message?: string } | { error: string; status: number }

export async function metrcPanelAction(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, form: FormData): Promise<PanelAnswer | null> {
  const intent = form.get('intent')
  if (intent !== 'metrc-sync' && intent !== 'metrc-link') return null
  const table = syncTableOf(route.collection)
  if (route.module !== 'metrc' || !table) return { error: 'This screen is not synced from METRC.', status: 400 }
  if (intent === 'metrc-sync') {
    const run = metrcSyncer(context.database, context.env).run(facility, [table.collection])
    const r = await Promise.race([run, new Promise<null>((res) => setTimeout(res, SYNC_WAIT_MS))])
    if (r === null) return { ok: true, message: 'The sync goes on in the background.' }
    if (r.errors.length) return { error: `METRC sync failed: ${r.errors[0].message}`, status: 502 }
    return { ok: true }
  }
  if (route.path !== '/MetrcLicense' || !isMetrcAdmin(s.user)) return { error: 'Only an administrator can change the METRC connection.', status: 403 }
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId }
  try {
    await saveLink(context.database, context.env, actor, facility, { state: String(form.get('state') ?? ''), license: String(form.get('license') ?? ''), key: String(form.get('key') ?? '') })
  } catch (e) {
    if (isAppError(e)) return { error: e.message, status: e.status }
    throw e
  }
  return { ok: true, message: 'METRC accepted the connection; it is saved.' }
}
