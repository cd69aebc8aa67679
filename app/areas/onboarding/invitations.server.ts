/**
 * Invitations: a single-use link (only its hash is stored, auth_one_time_tokens purpose 'invite',
 * migration 017) that lets a new user choose a first password. Issuing a new one revokes the
 * old; revoking leaves the account without a way in until the next invitation.
 */
import crypto from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { setPassword } from '../../auth/accounts.server'
import type { Database } from '../../db/index.server'
import type { Queryable } from '../../db/driver.server'
import { sendMail } from '../../mail/mailer.server'
import { PLATFORM_ORG } from '../../route-map'

export const INVITE_TTL_H = 72
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

/** A fresh invitation for the user (any open one is revoked); the token goes into the mail only. */
export async function issueInvite(q: Queryable, uid: string, email: string, ttlHours = INVITE_TTL_H): Promise<string> {
  await revokeInvites(q, uid)
  const token = crypto.randomBytes(32).toString('base64url')
  await q.query(
    `INSERT INTO auth_one_time_tokens (id_hash, uid, purpose, email, expires_at) VALUES ($1, $2, 'invite', $3, now() + make_interval(mins => $4))`,
    [sha256(token), uid, email, Math.round(ttlHours * 60)],
  )
  return token
}

export async function revokeInvites(q: Queryable, uid: string): Promise<number> {
  const r = await q.query(`UPDATE auth_one_time_tokens SET revoked_at = now() WHERE uid = $1 AND purpose = 'invite' AND used_at IS NULL AND revoked_at IS NULL`, [uid])
  return r.rowCount ?? 0
}

export type InviteStatus = { state: 'none' } | { state: 'open' | 'expired'; expires: string }

/** The newest invitation of each user, for the users list (open, expired or none). */
export async function inviteStatuses(database: Database, uids: string[]): Promise<Map<string, InviteStatus>> {
  const out = new Map<string, InviteStatus>()
  if (!uids.length) return out
  const r = await database.db.query<{ uid: string; expires_at: Date | string; expired: boolean }>(
    `SELECT DISTINCT ON (uid) uid, expires_at, expires_at <= now() AS expired FROM auth_one_time_tokens
      WHERE purpose = 'invite' AND used_at IS NULL AND revoked_at IS NULL AND uid = ANY($1) ORDER BY uid, created_at DESC`,
    [uids],
  )
  for (const row of r.rows) out.set(row.uid, { state: row.expired ? 'expired' : 'open', expires: new Date(row.expires_at).toISOString() })
  return out
}

export async function hasPassword(database: Database, uid: string): Promise<boolean> {
  return (await database.db.query('SELECT 1 FROM auth_passwords WHERE uid = $1', [uid])).rows.length > 0
}

export type InviteCheck = { ok: true; uid: string; email: string } | { ok: false; reason: 'unknown' | 'used' | 'expired' | 'revoked' }

/** Looks an invitation up; `consume` spends it (atomically: a second use finds it used). */
export async function checkInvite(q: Queryable, token: string, consume: boolean): Promise<InviteCheck> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { ok: false, reason: 'unknown' }
  const r = await q.query<{ uid: string; email: string; used_at: Date | null; revoked_at: Date | null; expired: boolean }>(
    `SELECT uid, email, used_at, revoked_at, expires_at <= now() AS expired FROM auth_one_time_tokens WHERE id_hash = $1 AND purpose = 'invite'`,
    [sha256(token)],
  )
  const row = r.rows[0]
  if (!row) return { ok: false, reason: 'unknown' }
  if (row.used_at) return { ok: false, reason: 'used' }
  if (row.revoked_at) return { ok: false, reason: 'revoked' }
  if (row.expired) return { ok: false, reason: 'expired' }
  if (consume) {
    const u = await q.query(`UPDATE auth_one_time_tokens SET used_at = now() WHERE id_hash = $1 AND used_at IS NULL AND revoked_at IS NULL RETURNING 1`, [sha256(token)])
    if (u.rowCount === 0) return { ok: false, reason: 'used' }
  }
  return { ok: true, uid: row.uid, email: row.email }
}

/** Spends the invitation and sets the first password; the address is then known to be the user's. */
export async function acceptInvite(database: Database, token: string, password: string, requestId?: string): Promise<InviteCheck> {
  const t = await checkInvite(database.db, token, true)
  if (!t.ok) return t
  await setPassword(database, t.uid, password)
  const [u] = await database.store.find(PLATFORM_ORG, 'users', { uid: t.uid }, 1)
  if (u) await database.store.update({ uid: t.uid, requestId }, PLATFORM_ORG, 'users', u._id, { emailVerified: 'yes' })
  return t
}

export interface InviteMail {
  to: string
  firstname: string
  facility: string
  inviter: string
  token: string
  origin: string
}

export async function sendInviteMail(context: Pick<AppLoadContext, 'env' | 'logger'>, m: InviteMail): Promise<void> {
  const link = `${m.origin}/Invitation/${m.token}`
  await sendMail(context.env, context.logger, {
    to: m.to,
    subject: `You are invited to Canopy (${m.facility})`,
    text:
      `Hello ${m.firstname},\n\n${m.inviter} has invited you to ${m.facility} on Canopy.\n\n` +
      `Choose your password here within ${INVITE_TTL_H} hours (the link works once):\n${link}\n\n` +
      `Then sign in at ${m.origin}/Welcome with this address (${m.to}).\n\nIf you did not expect this, ignore this mail.\n`,
  })
}

/** SPEC §4's authorization email: a lobby sign-up's account is ready in its new facility. */
export async function sendAuthorizationMail(context: Pick<AppLoadContext, 'env' | 'logger'>, m: { to: string; firstname: string; facility: string; origin: string }): Promise<void> {
  await sendMail(context.env, context.logger, {
    to: m.to,
    subject: `Your Canopy account is ready (${m.facility})`,
    text: `Hello ${m.firstname},\n\nyour account has been authorized: ${m.facility} is ready for you on Canopy.\n\nSign in at ${m.origin}/Welcome with this address (${m.to}) and the password you chose when you signed up.\n`,
  })
}

