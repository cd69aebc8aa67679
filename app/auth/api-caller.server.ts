/**
 * API authentication: every API call takes `x-access-token`. A missing, forged or expired token
 * is a 401 JSON answer (never a redirect). Returns the caller as an Actor plus the user.
 * `signedInCaller`: the calls a console page makes too (the files API, /api/openapi.json) take a
 * token or a finished console session.
 */
import type { AppLoadContext } from '@remix-run/node'
import { actingUser, findUser } from './accounts.server'
import type { SessionUser } from './entitlements'
import { loadSession, readSessionId } from './session.server'
import { verifyAccessToken, type AccessClaims } from './tokens.server'
import type { Actor } from '../db/types'
import { AppError } from '../utils/errors'

export interface ApiCaller {
  actor: Actor
  user: SessionUser
  /** the organisation the token works in */
  org: string
  claims: AccessClaims
}

export async function requireApiCaller(request: Request, context: AppLoadContext): Promise<ApiCaller> {
  const token = request.headers.get('x-access-token')
  if (!token) throw new AppError('UNAUTHENTICATED', 'send an x-access-token header (POST /auth/login gives one)')
  const claims = verifyAccessToken(context.env.SESSION_SECRET, token)
  if (!claims) throw new AppError('UNAUTHENTICATED', 'the access token is invalid or has expired; refresh it with POST /auth/refresh')
  const user = await actingUser(context.database, claims.sub, claims.orig)
  if (!user || user.web === 'no' || (user as { IsUsed?: string }).IsUsed === 'no') throw new AppError('UNAUTHENTICATED', 'the account can no longer sign in')
  return { actor: { uid: user.uid, origUid: claims.orig, role: user.role, requestId: context.requestId }, user, org: claims.org, claims }
}

/** Does this request carry an API client's token (its answers are then always the JSON error envelope)? */
export const isApiCall = (request: Request) => !!request.headers.get('x-access-token')

/**
 * A signed-in caller who may act: an API client's `x-access-token` (checked as `requireApiCaller`
 * does), else a console session whose sign-in is finished (licence agreement accepted, facility
 * chosen), of an account that may still use the web console. Throws UNAUTHENTICATED (401).
 */
export async function signedInCaller(request: Request, context: AppLoadContext): Promise<SessionUser> {
  if (isApiCall(request)) return (await requireApiCaller(request, context)).user
  const look = await loadSession(context.database, readSessionId(request), context.env.IDLE_TIMEOUT_S)
  if (look.state !== 'active' || look.session.step !== 'done') throw new AppError('UNAUTHENTICATED', 'Sign in first.')
  const user = await findUser(context.database, look.session.uid)
  if (!user || user.web === 'no') throw new AppError('UNAUTHENTICATED', 'Sign in first.')
  return user
}
