/**
 * Sign-in from the address (SPEC §2.2: token, email with password, facility, kiosk): the guard
 * runs it for a GET that carries credentials, and /LinkSignIn runs it when the user confirms a
 * link that came from another site (issue 20 item 7). The credentials never go further than this:
 * the answer is a redirect to the same page without them.
 */
import { redirect } from '@remix-run/node'
import type { AppLoadContext } from '@remix-run/node'
import { checkLogin, findUser } from './accounts.server'
import { facilitiesOf, type SessionUser } from './entitlements'
import { activeOrgs, nextStep, STEP_PATH } from './flow.server'
import { loginSchema, type MessageCode } from './rules'
import { createSession, endSession, sessionCookie, type SessionRow } from './session.server'
import { verifyAccessToken } from './tokens.server'

/** The query parameters that sign in from the address; they are removed from it after use. */
export const CREDENTIAL_PARAMS = ['token', 'email', 'password'] as const

/** Whether an address asks to sign in (a token, or an email with a password). */
export const isAddressSignIn = (q: URLSearchParams) => q.has('token') || (q.has('email') && q.has('password'))

/**
 * Whether the browser says this request was started by another site (a link, a form or a script
 * there): Sec-Fetch-Site `cross-site` or `same-site` (another host of the same site, another port).
 * `same-origin` is Canopy's own page, `none` an address typed or a bookmark; no header at all is an
 * old browser or a script (curl), which get the sign-in as before.
 */
export function fromOtherSite(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site')
  return site === 'cross-site' || site === 'same-site'
}

export function clientIp(request: Request, context: AppLoadContext): string {
  return context.clientIp ?? request.headers.get('x-forwarded-for')?.split(',')[0].trim() ?? 'unknown'
}

export function withQuery(path: string, q: URLSearchParams) {
  const s = q.toString()
  return s ? `${path}?${s}` : path
}

/** The address without its credentials: where a sign-in (or a refusal to sign in) goes on to. */
export function withoutCredentials(path: string, q: URLSearchParams): string {
  const clean = new URLSearchParams(q)
  for (const k of CREDENTIAL_PARAMS) clean.delete(k)
  clean.delete('_data')
  return withQuery(path === '/' ? '/Welcome' : path, clean)
}

/**
 * Signs in with the credentials of an address and answers the redirect to send: the first sign-in
 * step, or the same page without the credentials; a refusal ends the current session and goes to
 * the login view with its message. `path` is a safe path of this site (the caller checked it);
 * `sessionId` the current session, which a sign-in replaces.
 */
export async function signInByAddress(context: AppLoadContext, request: Request, at: { path: string; query: URLSearchParams; sessionId: string | null; headers?: Headers }): Promise<Response> {
  const { database, env } = context
  const q = at.query
  let message: MessageCode | null = null
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
    const h = new Headers(at.headers)
    if (at.sessionId) {
      await endSession(database, at.sessionId, 'replaced')
      h.append('Set-Cookie', sessionCookie(request, null))
    }
    return redirect(withQuery('/Welcome', new URLSearchParams({ msg: message ?? 'failed' })), { headers: h })
  }
  if (at.sessionId) await endSession(database, at.sessionId, 'replaced')
  const id = await startSignIn(context, request, user, { origUid, facility: q.get('facility'), kiosk: q.has('kiosk') ? q.get('kiosk') !== '0' && q.get('kiosk') !== 'false' : false })
  const rest = new URLSearchParams(q)
  rest.delete('facility')
  const h = new Headers({ 'Set-Cookie': sessionCookie(request, id.id) })
  return redirect(id.step === 'done' ? withoutCredentials(at.path, rest) : STEP_PATH[id.step], { headers: h })
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
