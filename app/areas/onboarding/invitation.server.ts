/** /Invitation/{token}: an invited user chooses a first password (single use, expiring; SPEC §5 rules). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { acceptInvite, checkInvite } from './invitations.server'
import { failedPasswordRules, setPasswordForm } from './rules'
import { fieldErrors } from '../../utils/form'

const GONE = {
  used: 'This invitation has already been used. If you chose your password, login; otherwise reset it from the login page.',
  expired: 'This invitation has expired. Ask your administrator to send a new one.',
  revoked: 'This invitation was withdrawn. Ask your administrator if you should have access.',
  unknown: 'This invitation link is not valid. Check that you opened the whole link from the mail.',
} as const

export async function invitationLoader({ params, context }: LoaderFunctionArgs) {
  const t = await checkInvite(context.database.db, params.token ?? '', false)
  return json({ problem: t.ok ? null : GONE[t.reason], email: t.ok ? t.email : null })
}

export async function invitationAction({ params, request, context }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData())
  const parsed = setPasswordForm.safeParse(form)
  if (!parsed.success) {
    return json({ errors: fieldErrors(parsed.error), failed: failedPasswordRules(String(form.password ?? '')).map((r) => r.id) as string[], problem: null }, { status: 400 })
  }
  const t = await acceptInvite(context.database, params.token ?? '', parsed.data.password, context.requestId)
  if (!t.ok) return json({ errors: {} as Record<string, string>, failed: [] as string[], problem: GONE[t.reason] }, { status: 410 })
  context.logger.info({ uid: t.uid }, 'invitation accepted: first password set')
  return redirect('/Welcome?msg=invited')
}
