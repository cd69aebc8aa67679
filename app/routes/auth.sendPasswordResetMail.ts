/** GET /auth/sendPasswordResetMail?email= (SPEC §7): always the same answer (SPEC §8). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { sendPasswordReset } from '../auth/reset.server'
import { email, MSG } from '../auth/rules'
import { api, apiError } from '../api/respond.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const e = email.safeParse(new URL(request.url).searchParams.get('email') ?? '')
    if (!e.success) return apiError('BAD_INPUT', e.error.issues[0].message, { field: 'email' })
    await sendPasswordReset(context, e.data, new URL(request.url).origin)
    return Response.json({ message: MSG.resetSent })
  }, context.logger)
}
