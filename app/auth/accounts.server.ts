/**
 * Accounts: look-up by email, password checks with brute-force limits (lockout.server.ts),
 * password changes. Every attempt is recorded in auth_login_attempts (who tried, from where, and
 * why it failed).
 */
import type { Database } from '../db/index.server'
import { PLATFORM_ORG } from '../route-map'
import type { SessionUser } from './entitlements'
import { lockState, oneAtATime, recordAttempt } from './lockout.server'
import { hashPassword, verifyPassword } from './password.server'

// verified when the email is unknown, so both paths cost the same time
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'

export async function findUserByEmail(database: Database, email: string): Promise<SessionUser | null> {
  const [u] = await database.store.find(PLATFORM_ORG, 'users', { email: email.trim().toLowerCase() }, 1)
  return u ? (u as unknown as SessionUser) : null
}

export async function findUser(database: Database, uid: string): Promise<SessionUser | null> {
  const [u] = await database.store.find(PLATFORM_ORG, 'users', { uid }, 1)
  return u ? (u as unknown as SessionUser) : null
}

/**
 * The user a session or token acts as, with the original user's role when a super acts as someone
 * else (SPEC §6: role checks use the original user; what the user is entitled to stays theirs).
 */
export async function actingUser(database: Database, uid: string, origUid: string | null | undefined): Promise<SessionUser | null> {
  const user = await findUser(database, uid)
  if (!user || !origUid || origUid === uid) return user
  const original = await findUser(database, origUid)
  return { ...user, origRole: original?.role ?? 'user' }
}

export type LoginResult = { ok: true; user: SessionUser } | { ok: false; reason: 'bad' | 'locked' | 'noweb' | 'inactive'; lockMinutes?: number }

/**
 * Checks email and password from address `ip`. Wrong passwords lock (lockout.server.ts: per
 * account and address, per account, per address, with exceptions for the addresses an account is
 * known at; a refusal while locked never extends the lock).
 */
export function checkLogin(database: Database, email: string, password: string, ip: string): Promise<LoginResult> {
  // the trail's keys as stored (254 and 64 characters), so what is counted is what is judged
  const [key, from] = [email.slice(0, 254), ip.slice(0, 64)]
  return oneAtATime([`email:${key}`, `ip:${from}`], () => check(database, email, password, key, from))
}

async function check(database: Database, typed: string, password: string, email: string, ip: string): Promise<LoginResult> {
  const user = await findUserByEmail(database, typed)
  const row = user ? (await database.db.query<{ hash: string; updated_at: Date }>('SELECT hash, updated_at FROM auth_passwords WHERE uid = $1', [user.uid])).rows[0] : undefined
  const lock = await lockState(database, email, ip, row?.updated_at ?? null)
  if (lock.locked) {
    await recordAttempt(database, email, ip, false, `locked: ${lock.scope}`)
    return { ok: false, reason: 'locked', lockMinutes: lock.minutes }
  }
  const good = await verifyPassword(password, row?.hash ?? DUMMY_HASH)
  if (!user || !row || !good) {
    await recordAttempt(database, email, ip, false, user ? 'password' : 'unknown email')
    return { ok: false, reason: 'bad' }
  }
  if ((user as { IsUsed?: string }).IsUsed === 'no') {
    await recordAttempt(database, email, ip, false, 'inactive')
    return { ok: false, reason: 'bad' }
  }
  if (user.web === 'no') {
    await recordAttempt(database, email, ip, false, 'no web access')
    return { ok: false, reason: 'noweb' }
  }
  await recordAttempt(database, email, ip, true)
  return { ok: true, user }
}

export async function setPassword(database: Database, uid: string, password: string) {
  const hash = await hashPassword(password)
  await database.db.query(
    'INSERT INTO auth_passwords (uid, hash) VALUES ($1, $2) ON CONFLICT (uid) DO UPDATE SET hash = EXCLUDED.hash, updated_at = now()',
    [uid, hash],
  )
}

export async function passwordMatches(database: Database, uid: string, password: string): Promise<boolean> {
  const row = (await database.db.query<{ hash: string }>('SELECT hash FROM auth_passwords WHERE uid = $1', [uid])).rows[0]
  return verifyPassword(password, row?.hash ?? DUMMY_HASH)
}
