/**
 * Users and their rights: who may manage whom (super: everyone; a facility admin: the users of the
 * facilities they administer, never a super), what they may grant (super: the modules of the
 * facility's plan; an admin: only the modules they hold there), create with an invitation, edit,
 * disable (every session, refresh token and open invitation ends at once) and re-enable.
 */
import type { AppLoadContext } from '@remix-run/node'
import { findUserByEmail } from '../../auth/accounts.server'
import { modulesOf, type SessionUser } from '../../auth/entitlements'
import { activeOrgs } from '../../auth/flow.server'
import { endUserSessions } from '../../auth/session.server'
import type { Actor, Doc } from '../../db/types'
import { MODULES, PLATFORM_ORG, type ModuleCode } from '../../route-map'
import { newId } from '../../utils/ids'
import { hasPassword, inviteStatuses, issueInvite, revokeInvites, sendInviteMail } from './invitations.server'
import { MODULE_CODES, parseUserProps, type UserProps } from './rules'
import { insertInTx } from './tx.server'

export interface FacilityRights {
  org: string
  fullName: string
  /** modules this manager may grant here */
  grantable: ModuleCode[]
}

export interface Manager {
  user: SessionUser
  isSuper: boolean
  /** facilities whose users this manager looks after, with what may be granted in each */
  facilities: FacilityRights[]
}

/** The manager's scope; null when the user manages nobody. */
export async function managerOf(context: AppLoadContext, user: SessionUser): Promise<Manager | null> {
  if (user.role !== 'super' && user.role !== 'admin') return null
  const orgs = (await activeOrgs(context.database)).filter((o) => o._id !== 'lobby')
  const docs = new Map((await context.database.store.find(PLATFORM_ORG, 'org', {}, 5000)).map((o) => [o._id, o]))
  const planOf = (org: string): ModuleCode[] => {
    const m = docs.get(org)?.modules
    return Array.isArray(m) && m.length ? MODULE_CODES.filter((c) => (m as string[]).includes(c)) : [...MODULE_CODES]
  }
  if (user.role === 'super') return { user, isSuper: true, facilities: orgs.map((o) => ({ org: o._id, fullName: o.fullName, grantable: planOf(o._id) })) }
  const mine = parseUserProps(user.props)
  const listed = mine.ok ? mine.props.facilities : []
  const facilities = orgs.filter((o) => listed.includes(o._id)).map((o) => ({ org: o._id, fullName: o.fullName, grantable: modulesOf(user, o._id).filter((c) => planOf(o._id).includes(c)) }))
  return facilities.length ? { user, isSuper: false, facilities } : null
}

const facilitiesOfDoc = (u: Doc | SessionUser): string[] => {
  const p = parseUserProps((u as { props?: unknown }).props)
  return p.ok ? p.props.facilities : []
}

/** May this manager see and change this user? */
export function mayManage(m: Manager, u: Doc | SessionUser): boolean {
  if (m.isSuper) return true
  if (u.role === 'super') return false
  const fs = facilitiesOfDoc(u)
  const mine = m.facilities.map((f) => f.org)
  return fs.length > 0 && fs.every((f) => mine.includes(f))
}

export type UserRow = { uid: string; id: string; email: string; name: string; role: string; facilities: string[]; status: 'active' | 'invited' | 'invite expired' | 'no password' | 'disabled'; web: string }

export async function listUsers(context: AppLoadContext, m: Manager): Promise<UserRow[]> {
  const all = await context.database.store.find(PLATFORM_ORG, 'users', {}, 10_000)
  const mine = all.filter((u) => mayManage(m, u))
  const invites = await inviteStatuses(context.database, mine.map((u) => String(u.uid ?? u._id)))
  const withPw = new Set(
    (await context.database.db.query<{ uid: string }>('SELECT uid FROM auth_passwords WHERE uid = ANY($1)', [mine.map((u) => String(u.uid ?? u._id))])).rows.map((r) => r.uid),
  )
  return mine
    .map((u): UserRow => {
      const uid = String(u.uid ?? u._id)
      const inv = invites.get(uid)
      const status = u.IsUsed === 'no' ? 'disabled' : withPw.has(uid) ? 'active' : inv?.state === 'open' ? 'invited' : inv?.state === 'expired' ? 'invite expired' : 'no password'
      return { uid, id: u._id, email: String(u.email ?? ''), name: `${u.firstname ?? ''} ${u.lastname ?? ''}`.trim(), role: String(u.role ?? ''), facilities: facilitiesOfDoc(u), status, web: String(u.web ?? 'yes') }
    })
    .sort((a, b) => a.email.localeCompare(b.email))
}

export async function userDoc(context: AppLoadContext, uid: string): Promise<Doc | null> {
  const [u] = await context.database.store.find(PLATFORM_ORG, 'users', { uid }, 1)
  return u ?? (await context.database.store.get(PLATFORM_ORG, 'users', uid))
}

export interface UserInput {
  firstname: string
  lastname: string
  email: string
  role: 'user' | 'admin'
  web: 'yes' | 'no'
  grid: Record<string, ModuleCode[]>
}

export type SaveResult = { ok: true; uid: string; invited: boolean; mailed: boolean } | { ok: false; status: 400 | 403 | 404; errors: Record<string, string> }

/** What the grid grants, checked against what this manager may grant; the props to store. */
export function grantedProps(m: Manager, grid: Record<string, ModuleCode[]>, keep?: UserProps): { ok: true; props: UserProps } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  const facilities: string[] = []
  const modules: Record<string, ModuleCode[]> = {}
  for (const [org, codes] of Object.entries(grid)) {
    const f = m.facilities.find((x) => x.org === org)
    if (!f) {
      errors.grid = `You do not administer ${org}, so you cannot give access to it`
      continue
    }
    const beyond = codes.filter((c) => !f.grantable.includes(c))
    if (beyond.length) {
      errors.grid = `You cannot grant ${beyond.map((c) => MODULES.find((x) => x.code === c)?.name ?? c).join(', ')} in ${f.fullName}: ${m.isSuper ? 'the facility’s plan does not include it' : 'you do not hold it there yourself'}`
      continue
    }
    if (codes.length) {
      facilities.push(org)
      modules[org] = [...new Set(codes)]
    }
  }
  // facilities outside this manager's scope that the user already had stay as they were (super sees all, so only an admin keeps them)
  if (keep && !m.isSuper) {
    for (const f of keep.facilities) if (!m.facilities.some((x) => x.org === f) && !facilities.includes(f)) {
      facilities.push(f)
      if (f in keep.modules) modules[f] = keep.modules[f] as ModuleCode[]
    }
  }
  if (!errors.grid && !facilities.length) errors.grid = 'Give access to at least one module in one facility'
  if (Object.keys(errors).length) return { ok: false, errors }
  return { ok: true, props: { facilities, modules, ...(keep?.roles ? { roles: keep.roles } : {}) } }
}

export async function inviteUser(context: AppLoadContext, actor: Actor, m: Manager, input: UserInput, origin: string): Promise<SaveResult> {
  if (input.role === 'admin' && !m.isSuper && !m.facilities.length) return { ok: false, status: 403, errors: { role: 'You may not create admins' } }
  const g = grantedProps(m, input.grid)
  if (!g.ok) return { ok: false, status: Object.values(g.errors).some((e) => e.startsWith('You')) ? 403 : 400, errors: g.errors }
  if (await findUserByEmail(context.database, input.email)) return { ok: false, status: 400, errors: { email: `A user with the address ${input.email} already exists` } }
  const uid = `u-${newId()}`
  const home = g.props.facilities[0]
  let token = ''
  await context.database.db.transaction(async (tx) => {
    await insertInTx(tx, actor, PLATFORM_ORG, 'users', uid, { uid, email: input.email, role: input.role, org: home, firstname: input.firstname, lastname: input.lastname, props: g.props, web: input.web, emailVerified: 'no', eulaip: '', IsUsed: 'yes' })
    token = await issueInvite(tx, uid, input.email)
  })
  context.database.store.emit({ org: PLATFORM_ORG, collection: 'users', id: uid, action: 'insert', uid: actor.uid, session: actor.session })
  const mailed = await mailInvite(context, m, { uid, email: input.email, firstname: input.firstname, facility: home }, token, origin)
  return { ok: true, uid, invited: true, mailed }
}

async function mailInvite(context: AppLoadContext, m: Manager, u: { uid: string; email: string; firstname: string; facility: string }, token: string, origin: string): Promise<boolean> {
  const facility = m.facilities.find((f) => f.org === u.facility)?.fullName ?? u.facility
  try {
    await sendInviteMail(context, { to: u.email, firstname: u.firstname, facility, inviter: `${m.user.firstname ?? ''} ${m.user.lastname ?? ''}`.trim() || m.user.email, token, origin })
    return true
  } catch (err) {
    context.logger.error({ err, to: u.email }, 'the invitation mail could not be sent')
    return false
  }
}

export async function updateUser(context: AppLoadContext, actor: Actor, m: Manager, uid: string, input: UserInput): Promise<SaveResult> {
  const u = await userDoc(context, uid)
  if (!u) return { ok: false, status: 404, errors: { form: 'That user no longer exists' } }
  if (!mayManage(m, u)) return { ok: false, status: 403, errors: { form: 'You may not manage this user' } }
  if (u.role === 'super') return { ok: false, status: 403, errors: { form: 'A super user’s rights are not edited here' } }
  const keep = parseUserProps(u.props)
  const g = grantedProps(m, input.grid, keep.ok ? keep.props : undefined)
  if (!g.ok) return { ok: false, status: Object.values(g.errors).some((e) => e.startsWith('You')) ? 403 : 400, errors: g.errors }
  const other = await findUserByEmail(context.database, input.email)
  if (other && other.uid !== uid) return { ok: false, status: 400, errors: { email: `A user with the address ${input.email} already exists` } }
  if (uid === m.user.uid && input.role !== m.user.role) return { ok: false, status: 400, errors: { role: 'You cannot change your own role' } }
  const changed = input.email !== u.email
  await context.database.store.update(actor, PLATFORM_ORG, 'users', u._id, {
    firstname: input.firstname, lastname: input.lastname, email: input.email, role: input.role, web: input.web, props: g.props,
    ...(changed ? { emailVerified: 'no' } : {}), ...(g.props.facilities.includes(String(u.org)) ? {} : { org: g.props.facilities[0] }),
  })
  // web access taken away: the console sessions end now (API tokens keep working: that is what such accounts are for)
  if (input.web === 'no' && u.web !== 'no') await endUserSessions(context.database, uid, 'web access removed')
  return { ok: true, uid, invited: false, mailed: false }
}

export type ActionResult = { ok: true; message: string } | { ok: false; status: 400 | 403 | 404; message: string }

/** Disable or re-enable: disabling ends every session, refresh token and open invitation at once. */
export async function setEnabled(context: AppLoadContext, actor: Actor, m: Manager, uid: string, enabled: boolean): Promise<ActionResult> {
  const u = await userDoc(context, uid)
  if (!u) return { ok: false, status: 404, message: 'That user no longer exists' }
  if (!mayManage(m, u)) return { ok: false, status: 403, message: 'You may not manage this user' }
  if (uid === m.user.uid || uid === actor.origUid) return { ok: false, status: 400, message: 'You cannot disable your own account' }
  if (enabled) {
    await context.database.store.update(actor, PLATFORM_ORG, 'users', u._id, { IsUsed: 'yes' })
    return { ok: true, message: `${u.email} can sign in again.` }
  }
  await context.database.store.update(actor, PLATFORM_ORG, 'users', u._id, { IsUsed: 'no' })
  await endUserSessions(context.database, uid, 'account disabled')
  await context.database.db.query('UPDATE auth_refresh_tokens SET revoked_at = now() WHERE uid = $1 AND revoked_at IS NULL', [uid])
  await revokeInvites(context.database.db, uid)
  context.logger.info({ uid, by: actor.uid }, 'user disabled: sessions, tokens and invitations ended')
  return { ok: true, message: `${u.email} is disabled: signed out everywhere, API tokens refused.` }
}

export async function resendInvite(context: AppLoadContext, m: Manager, uid: string, origin: string): Promise<ActionResult> {
  const u = await userDoc(context, uid)
  if (!u) return { ok: false, status: 404, message: 'That user no longer exists' }
  if (!mayManage(m, u)) return { ok: false, status: 403, message: 'You may not manage this user' }
  if (u.IsUsed === 'no') return { ok: false, status: 400, message: 'Enable the user before inviting them again' }
  if (await hasPassword(context.database, uid)) return { ok: false, status: 400, message: 'This user has already chosen a password; they can reset it from the login page' }
  const token = await issueInvite(context.database.db, uid, String(u.email))
  const mailed = await mailInvite(context, m, { uid, email: String(u.email), firstname: String(u.firstname ?? ''), facility: facilitiesOfDoc(u)[0] ?? '' }, token, origin)
  return mailed ? { ok: true, message: `A new invitation was sent to ${u.email}; the old link no longer works.` } : { ok: false, status: 400, message: 'The invitation could not be mailed; check the mail settings and try again' }
}

export async function revokeInvite(context: AppLoadContext, m: Manager, uid: string): Promise<ActionResult> {
  const u = await userDoc(context, uid)
  if (!u) return { ok: false, status: 404, message: 'That user no longer exists' }
  if (!mayManage(m, u)) return { ok: false, status: 403, message: 'You may not manage this user' }
  const n = await revokeInvites(context.database.db, uid)
  context.logger.info({ uid, revoked: n }, 'invitation revoked')
  return { ok: true, message: n ? `The invitation of ${u.email} was revoked; its link no longer works.` : `${u.email} had no open invitation.` }
}
