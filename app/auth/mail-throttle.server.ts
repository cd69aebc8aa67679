/**
 * Throttles mail a stranger can ask for (issue 20 item 6; decision 055): at most perAddress
 * password reset requests from one client address and perRecipient for one email address within
 * windowMinutes. Every request counts, whether or not the email has an account, so the throttle
 * says nothing about who has one. A refused request is recorded but never counted (waiting is
 * enough to be allowed again). Counting and recording happen in one transaction under an advisory
 * lock, so concurrent requests cannot all read the count before any of them is recorded.
 */
import type { Database } from '../db/index.server'

export const MAIL_LIMITS = { perAddress: 10, perRecipient: 5, windowMinutes: 15 }
/** the advisory lock that serialises the count (LOCK_MIGRATE is 4_100_001) */
export const LOCK_RESET_MAIL = 4_100_020

export type MailSlot = { ok: true } | { ok: false; scope: 'address' | 'recipient'; minutes: number }

/** Takes one reset-mail slot for `email` asked from `ip`, or says which limit refuses it and for how long. */
export async function takeResetMailSlot(database: Database, ip: string, email: string): Promise<MailSlot> {
  const key = email.trim().toLowerCase().slice(0, 254)
  const from = ip.slice(0, 64)
  return database.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_RESET_MAIL])
    const nth = (column: 'ip' | 'email', param: string, limit: number) =>
      `(SELECT at + make_interval(mins => ${MAIL_LIMITS.windowMinutes}) FROM auth_mail_requests
         WHERE kind = 'reset' AND ${column} = ${param} AND allowed AND at > now() - make_interval(mins => ${MAIL_LIMITS.windowMinutes})
         ORDER BY at DESC, seq DESC OFFSET ${limit - 1} LIMIT 1)`
    const r = await tx.query<{ address: Date | null; recipient: Date | null; now: Date }>(
      `SELECT ${nth('ip', '$1', MAIL_LIMITS.perAddress)} AS address, ${nth('email', '$2', MAIL_LIMITS.perRecipient)} AS recipient, now() AS now`,
      [from, key],
    )
    const { address, recipient, now } = r.rows[0]
    const until = address ?? recipient
    await tx.query(`INSERT INTO auth_mail_requests (kind, ip, email, allowed) VALUES ('reset', $1, $2, $3)`, [from, key, !until])
    if (!until) return { ok: true }
    const minutes = Math.max(1, Math.ceil((new Date(until).getTime() - new Date(now).getTime()) / 60_000))
    return { ok: false, scope: address ? 'address' : 'recipient', minutes }
  })
}
