/**
 * Who may fetch a label (GET /labels/…): the one place that says so, so that a device key can be
 * added here (a printer fetching the label it was asked to print, as `{ org, user: null }`).
 * An API client's `x-access-token` (its organisation is the token's); a device (the printer fetching
 * the label it was asked to print) with HTTP Basic auth of its bus credentials (`{org}/{deviceID}`
 * and its device key, app/bus/credentials.server.ts): `{ org, user: null }`; or a signed-in session
 * that has chosen its facility. Anything else is UNAUTHENTICATED.
 */
import type { AppLoadContext } from '@remix-run/node'
import { requireApiCaller } from '../auth/api-caller.server'
import { findUser } from '../auth/accounts.server'
import { loadSession, readSessionId } from '../auth/session.server'
import { authenticateBus } from '../bus/credentials.server'
import { AppError } from '../utils/errors'
import type { LabelCaller } from './record-label.server'

export async function labelCaller(request: Request, context: AppLoadContext): Promise<LabelCaller> {
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,600})$/i.exec(request.headers.get('authorization') ?? '')
  if (basic) {
    // a device key never holds ':' but a device id may, so the key is what follows the last one
    const pair = Buffer.from(basic[1], 'base64').toString('utf8')
    const cut = pair.lastIndexOf(':')
    const id = cut > 0 ? await authenticateBus(context.database, context.env.SESSION_SECRET, pair.slice(0, cut), pair.slice(cut + 1)) : null
    if (id?.kind !== 'device') throw new AppError('UNAUTHENTICATED', 'Unknown device or key.')
    return { org: id.org, user: null }
  }
  if (request.headers.get('x-access-token')) {
    const c = await requireApiCaller(request, context)
    return { org: c.org, user: c.user }
  }
  const look = await loadSession(context.database, readSessionId(request), context.env.IDLE_TIMEOUT_S)
  if (look.state !== 'active' || look.session.step !== 'done' || !look.session.facility) throw new AppError('UNAUTHENTICATED', 'Sign in first.')
  const user = await findUser(context.database, look.session.uid)
  if (!user || user.web === 'no') throw new AppError('UNAUTHENTICATED', 'Sign in first.')
  return { org: look.session.facility, user }
}
