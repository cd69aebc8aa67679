/**
 * The posts of a Metrc screen's sync panel (app/routes/$.tsx): "Sync now" (anyone who may open the
 * screen; waits for the run, at most SYNC_WAIT_MS, so a form without JavaScript comes back to a
 * page that shows the result) and the METRC connection form of /MetrcLicense (administrators).
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../../auth/require.server'
import type { RouteEntry } from '../../route-map'
import { badInput, isAppError } from '../../utils/errors'
import { METRC_STATES } from '../client/states'
import { credentialChecker } from '../credentials.server'
import { linkWithKey, saveLink } from './links.server'
import { isMetrcAdmin } from './panel.server'
import { metrcSyncer } from './syncer.server'
import { SYNC_TABLES } from './tables'

const SYNC_WAIT_MS = 20_000

export type PanelAnswer = { ok: true; message?: string } | { error: string; status: number }

export async function metrcPanelAction(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, form: FormData): Promise<PanelAnswer | null> {
  const intent = form.get('intent')
  if (intent !== 'metrc-sync' && intent !== 'metrc-link') return null
  const table = route.collection ? SYNC_TABLES.get(route.collection) : undefined
  if (route.module !== 'metrc' || !table) return { error: 'This screen is not synced from METRC.', status: 400 }
  if (intent === 'metrc-sync') {
    const run = metrcSyncer(context.database, context.env).run(facility, [table.collection])
    const r = await Promise.race([run, new Promise<null>((res) => setTimeout(res, SYNC_WAIT_MS))])
    if (r === null) return { ok: true, message: 'The sync goes on in the background.' }
    const [done] = r
    if (done.status === 'failed') return { error: `METRC sync failed: ${done.error ?? ''}`, status: 502 }
    if (done.status === 'skipped') return { error: done.error ?? 'Not synced.', status: 409 }
    return { ok: true }
  }
  if (route.path !== '/MetrcLicense' || !isMetrcAdmin(s.user)) return { error: 'Only an administrator can change the METRC connection.', status: 403 }
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId }
  try {
    const state = String(form.get('state') ?? '').trim().toUpperCase()
    const license = String(form.get('license') ?? '').trim()
    // the key is write-only: left empty, the stored one is kept (a new license or state only)
    const key = String(form.get('key') ?? '').trim() || ((await linkWithKey(context.database, context.env.SESSION_SECRET, facility))?.key ?? '')
    if (!(METRC_STATES as readonly string[]).includes(state)) throw badInput('Choose a METRC state', { field: 'state' })
    if (!license || license.length > 60) throw badInput('Enter the facility license number', { field: 'license' })
    if (!key || key.length > 200) throw badInput('Enter the METRC user API key', { field: 'key' })
    const check = credentialChecker(context.env)
    if (!check) throw badInput('METRC is not configured on this server (no vendor key and no emulator).', { field: 'key' })
    // a METRC that does not answer leaves the link unchecked (saved; the first sync checks it)
    await saveLink(context.database, context.env.SESSION_SECRET, actor, facility, { state, license, key }, check)
  } catch (e) {
    if (isAppError(e)) return { error: e.message, status: e.status }
    throw e
  }
  return { ok: true, message: 'METRC accepted the connection; it is saved.' }
}
