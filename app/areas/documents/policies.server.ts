/**
 * Policies that staff read and acknowledge (issue 26 item 3). A policy (pol_docs) is a document with
 * an audience — groups of the facility (team_groups: their members) and roles (the account's role,
 * admin or user, and its job roles, users.props.roles) — and a published version. Publishing makes
 * the newest saved version the one to acknowledge; a user acknowledges a version (policy_acks), so
 * publishing a new one asks everyone again.
 *
 * `policiesWaitingFor` is the small function other screens call (the start page): what waits for
 * this user in this facility. Three small reads: the published policies, the groups, the user's acks.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SessionUser } from '../../auth/entitlements'
import type { Database } from '../../db/index.server'
import type { Actor, Doc } from '../../db/types'
import type { WriteStep } from '../../records/write-hooks.server'
import { updateRecord, type Writer } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import { AppError } from '../../utils/errors'
import { latestVersion } from './versions.server'

export const POLICIES = 'pol_docs'
/** Roles a policy can be addressed to (the schema's list; an account matches its role or a job role). */
export const POLICY_ROLES = ['admin', 'user', 'compliance'] as const

export interface WaitingPolicy {
  id: string
  title: string
  docNo: string
  version: number
  publishedAt: string | null
}

export interface StaffMember {
  uid: string
  name: string
  email: string
  role: string
  roles: string[]
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : [])
const num = (v: unknown): number => (typeof v === 'number' ? v : Number.parseInt(String(v ?? ''), 10) || 0)

/** The user ids a group holds (team_groups: `member_uids`, or `members` when it is a list; issue 22 edits them). */
export function groupMembers(group: Doc): string[] {
  if (Array.isArray(group.member_uids)) return group.member_uids.map(String)
  if (Array.isArray(group.members)) return group.members.map(String)
  return []
}

const nameOf = (u: { firstname?: unknown; lastname?: unknown; email?: unknown; uid?: unknown }) =>
  [u.firstname, u.lastname].filter((x) => typeof x === 'string' && x).join(' ') || String(u.email ?? u.uid ?? '')

/** The people who work in a facility (not super, not accounts without web access), by name. */
export async function staffOf(database: Database, facility: string): Promise<StaffMember[]> {
  const r = await database.db.query<{ doc: Record<string, unknown> }>(
    `SELECT doc FROM c_users WHERE org = $1 AND (doc->'props'->'facilities' ? $2 OR doc->'props'->'modules' ? $2)`,
    [PLATFORM_ORG, facility],
  )
  return r.rows
    .map((x) => x.doc)
    .filter((d) => d.role !== 'super' && d.web !== 'no' && typeof d.uid === 'string')
    .map((d) => ({ uid: String(d.uid), name: nameOf(d), email: String(d.email ?? ''), role: String(d.role ?? 'user'), roles: list((d.props as { roles?: unknown } | undefined)?.roles) }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

type Audience = { uids: Set<string>; roles: Set<string> }

/** Who a policy is addressed to: its groups' members and its roles. */
function audienceOf(policy: Doc, groups: Map<string, Doc>): Audience {
  const uids = new Set<string>()
  for (const g of list(policy.groups)) for (const u of groupMembers(groups.get(g) ?? ({} as Doc))) uids.add(u)
  return { uids, roles: new Set(list(policy.roles)) }
}

const inAudience = (a: Audience, u: { uid: string; role: string; roles?: string[] }) => a.uids.has(u.uid) || a.roles.has(u.role) || (u.roles ?? []).some((r) => a.roles.has(r))

async function groupsOf(database: Database, facility: string): Promise<Map<string, Doc>> {
  if (!(await database.schemas.hasCollection('team_groups'))) return new Map()
  return new Map((await database.store.find(facility, 'team_groups', {}, 2000)).map((g) => [g._id, g]))
}

const published = (p: Doc) => num(p.published_version) > 0 && String(p.IsUsed ?? '').toLowerCase() !== 'no'

/** Is this user among those a policy is addressed to? */
export async function isAddressedTo(database: Database, facility: string, policy: Doc, user: SessionUser): Promise<boolean> {
  const a = audienceOf(policy, await groupsOf(database, facility))
  return inAudience(a, { uid: user.uid, role: user.role, roles: user.props?.roles })
}

/** The published policies this user has not acknowledged (at their published version), oldest first. */
export async function policiesWaitingFor(database: Database, user: Pick<SessionUser, 'uid' | 'role' | 'props'>, facility: string): Promise<WaitingPolicy[]> {
  if (!facility || !(await database.schemas.hasCollection(POLICIES))) return []
  const policies = (await database.store.find(facility, POLICIES, {}, 2000)).filter(published)
  if (!policies.length) return []
  const groups = await groupsOf(database, facility)
  const me = { uid: user.uid, role: user.role, roles: user.props?.roles }
  const mine = policies.filter((p) => inAudience(audienceOf(p, groups), me))
  if (!mine.length) return []
  const acks = await database.db.query<{ policy_id: string; version: number }>('SELECT policy_id, version FROM policy_acks WHERE org = $1 AND uid = $2', [facility, user.uid])
  const done = new Set(acks.rows.map((r) => `${r.policy_id}:${r.version}`))
  return mine
    .filter((p) => !done.has(`${p._id}:${num(p.published_version)}`))
    .map((p) => ({ id: p._id, title: String(p.title ?? ''), docNo: String(p.doc_no ?? ''), version: num(p.published_version), publishedAt: typeof p.published_at === 'string' ? p.published_at : null }))
    .sort((a, b) => String(a.publishedAt).localeCompare(String(b.publishedAt)))
}

/** Write step of pol_docs: a published version must be one that was saved. */
export const publishedVersionExists: WriteStep = async (tx, { org, collection, saved }) => {
  const n = num(saved.published_version)
  if (!n) return
  if (n > (await latestVersion(tx, org, collection, saved._id))) throw new AppError('BAD_INPUT', `Version ${n} of this policy has not been saved: publish a saved version.`, { field: 'published_version' })
}

/** Publishes the newest saved version: it becomes the one the audience must acknowledge. */
export async function publishPolicy(context: AppLoadContext, w: Writer, id: string, expectTs?: string): Promise<{ doc: Doc; version: number }> {
  const policy = await context.database.store.get(w.facility, POLICIES, id)
  if (!policy) throw new AppError('NOT_FOUND', 'That policy no longer exists.')
  const version = await latestVersion(context.database.db, w.facility, POLICIES, id)
  if (!version) throw new AppError('BAD_INPUT', 'Write the policy and save it before publishing.')
  if (!list(policy.groups).length && !list(policy.roles).length) throw new AppError('BAD_INPUT', 'Choose the groups or roles who must read this policy before publishing.')
  const res = await updateRecord(context, w, POLICIES, id, { published_version: version, published_at: new Date().toISOString(), version: `${version}`, status: 'Approved', approved: 'yes' }, { partial: true, expectTs, anyMinute: true })
  if (!res.doc) throw new AppError('CONFLICT', 'Publishing was stopped by a save rule.')
  return { doc: res.doc, version }
}

/** Records that `user` read and acknowledged the published version of a policy (once per version). */
export async function acknowledgePolicy(database: Database, actor: Actor, user: SessionUser, facility: string, id: string, version: number): Promise<void> {
  const policy = await database.store.get(facility, POLICIES, id)
  if (!policy || !published(policy)) throw new AppError('NOT_FOUND', 'That policy is not published.')
  if (num(policy.published_version) !== version) throw new AppError('CONFLICT', `A newer version (${num(policy.published_version)}) of this policy has been published: read it and acknowledge that one.`)
  if (!(await isAddressedTo(database, facility, policy, user))) throw new AppError('FORBIDDEN', 'This policy is not addressed to you.')
  const row = { policy: id, version, uid: user.uid, name: nameOf(user) }
  await database.store.audited(actor, { org: facility, collection: 'policy_acks', id: `${id}:${version}:${user.uid}`, action: 'insert', before: null, after: row }, async (tx) => {
    const r = await tx.query('INSERT INTO policy_acks (org, policy_id, version, uid, name) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [facility, id, version, user.uid, row.name])
    // already acknowledged: nothing new to audit
    if (!r.rowCount) throw new AlreadyDone()
  }).catch((e) => {
    if (!(e instanceof AlreadyDone)) throw e
  })
}
class AlreadyDone extends Error {}

export interface Signature {
  uid: string
  name: string
  email: string
  /** when they acknowledged the published version; null: not yet */
  signedAt: string | null
  /** the newest earlier version they acknowledged, if any */
  earlier: { version: number; at: string } | null
}

/** Who must read a policy, and who has acknowledged its published version, with dates. */
export async function signaturesOf(database: Database, facility: string, policy: Doc): Promise<{ version: number; rows: Signature[] }> {
  const version = num(policy.published_version)
  const a = audienceOf(policy, await groupsOf(database, facility))
  const staff = (await staffOf(database, facility)).filter((u) => inAudience(a, u))
  const acks = await database.db.query<{ uid: string; version: number; acked_at: Date | string }>('SELECT uid, version, acked_at FROM policy_acks WHERE org = $1 AND policy_id = $2 ORDER BY version DESC', [facility, policy._id])
  const iso = (v: Date | string) => new Date(v).toISOString()
  const rows = staff.map((u) => {
    const mine = acks.rows.filter((r) => r.uid === u.uid)
    const now = mine.find((r) => r.version === version)
    const before = mine.find((r) => r.version < version)
    return { uid: u.uid, name: u.name, email: u.email, signedAt: now ? iso(now.acked_at) : null, earlier: before ? { version: before.version, at: iso(before.acked_at) } : null }
  })
  // someone who acknowledged and has since left the audience still shows (an inspector asks who signed)
  for (const r of acks.rows) {
    if (r.version !== version || rows.some((x) => x.uid === r.uid)) continue
    rows.push({ uid: r.uid, name: r.uid, email: '', signedAt: iso(r.acked_at), earlier: null })
  }
  return { version, rows }
}

/** The signatures as CSV for an inspection: policy, version, person, email, status, when. */
export function signaturesCsv(policy: Doc, s: { version: number; rows: Signature[] }): string {
  const cell = (v: unknown) => {
    const t = String(v ?? '')
    const safe = /^[=+\-@\t\r]/.test(t) ? `'${t}` : t
    return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
  }
  const lines = [['Policy', 'Doc #', 'Version', 'Name', 'Email', 'Status', 'Acknowledged at (UTC)', 'Earlier acknowledgement'].join(',')]
  for (const r of s.rows) {
    lines.push([policy.title, policy.doc_no, s.version, r.name, r.email, r.signedAt ? 'Acknowledged' : 'Not yet', r.signedAt ?? '', r.earlier ? `v${r.earlier.version} ${r.earlier.at}` : ''].map(cell).join(','))
  }
  return lines.join('\r\n') + '\r\n'
}
