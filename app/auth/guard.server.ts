/**
 * The route guard of SPEC §2.2, in its order, run by the root loader for every page:
 * (1) type=deepLink, (2) an unknown scope → /NoDeepLink, (3) jsonData becomes the query of the
 * same path, (4) a sign-in that was not completed is cleared when the user leaves its steps,
 * (5) login status, (6) public paths are open, everything else needs a signed-in user.
 * Sign-in from the address (token, email + password, facility, kiosk) happens here too; the
 * credentials are removed from the address right after use.
 */
import { redirect } from '@remix-run/node'
import type { AppLoadContext } from '@remix-run/node'
import { checkLogin, findUser } from './accounts.server'
import { facilitiesOf, type SessionUser } from './entitlements'
import { activeOrgs, nextStep, STEP_PATH } from './flow.server'
import { loginSchema, type MessageCode } from './rules'
import { once } from '../utils/request-memo'
import { safePath } from '../utils/safe-url'
import { createSession, endSession, loadSession, readSessionId, sessionCookie, updateSession, type SessionRow } from './session.server'
import { verifyAccessToken } from './tokens.server'

// /Invitation/{token}: a new user's first password (issue 22)
export const PUBLIC_PATHS = ['/', '/Welcome', '/PasswordReset', '/Loggedout', '/EmailVerify', '/NoDeepLink', '/SignUp', '/Invitation']
export const FLOW_PATHS = Object.values(STEP_PATH)

const norm = (p: string) => (p.replace(/\/+$/, '') || '/').toLowerCase()
/** Public paths, and the pages under /PasswordReset/, /EmailVerify/ and /Invitation/ (they receive a token). */
export const isPublic = (path: string) => PUBLIC_PATHS.some((p) => norm(path) === p.toLowerCase() || (p !== '/' && norm(path).startsWith(`${p.toLowerCase()}/`)))
const isFlow = (path: string) => FLOW_PATHS.some((p) => norm(path) === p.toLowerCase())

export { safePath }

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

function clientIp(request: Request, context: AppLoadContext): string {
  return context.clientIp ?? request.headers.get('x-forwarded-for')?.split(',')[0].trim() ?? 'unknown'
}

function withQuery(path: string, q: URLSearchParams) {
  const s = q.toString()
  return s ? `${path}?${s}` : path
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
  let message: MessageCode | null = look.state === 'ended' && look.reason === 'idle' ? 'idle' : null
  if (look.state === 'ended' || (look.state === 'none' && sessionId)) {
    headers.append('Set-Cookie', sessionCookie(request, null))
    sessionId = null
  }

  // sign-in from the address: a token, or email and password; then facility and kiosk
  const addressLogin = q.has('token') || (q.has('email') && q.has('password'))
  if (addressLogin && request.method === 'GET') {
    const clean = new URLSearchParams(q)
    for (const k of ['token', 'email', 'password']) clean.delete(k)
    let user: SessionUser | null = null
    let origUid: string | undefined
    if (q.has('token')) {
      const claims = verifyAccessToken(env.SESSION_SECRET, q.get('token'))
      user = claims ? await findUser(database, claims.sub) : null
      origUid = claims?.orig
      if (!user) message = 'token'
    } else {
      const parsed = loginSchema.safeParse({ email: q.get('email'), password: q.get('password') })
      if (!parsed.success) message = 'failed'
      else {
        const r = await checkLogin(database, parsed.data.email, parsed.data.password, clientIp(request, context))
        if (r.ok) user = r.user
        else message = r.reason === 'locked' ? 'locked' : r.reason === 'noweb' ? 'noweb' : 'failed'
      }
    }
    if (user && user.web === 'no') {
      user = null
      message = 'noweb'
    } else if (user && (user as { IsUsed?: string }).IsUsed === 'no') {
      user = null
      message = 'failed'
    }
    if (!user) {
      const h = new Headers(headers)
      if (sessionId) {
        await endSession(database, sessionId, 'replaced')
        h.append('Set-Cookie', sessionCookie(request, null))
      }
      throw redirect(withQuery('/Welcome', new URLSearchParams({ msg: message ?? 'failed' })), { headers: h })
    }
    if (sessionId) await endSession(database, sessionId, 'replaced')
    const id = await startSignIn(context, request, user, { origUid, facility: q.get('facility'), kiosk: q.has('kiosk') ? q.get('kiosk') !== '0' && q.get('kiosk') !== 'false' : false })
    clean.delete('facility')
    const h = new Headers({ 'Set-Cookie': sessionCookie(request, id.id) })
    throw redirect(id.step === 'done' ? withQuery(here(url) === '/' ? '/Welcome' : here(url), clean) : STEP_PATH[id.step], { headers: h })
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
  const user = session ? await once(context, `user:${session.uid}`, () => findUser(database, session!.uid)) : null
  if (session && (!user || user.web === 'no' || (user as { IsUsed?: string }).IsUsed === 'no')) {
    await endSession(database, sessionId!, 'account disabled')
    headers.append('Set-Cookie', sessionCookie(request, null))
    throw redirect(withQuery('/Welcome', new URLSearchParams({ msg: user?.web === 'no' ? 'noweb' : 'failed' })), { headers })
  }
  // (6) public paths are open; the sign-in steps need a session; everything else a finished sign-in
  if (!isPublic(url.pathname)) {
    if (!session) {
      const back = new URLSearchParams()
      if (message) back.set('msg', message)
      else if (!isFlow(url.pathname)) back.set('redirectTo', here(url) + url.search)
      throw redirect(withQuery('/Welcome', back), { headers })
    }
    // /Facility stays open after sign-in: it is also the facility switcher
    if (isFlow(url.pathname) && session.step === 'done' && norm(url.pathname) !== '/facility') throw redirect('/Welcome', { headers })
  }
  return { user: session ? user : null, session, sessionId, message, headers }
}

/** Creates the session for a verified user and works out the first step. */
export async function startSignIn(
  context: AppLoadContext,
  request: Request,
  user: SessionUser,
  opts: { origUid?: string; facility?: string | null; kiosk?: boolean },
): Promise<{ id: string; step: SessionRow['step'] }> {
  const { database } = context
  const orgs = facilitiesOf(user, (await activeOrgs(database)).map((o) => o._id))
  const facility = opts.facility && orgs.includes(opts.facility) ? opts.facility : orgs.length === 1 ? orgs[0] : null
  const step = await nextStep(database, user, { step: 'eula', facility })
  const id = await createSession(database, {
    uid: user.uid,
    origUid: opts.origUid,
    step,
    facility,
    kiosk: opts.kiosk,
    ip: clientIp(request, context),
    userAgent: request.headers.get('user-agent') ?? undefined,
  })
  return { id, step }
}
