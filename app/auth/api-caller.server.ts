/**
 * API authentication: every API call takes `x-access-token`. A missing, forged or expired token
 * is a 401 JSON answer (never a redirect). Returns the caller as an Actor plus the user.
 */
import type { AppLoadContext } from '@remix-run/node'
import { actingUser } from './accounts.server'
import type { SessionUser } from './entitlements'
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
