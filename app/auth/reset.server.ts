/**
 * Password reset and email verification links: single-use, expiring tokens (only their hash
 * is stored). The reset request answers the same whether or not the account exists, and is
 * throttled per address and per email (mail-throttle.server.ts).
 */
import crypto from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import type { Database } from '../db/index.server'
import { sendMail } from '../mail/mailer.server'
import { findUserByEmail } from './accounts.server'
import { takeResetMailSlot } from './mail-throttle.server'
import { MSG } from './messages'

export const RESET_TTL_MIN = 60
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

export async function createOneTimeToken(database: Database, uid: string, email: string, purpose: 'reset' | 'verify', ttlMinutes = RESET_TTL_MIN): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url')
  await database.db.query(
    `INSERT INTO auth_one_time_tokens (id_hash, uid, purpose, email, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(mins => $5))`,
    [sha256(token), uid, purpose, email, ttlMinutes],
  )
  return token
}

export type TokenCheck = { ok: true; uid: string; email: string } | { ok: false; reason: 'unknown' | 'used' | 'expired' }

/** Looks a token up; `consume` spends it (atomically: a second use finds it used). */
export async function checkOneTimeToken(database: Database, token: string, purpose: 'reset' | 'verify', consume: boolean): Promise<TokenCheck> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { ok: false, reason: 'unknown' }
  const r = await database.db.query<{ uid: string; email: string; used_at: Date | null; expired: boolean }>(
    'SELECT uid, email, used_at, expires_at <= now() AS expired FROM auth_one_time_tokens WHERE id_hash = $1 AND purpose = $2',
    [sha256(token), purpose],
  )
  const row = r.rows[0]
  if (!row) return { ok: false, reason: 'unknown' }
  if (row.used_at) return { ok: false, reason: 'used' }
  if (row.expired) return { ok: false, reason: 'expired' }
  if (consume) {
    const u = await database.db.query('UPDATE auth_one_time_tokens SET used_at = now() WHERE id_hash = $1 AND used_at IS NULL RETURNING 1', [sha256(token)])
    if (u.rowCount === 0) return { ok: false, reason: 'used' }
  }
  return { ok: true, uid: row.uid, email: row.email }
}

export type ResetRequest = { ok: true } | { ok: false; message: string; retryAfterS: number }

/**
 * Sends a reset link if the account exists and may sign in; says nothing either way. Throttled per
 * client address and per email (mail-throttle.server.ts): a refused request sends nothing and says why.
 */
export async function sendPasswordReset(context: AppLoadContext, email: string, origin: string): Promise<ResetRequest> {
  const ip = context.clientIp ?? 'unknown'
  const slot = await takeResetMailSlot(context.database, ip, email)
  if (!slot.ok) {
    context.logger.warn({ email, ip, limit: slot.scope }, 'password reset refused: too many requests')
    return { ok: false, message: MSG.resetTooMany(slot.scope, slot.minutes), retryAfterS: slot.minutes * 60 }
  }
  const user = await findUserByEmail(context.database, email)
  if (!user || user.web === 'no' || (user as { IsUsed?: string }).IsUsed === 'no') {
    context.logger.info({ email }, 'password reset asked for an unknown, device or inactive account')
    return { ok: true }
  }
  const token = await createOneTimeToken(context.database, user.uid, user.email, 'reset')
  // a mail failure is logged, not answered: a different answer would tell who has an account
  await sendMail(context.env, context.logger, {
    to: user.email,
    subject: 'Reset your Canopy password',
    text: `Someone asked to reset the password of your Canopy account.\n\nTo choose a new password, open this link within ${RESET_TTL_MIN} minutes (it works once):\n${origin}/PasswordReset/${token}\n\nIf it was not you, ignore this mail; your password stays as it is.\n`,
  }).catch((err) => context.logger.error({ err, to: user.email }, 'the password reset mail could not be sent'))
  return { ok: true }
}

/** Mails a link that confirms the user's address (after sign-up or a change of address). */
export async function sendEmailVerification(context: AppLoadContext, user: { uid: string; email: string }, origin: string): Promise<void> {
  const token = await createOneTimeToken(context.database, user.uid, user.email, 'verify', 24 * 60)
  await sendMail(context.env, context.logger, {
    to: user.email,
    subject: 'Confirm your email address for Canopy',
    text: `Please confirm that this address belongs to your Canopy account by opening this link within 24 hours:\n${origin}/EmailVerify/${token}\n`,
  })
}
