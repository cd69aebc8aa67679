/**
 * Accounts: look-up by email, password checks with brute-force limits, password changes.
 * Every attempt is recorded in auth_login_attempts (who tried, from where, and why it failed).
 */
import type { Database } from '../db/index.server'
import { PLATFORM_ORG } from '../route-map'
import type { SessionUser } from './entitlements'
import { hashPassword, verifyPassword } from './password.server'

/** Failures before an account (per email) or an address (per ip) is locked, within WINDOW. */
export const LIMITS = { perEmail: 5, perIp: 20, windowMinutes: 15, lockMinutes: 15 }

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

async function recentFailures(database: Database, column: 'email' | 'ip', value: string): Promise<{ n: number; last: Date | null }> {
  const r = await database.db.query<{ n: number; last: Date | null }>(
    `SELECT count(*)::int AS n, max(at) AS last FROM auth_login_attempts
      WHERE ${column} = $1 AND NOT ok AND at > now() - make_interval(mins => $2)
        AND at > coalesce((SELECT max(at) FROM auth_login_attempts WHERE ${column} = $1 AND ok), '-infinity')`,
    [value, LIMITS.windowMinutes],
  )
  return r.rows[0]
}

async function record(database: Database, email: string, ip: string, ok: boolean, reason?: string) {
  await database.db.query('INSERT INTO auth_login_attempts (email, ip, ok, reason) VALUES ($1, $2, $3, $4)', [email.slice(0, 254), ip.slice(0, 64), ok, reason ?? null])
}

// checks of one email run one at a time (in this process): otherwise a burst of parallel guesses
// all read the failure count before any of them is recorded, and none is ever locked
const checking = new Map<string, Promise<unknown>>()

/** Checks email and password. Repeated failures slow down, then lock for LIMITS.lockMinutes. */
export function checkLogin(database: Database, email: string, password: string, ip: string): Promise<LoginResult> {
  const run = (checking.get(email) ?? Promise.resolve()).then(() => check(database, email, password, ip))
  const tail = run.catch(() => {})
  checking.set(email, tail)
  void tail.then(() => checking.get(email) === tail && checking.delete(email))
  return run
}

async function check(database: Database, email: string, password: string, ip: string): Promise<LoginResult> {
  const byEmail = await recentFailures(database, 'email', email)
  const byIp = await recentFailures(database, 'ip', ip)
  if (byEmail.n >= LIMITS.perEmail || byIp.n >= LIMITS.perIp) {
    await record(database, email, ip, false, 'locked')
    const last = Math.max(byEmail.last?.getTime() ?? 0, byIp.last?.getTime() ?? 0)
    return { ok: false, reason: 'locked', lockMinutes: Math.max(1, Math.ceil((last + LIMITS.lockMinutes * 60_000 - Date.now()) / 60_000)) }
  }
  // slow down: 200 ms per recent failure
  if (byEmail.n) await new Promise((r) => setTimeout(r, Math.min(2000, byEmail.n * 200)))
  const user = await findUserByEmail(database, email)
  const row = user ? (await database.db.query<{ hash: string }>('SELECT hash FROM auth_passwords WHERE uid = $1', [user.uid])).rows[0] : undefined
  const good = await verifyPassword(password, row?.hash ?? DUMMY_HASH)
  if (!user || !row || !good) {
    await record(database, email, ip, false, user ? 'password' : 'unknown email')
    return { ok: false, reason: 'bad' }
  }
  if ((user as { IsUsed?: string }).IsUsed === 'no') {
    await record(database, email, ip, false, 'inactive')
    return { ok: false, reason: 'bad' }
  }
  if (user.web === 'no') {
    await record(database, email, ip, false, 'no web access')
    return { ok: false, reason: 'noweb' }
  }
  await record(database, email, ip, true)
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
