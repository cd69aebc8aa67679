/**
 * GET /misc/switchorg?org= (SPEC §7, auth server): tokens for another facility the caller may
 * enter (super: any). The new tokens keep the user and the original user (impersonation); the
 * refresh token starts a new family. SPEC defines this as a GET; it only hands out tokens.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApiCaller } from '../auth/api-caller.server'
import { api } from '../api/respond.server'
import { facilitiesOf } from '../auth/entitlements'
import { ACCESS_TTL_S, issueRefreshToken, signAccessToken } from '../auth/tokens.server'
import { isCollectionName } from '../db/sql'
import { PLATFORM_ORG } from '../route-map'
import { AppError, forbidden } from '../utils/errors'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const caller = await requireApiCaller(request, context)
    const org = new URL(request.url).searchParams.get('org') ?? ''
    if (!org || org.length > 64 || !isCollectionName(org)) throw new AppError('BAD_INPUT', 'org: name the facility to switch to, e.g. ?org=greenleaf', { field: 'org' })
    const orgs = (await context.database.store.find(PLATFORM_ORG, 'org', {}, 1000)).map((o) => o._id)
    if (!facilitiesOf(caller.user, orgs).includes(org)) throw forbidden('Your account may not enter that facility.')
    const claims = { sub: caller.user.uid, orig: caller.claims.orig, org, role: caller.user.role }
    return Response.json({
      org,
      'x-access-token': signAccessToken(context.env.SESSION_SECRET, claims),
      'refresh-token': await issueRefreshToken(context.database, { uid: claims.sub, orig: claims.orig, org }),
      expiresIn: ACCESS_TTL_S,
    })
  }, context.logger)
}

export const action = () => Response.json({ errors: [{ code: 'NOT_ALLOWED', message: 'use GET /misc/switchorg?org=' }] }, { status: 405 })
