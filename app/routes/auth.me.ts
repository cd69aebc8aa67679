/** GET /auth/me: who the access token belongs to (a quick check for API clients and devices). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApiCaller } from '../auth/api-caller.server'
import { api } from '../api/respond.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const c = await requireApiCaller(request, context)
    return Response.json({ uid: c.user.uid, email: c.user.email, role: c.user.role, org: c.org, origUid: c.claims.orig, expires: new Date(c.claims.exp * 1000).toISOString() })
  }, context.logger)
}
