/**
 * /TeamGroups/{id}/members: who is in a team (team_groups.member_uids; messaging and policies address
 * teams). The members are picked from the facility's users as checkboxes; the field is read-only in
 * the generic form, so this page is the one place it changes (audited, the member count kept in step).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { routeEditable } from '../../records/access.server'
import { PLATFORM_ORG } from '../../route-map'
import { actorOfSession } from './form-data'
import { parseUserProps } from './rules'

async function load(request: Request, context: LoaderFunctionArgs['context'], id: string) {
  const { s, facility, screen } = await requireScreen(request, context, '/TeamGroups')
  const team = await context.database.store.get(facility, 'team_groups', id)
  if (!team) throw new Response('There is no such team in this facility.', { status: 404, statusText: 'Not found' })
  const users = (await context.database.store.find(PLATFORM_ORG, 'users', {}, 10_000))
    .filter((u) => u.IsUsed !== 'no' && u.role !== 'super')
    .filter((u) => {
      const p = parseUserProps(u.props)
      return p.ok && p.props.facilities.includes(facility)
    })
    .map((u) => ({ uid: String(u.uid ?? u._id), name: `${u.firstname ?? ''} ${u.lastname ?? ''}`.trim() || String(u.email), email: String(u.email ?? '') }))
    .sort((a, b) => a.name.localeCompare(b.name))
  // the table screen's own rule (records/access.server.ts): what it may not edit, this page may not either
  return { s, facility, team, users, editable: routeEditable(screen.route, await context.database.schemas.get('team_groups')) }
}

export async function teamMembersLoader({ request, context, params }: LoaderFunctionArgs) {
  const { team, users, editable } = await load(request, context, params.id ?? '')
  const members = Array.isArray(team.member_uids) ? (team.member_uids as string[]) : []
  return json({ id: team._id, name: String(team.name ?? team._id), members, users, editable, saved: new URL(request.url).searchParams.has('saved') })
}

export async function teamMembersAction({ request, context, params }: ActionFunctionArgs) {
  const { s, facility, team, users, editable } = await load(request, context, params.id ?? '')
  if (!editable) return json({ error: 'Teams are read-only for your account.' }, { status: 403 })
  const form = await request.formData()
  const chosen = form.getAll('member').map(String)
  const known = new Set(users.map((u) => u.uid))
  const unknown = chosen.filter((u) => !known.has(u))
  if (unknown.length) return json({ error: 'Choose members among the people of this facility.' }, { status: 400 })
  const members = [...new Set(chosen)]
  await context.database.store.update(actorOfSession(s, context.requestId), facility, 'team_groups', team._id, { member_uids: members, members: members.length })
  return redirect(`/TeamGroups/${encodeURIComponent(team._id)}/members?saved=1`)
}
