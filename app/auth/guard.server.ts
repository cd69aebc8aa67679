/**
 * The route guard of SPEC §2.2, in its order, run by the root loader for every page:
 * (1) type=deepLink, (2) an unknown scope → /NoDeepLink, (3) jsonData becomes the query of the
 * same path, (4) a sign-in that was not completed is cleared when the user leaves its steps,
 * (5) login status, (6) public paths are open, everything else needs a signed-in user.
 * Sign-in from the address (token, email + password, facility, kiosk) happens here too
 * (address-sign-in.server.ts); the credentials are removed from the address right after use. A
 * sign-in link that another site opened asks first (/LinkSignIn, link-question.server.ts).
 */
import { redirect } from '@remix-run/node'
import type { AppLoadContext } from '@remix-run/node'
import { actingUser } from './accounts.server'
import { fromOtherSite, isAddressSignIn, signInByAddress, startSignIn, withQuery } from './address-sign-in.server'
import { facilitiesOf, type SessionUser } from './entitlements'
import { activeOrgs, STEP_PATH } from './flow.server'
import { askFirst, QUESTION_PATH } from './link-question.server'
import { type MessageCode } from './rules'
import { once } from '../utils/request-memo'
import { safePath } from '../utils/safe-url'
import { endSession, loadSession, readSessionId, sessionCookie, updateSession, type SessionRow } from './session.server'

// /Invitation/{token}: a new user's first password (issue 22); /LinkSignIn: a sign-in link from another site asks first (issue 20);
// /Unsubscribe/{token}: a campaign mail's unsubscribe link (issue 27, app/areas/campaigns)
export const PUBLIC_PATHS = ['/', '/Welcome', '/PasswordReset', '/Loggedout', '/EmailVerify', '/NoDeepLink', '/SignUp', '/Invitation', '/Unsubscribe', QUESTION_PATH]
export const FLOW_PATHS = Object.values(STEP_PATH)

const norm = (p: string) => (p.replace(/\/+$/, '') || '/').toLowerCase()
/** Public paths, and the pages under /PasswordReset/, /EmailVerify/ and /Invitation/ (they receive a token). */
export const isPublic = (path: string) => PUBLIC_PATHS.some((p) => norm(path) === p.toLowerCase() || (p !== '/' && norm(path).startsWith(`${p.toLowerCase()}/`)))
const isFlow = (path: string) => FLOW_PATHS.some((p) => norm(path) === p.toLowerCase())

export { safePath, startSignIn }
/** the words of a guard's (or a `msg=`'s) message code, for the root loader: through this server module the
 * browser's root chunk does not import auth/messages (decision 071) */
export { messageFor } from './messages'

/** This request's own path as a redirect target: `//host` as a request path must not become a link to another site. */
const here = (url: URL) => safePath(url.pathname) ?? '/'

export interface GuardResult {
  user: SessionUser | null
  session: SessionRow | null
  sessionId: string | null
  /** a message code for the login view (idle logout, failed address login, ...) */
  message: MessageCode | null
  headers: Headers
}

export async function guard(request: Request, context: AppLoadContext): Promise<GuardResult> {
  const url = new URL(request.url)
  const q = url.searchParams
  const { database, env } = context

  // (1) deep links: go to the named internal path inside the app
  if (q.get('type') === 'deepLink') {
    const scope = q.get('scope')
    if (scope && scope !== 'all' && scope !== 'web') throw redirect('/NoDeepLink')
    const target = safePath(q.get('path')) ?? here(url)
    const rest = new URLSearchParams(q)
    for (const k of ['type', 'scope', 'path']) rest.delete(k)
    throw redirect(withQuery(target, rest))
  }
  // (2) a scope other than all or web is not for this app
  const scope = q.get('scope')
  if (scope && scope !== 'all' && scope !== 'web') throw redirect('/NoDeepLink')
  // (3) jsonData: its JSON object becomes the query of the same path
  if (q.has('jsonData')) {
    let data: unknown
    try {
      data = JSON.parse(q.get('jsonData') ?? '')
    } catch {
      data = undefined
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      throw new Response('The jsonData in the address is not a JSON object, so the link cannot be opened. Check the link you were given.', { status: 400, statusText: 'Bad link' })
    }
    const next = new URLSearchParams(q)
    next.delete('jsonData')
    for (const [k, v] of Object.entries(data as Record<string, unknown>)) next.set(k, typeof v === 'string' ? v : JSON.stringify(v))
    throw redirect(withQuery(here(url), next))
  }

  const headers = new Headers()
  let sessionId = readSessionId(request)
  const look = await once(context, `session:${sessionId}`, () => loadSession(database, sessionId, env.IDLE_TIMEOUT_S))
  let session = look.state === 'active' ? look.session : null
  const message: MessageCode | null = look.state === 'ended' && look.reason === 'idle' ? 'idle' : null
  if (look.state === 'ended' || (look.state === 'none' && sessionId)) {
    headers.append('Set-Cookie', sessionCookie(request, null))
    sessionId = null
  }

  // sign-in from the address: a token, or email and password; then facility and kiosk. A link
  // from another site asks first (/LinkSignIn, issue 20 item 7): it must not replace the session unseen.
  if (isAddressSignIn(q) && request.method === 'GET') {
    if (fromOtherSite(request)) throw askFirst(request, env.SESSION_SECRET, { path: here(url), query: q }, headers)
    throw await signInByAddress(context, request, { path: here(url), query: q, sessionId, headers })
  }

  // kiosk on/off from the address survives navigation (stored on the session)
  if (session && sessionId && q.has('kiosk')) {
    const kiosk = q.get('kiosk') !== '0' && q.get('kiosk') !== 'false'
    if (kiosk !== session.kiosk) {
      await updateSession(database, sessionId, { kiosk })
      session = { ...session, kiosk }
    }
  }

  // (4) an unfinished sign-in is cleared when the user leaves its steps. Only a page
  // navigation or a data request counts: a stray image or icon request must not end it.
  const dest = request.headers.get('sec-fetch-dest')
  const incidental = dest !== null && !['document', 'empty', 'iframe'].includes(dest)
  if (session && sessionId && session.step !== 'done' && !isFlow(url.pathname) && !isPublic(url.pathname)) {
    if (incidental) throw new Response('Not found', { status: 404 })
    await endSession(database, sessionId, 'abandoned sign-in')
    headers.append('Set-Cookie', sessionCookie(request, null))
    session = null
    sessionId = null
  }
  // (5) login status
  const user = session ? await once(context, `user:${session.uid}:${session.orig_uid}`, () => actingUser(database, session!.uid, session!.orig_uid)) : null
  if (session && (!user || user.web === 'no' || (user as { IsUsed?: string }).IsUsed === 'no')) {
    await endSession(database, sessionId!, 'account disabled')
    headers.append('Set-Cookie', sessionCookie(request, null))
    throw redirect(withQuery('/Welcome', new URLSearchParams({ msg: user?.web === 'no' ? 'noweb' : 'failed' })), { headers })
  }
  // a link names its facility (`facility=`, issue 32): a signed-in user who works there is switched
  // to it, so a Greenleaf link never shows another facility's table; one who does not is told so
  const wanted = q.get('facility')
  if (wanted && session && sessionId && user && session.step === 'done' && wanted !== session.facility && request.method === 'GET' && !isFlow(url.pathname) && !isPublic(url.pathname)) {
    const orgs = facilitiesOf(user, (await activeOrgs(database)).map((o) => o._id))
    if (!orgs.includes(wanted)) throw new Response('This link is for a facility your account cannot open. Ask the person who sent it, or your administrator for access.', { status: 403, statusText: 'Not your facility' })
    await updateSession(database, sessionId, { facility: wanted })
    // the page's own loader reads the session beside this one: load the address again, in the new facility
    const again = new URLSearchParams(q)
    again.delete('_data')
    throw redirect(withQuery(url.pathname, again), { headers })
  }
  // (6) public paths are open; the sign-in steps need a session; everything else a finished sign-in
  if (!isPublic(url.pathname)) {
    if (!session) {
      const back = new URLSearchParams()
      if (message) back.set('msg', message)
      // signed out for idleness too: signing in again brings the person back to where they were (issue 32 item 7)
      if (!isFlow(url.pathname)) back.set('redirectTo', here(url) + url.search)
      throw redirect(withQuery('/Welcome', back), { headers })
    }
    // /Facility stays open after sign-in: it is also the facility switcher
    if (isFlow(url.pathname) && session.step === 'done' && norm(url.pathname) !== '/facility') throw redirect('/Welcome', { headers })
  }
  return { user: session ? user : null, session, sessionId, message, headers }
}
