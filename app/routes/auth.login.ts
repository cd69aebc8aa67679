/**
 * POST /auth/login {email, password} (SPEC §7): the user data with an `x-access-token` and a
 * `refresh-token`. Same rules and brute-force limits as the login form.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { checkLogin } from '../auth/accounts.server'
import { EULA_FIRST, eulaAccepted } from '../auth/flow.server'
import { loginSchema, MSG } from '../auth/rules'
import { issueRefreshToken, signAccessToken, ACCESS_TTL_S } from '../auth/tokens.server'
import { api, apiError, readJson } from '../api/respond.server'
import { issueMessage } from '../utils/zod-messages'

export const loader = () => apiError('NOT_FOUND', 'use POST /auth/login with a JSON body {email, password}')

export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    if (request.method !== 'POST') return apiError('NOT_FOUND', 'use POST')
    const parsed = loginSchema.safeParse(await readJson(request, 10_000))
    if (!parsed.success) return apiError('BAD_INPUT', issueMessage(parsed.error.issues[0]), { field: String(parsed.error.issues[0].path[0] ?? '') })
    const r = await checkLogin(context.database, parsed.data.email, parsed.data.password, context.clientIp ?? 'unknown')
    if (!r.ok) {
      if (r.reason === 'locked') return apiError('TOO_MANY', MSG.locked(r.lockMinutes ?? 1), { headers: { 'Retry-After': String((r.lockMinutes ?? 1) * 60) } })
      if (r.reason === 'noweb') return apiError('FORBIDDEN', MSG.noWeb)
      return apiError('UNAUTHENTICATED', MSG.loginFailed)
    }
    const u = r.user
    // the licence agreement applies to the API as it does to the console
    if (!(await eulaAccepted(context.database, u))) return apiError('FORBIDDEN', EULA_FIRST)
    const claims = { sub: u.uid, orig: u.uid, org: u.org, role: u.role }
    return Response.json({
      _id: u.uid,
      uid: u.uid,
      email: u.email,
      role: u.role,
      org: u.org,
      firstname: u.firstname ?? '',
      lastname: u.lastname ?? '',
      props: u.props ?? {},
      eulaip: u.eulaip ?? '',
      'x-access-token': signAccessToken(context.env.SESSION_SECRET, claims),
      'refresh-token': await issueRefreshToken(context.database, { uid: u.uid, orig: u.uid, org: u.org }),
      expiresIn: ACCESS_TTL_S,
    })
  }, context.logger)
}
