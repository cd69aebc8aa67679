/**
 * For actions (they run before any loader, so the root guard has not run yet): the signed-in
 * session and user, or a redirect to the login view.
 */
import { redirect, type AppLoadContext } from '@remix-run/node'
import { actingUser } from './accounts.server'
import type { SessionUser } from './entitlements'
import { once } from '../utils/request-memo'
import { loadSession, readSessionId, sessionCookie, type SessionRow } from './session.server'

export interface SignedIn {
  id: string
  session: SessionRow
  user: SessionUser
}

/** `finished`: the whole sign-in is done (false allows the EULA, credentials and facility steps). */
export async function requireSession(request: Request, context: AppLoadContext, finished = true): Promise<SignedIn> {
  const id = readSessionId(request)
  const look = await once(context, `session:${id}`, () => loadSession(context.database, id, context.env.IDLE_TIMEOUT_S))
  const clear = { headers: { 'Set-Cookie': sessionCookie(request, null) } }
  if (look.state !== 'active' || !id) throw redirect(look.state === 'ended' && look.reason === 'idle' ? '/Welcome?msg=idle' : '/Welcome', clear)
  if (finished && look.session.step !== 'done') throw redirect('/Welcome', clear)
  const user = await once(context, `user:${look.session.uid}:${look.session.orig_uid}`, () => actingUser(context.database, look.session.uid, look.session.orig_uid))
  if (!user || user.web === 'no') throw redirect('/Welcome?msg=noweb', clear)
  return { id, session: look.session, user }
}
