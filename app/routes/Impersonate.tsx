/**
 * Super users may act as another user (to see what they see, to help them). The session keeps
 * the original user: role checks and scanning use them (SPEC §6), and every write records both.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { findUser, findUserByEmail } from '../auth/accounts.server'
import { facilitiesOf } from '../auth/entitlements'
import { activeOrgs } from '../auth/flow.server'
import { requireSession } from '../auth/require.server'
import { email } from '../auth/rules'
import { updateSession } from '../auth/session.server'

export const loader = () => redirect('/Welcome')

export async function action({ request, context }: ActionFunctionArgs) {
  const s = await requireSession(request, context)
  const original = await findUser(context.database, s.session.orig_uid)
  if (original?.role !== 'super') return json({ error: 'Only super users can act as another user.' }, { status: 403 })
  const form = await request.formData()
  if (form.get('intent') === 'stop') {
    await updateSession(context.database, s.id, { uid: original.uid })
    context.logger.info({ orig: original.uid, was: s.user.uid }, 'impersonation ended')
    return redirect('/Welcome')
  }
  const e = email.safeParse(form.get('email') ?? '')
  const target = e.success ? await findUserByEmail(context.database, e.data) : null
  if (!target) return json({ error: 'No user has that email address.' }, { status: 404 })
  const orgs = facilitiesOf(target, (await activeOrgs(context.database)).map((o) => o._id))
  const facility = s.session.facility && orgs.includes(s.session.facility) ? s.session.facility : (orgs[0] ?? null)
  await updateSession(context.database, s.id, { uid: target.uid, facility })
  context.logger.info({ orig: original.uid, as: target.uid }, 'impersonation started')
  return redirect('/Welcome')
}
