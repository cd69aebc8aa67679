/** The users screens (/SupUsers for super, /Users for a facility's admins): list, invite, edit rights, disable. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { canSeeRoute } from '../../auth/entitlements'
import { findRoute, MODULES } from '../../route-map'
import { actorOfSession, formObject } from './form-data'
import { hasPassword, inviteStatuses } from './invitations.server'
import { gridFromForm, parseUserProps, userFormSchema } from './rules'
import { inviteUser, listUsers, managerOf, mayManage, resendInvite, revokeInvite, setEnabled, updateUser, userDoc } from './users.server'
import { issueMessage } from '../../utils/zod-messages'

export type UsersBase = '/SupUsers' | '/Users'

async function managerFor(request: Request, context: LoaderFunctionArgs['context'], base: UsersBase) {
  const { s } = await requireScreen(request, context, base)
  const m = await managerOf(context, s.user)
  if (!m) throw new Response('Your account does not administer a facility.', { status: 403, statusText: 'Not allowed' })
  return { s, m }
}

export const usersListLoader =
  (base: UsersBase) =>
  async ({ request, context }: LoaderFunctionArgs) => {
    const { s, m } = await managerFor(request, context, base)
    const url = new URL(request.url)
    // the facility's teams (their members are edited at /TeamGroups/{id}/members), when the user may open Teams
    const facility = s.session.facility ?? ''
    const teamsRoute = findRoute('/TeamGroups')
    const teams = facility && teamsRoute && canSeeRoute(s.user, facility, teamsRoute) ? (await context.database.store.find(facility, 'team_groups', {}, 200)).map((t) => ({ id: t._id, name: String(t.name ?? t._id), members: Array.isArray(t.member_uids) ? t.member_uids.length : 0 })) : []
    return json({ base, rows: await listUsers(context, m), facilities: m.facilities.map((f) => ({ org: f.org, fullName: f.fullName })), teams, notice: url.searchParams.get('done') })
  }

export const userEditLoader =
  (base: UsersBase) =>
  async ({ request, context, params }: LoaderFunctionArgs) => {
    const { m } = await managerFor(request, context, base)
    const uid = params.uid ?? 'new'
    const modules = MODULES.map((x) => ({ code: x.code as string, name: x.name as string }))
    const facilities = m.facilities.map((f) => ({ org: f.org, fullName: f.fullName, grantable: f.grantable as string[] }))
    if (uid === 'new') return json({ base, uid: null, user: null, modules, facilities, notice: null as string | null })
    const u = await userDoc(context, uid)
    if (!u) throw new Response('There is no user with that id.', { status: 404, statusText: 'Not found' })
    if (!mayManage(m, u)) throw new Response('You may not manage this user.', { status: 403, statusText: 'Not allowed' })
    const props = parseUserProps(u.props)
    const inv = (await inviteStatuses(context.database, [uid])).get(uid)
    return json({
      base,
      uid,
      user: {
        email: String(u.email ?? ''), firstname: String(u.firstname ?? ''), lastname: String(u.lastname ?? ''), role: String(u.role ?? 'user'), web: String(u.web ?? 'yes'),
        disabled: u.IsUsed === 'no', password: await hasPassword(context.database, uid), invite: inv?.state ?? 'none', modules: props.ok ? props.props.modules : {}, self: uid === m.user.uid,
      },
      modules,
      facilities,
      notice: new URL(request.url).searchParams.get('done'),
    })
  }

export const userEditAction =
  (base: UsersBase) =>
  async ({ request, context, params }: ActionFunctionArgs) => {
    const { s, m } = await managerFor(request, context, base)
    const actor = actorOfSession(s, context.requestId)
    const uid = params.uid ?? 'new'
    const form = await request.formData()
    const intent = String(form.get('intent') ?? 'save')
    const origin = new URL(request.url).origin
    const back = (msg: string) => redirect(`${base}/${encodeURIComponent(uid)}?done=${encodeURIComponent(msg)}`)
    if (intent !== 'save') {
      if (uid === 'new') return json({ errors: { form: 'Save the user first' }, values: {} }, { status: 400 })
      const r =
        intent === 'disable' ? await setEnabled(context, actor, m, uid, false)
        : intent === 'enable' ? await setEnabled(context, actor, m, uid, true)
        : intent === 'resend' ? await resendInvite(context, m, uid, origin)
        : intent === 'revoke' ? await revokeInvite(context, m, uid)
        : ({ ok: false, status: 400, message: 'Unknown action' } as const)
      if (!r.ok) return json({ errors: { form: r.message } as Record<string, string>, values: {} }, { status: r.status })
      return back(r.message)
    }
    const values = formObject(form)
    const parsed = userFormSchema.safeParse(values)
    if (!parsed.success) {
      const errors: Record<string, string> = {}
      for (const i of parsed.error.issues) errors[String(i.path[0] ?? 'form')] ??= issueMessage(i)
      return json({ errors, values }, { status: 400 })
    }
    const input = { ...parsed.data, grid: gridFromForm(form.entries()) }
    const r = uid === 'new' ? await inviteUser(context, actor, m, input, origin) : await updateUser(context, actor, m, uid, input)
    if (!r.ok) return json({ errors: r.errors, values }, { status: r.status })
    if (uid === 'new') {
      const msg = r.mailed ? `Invitation sent to ${input.email}.` : `${input.email} was created, but the invitation could not be mailed: use Resend invitation.`
      return redirect(`${base}/${encodeURIComponent(r.uid)}?done=${encodeURIComponent(msg)}`)
    }
    return back('Saved.')
  }
