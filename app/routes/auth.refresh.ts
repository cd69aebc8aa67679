/** POST /auth/refresh {refresh-token}: a new access token and a new refresh token (rotation). */
import type { ActionFunctionArgs } from '@remix-run/node'
import { findUser } from '../auth/accounts.server'
import { EULA_FIRST, eulaAccepted } from '../auth/flow.server'
import { refreshBody } from '../auth/rules'
import { ACCESS_TTL_S, rotateRefreshToken, signAccessToken } from '../auth/tokens.server'
import { api, apiError, readJson } from '../api/respond.server'

const WHY = { unknown: 'the refresh token is not valid', expired: 'the refresh token has expired', revoked: 'the refresh token was revoked', reused: 'the refresh token was already used; every token of this sign-in has been revoked' }

export const loader = () => apiError('NOT_FOUND', 'use POST /auth/refresh with a JSON body {"refresh-token": ...}')

export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    const parsed = refreshBody.safeParse(await readJson(request, 10_000))
    if (!parsed.success) return apiError('BAD_INPUT', 'send {"refresh-token": "<token>"}', { field: 'refresh-token' })
    const r = await rotateRefreshToken(context.database, parsed.data['refresh-token'])
    if (!r.ok) {
      if (r.reason === 'reused') context.logger.warn({ reason: r.reason }, 'refresh token reuse: family revoked')
      return apiError('UNAUTHENTICATED', WHY[r.reason])
    }
    const user = await findUser(context.database, r.uid)
    if (!user || user.web === 'no' || (user as { IsUsed?: string }).IsUsed === 'no') return apiError('UNAUTHENTICATED', 'the account can no longer sign in')
    if (!(await eulaAccepted(context.database, user))) return apiError('FORBIDDEN', EULA_FIRST)
    return Response.json({
      'x-access-token': signAccessToken(context.env.SESSION_SECRET, { sub: r.uid, orig: r.orig, org: r.org, role: user.role }),
      'refresh-token': r.refreshToken,
      expiresIn: ACCESS_TTL_S,
    })
  }, context.logger)
}
