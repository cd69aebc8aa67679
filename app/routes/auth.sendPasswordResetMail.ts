/**
 * GET /auth/sendPasswordResetMail?email= (SPEC §7): always the same answer (SPEC §8), known email
 * or not; 429 with the reason when too many requests came from this address or for this email.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { sendPasswordReset } from '../auth/reset.server'
import { email, MSG } from '../auth/rules'
import { api, apiError } from '../api/respond.server'
import { issueMessage } from '../utils/zod-messages'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const e = email.safeParse(new URL(request.url).searchParams.get('email') ?? '')
    if (!e.success) return apiError('BAD_INPUT', issueMessage(e.error.issues[0]), { field: 'email' })
    const sent = await sendPasswordReset(context, e.data, new URL(request.url).origin)
    if (!sent.ok) return apiError('TOO_MANY', sent.message, { headers: { 'Retry-After': String(sent.retryAfterS) } })
    return Response.json({ message: MSG.resetSent })
  }, context.logger)
}
