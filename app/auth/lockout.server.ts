/**
 * Sign-in lockout (issue 20 item 6; decision 055): who may try a password now, judged from the
 * trail in auth_login_attempts. Three counts of wrong passwords within WINDOW minutes:
 *   - the account at one address (perPair): locks that pair only, so a stranger cannot lock the
 *     owner out from the owner's own address;
 *   - the account from anywhere (perAccount): locks it, except at an address it signed in from
 *     within knownDays;
 *   - the address across accounts (perAddress): locks it, except for accounts that signed in
 *     from it within knownDays (a whole site behind one NAT keeps working).
 * Only wrong passwords count (COUNTED); a refusal while locked is recorded as 'locked: …' and
 * never counted, so a lock ends at most WINDOW minutes after it began, however often it is tried.
 * A success resets the pair's count; a password change (a reset) resets the pair's and the account's.
 * The auth_* tables are platform tables (users live in the platform organisation): no org column.
 */
import type { Database } from '../db/index.server'

export const LIMITS = { perPair: 5, perAccount: 50, perAddress: 20, windowMinutes: 15, knownDays: 90 }

/** The reasons that are guesses: a wrong password, or an email without an account. */
const COUNTED = `reason IN ('password', 'unknown email')`

export type LockScope = 'account at this address' | 'account' | 'address'
export type LockState = { locked: false } | { locked: true; scope: LockScope; minutes: number }

const WINDOW = `at > now() - make_interval(mins => ${LIMITS.windowMinutes})`
/** the pair's count starts again after its last success and after the last password change ($3) */
const PAIR_SINCE = `at > greatest(
    coalesce((SELECT max(at) FROM auth_login_attempts WHERE email = $1 AND ip = $2 AND ok), '-infinity'),
    coalesce($3::timestamptz, '-infinity'))`

/**
 * The lock (if any) that applies to `email` tried from `ip`; `passwordSince` is when the account's
 * password was last set (null: no account). A count is over its limit when the limit-th most recent
 * counted failure is still inside the window; the lock lasts until that failure leaves it.
 */
export async function lockState(database: Database, email: string, ip: string, passwordSince: Date | null): Promise<LockState> {
  const nth = (where: string, limit: number) =>
    `(SELECT at + make_interval(mins => ${LIMITS.windowMinutes}) FROM auth_login_attempts
       WHERE ${where} AND ${COUNTED} AND ${WINDOW} ORDER BY at DESC, seq DESC OFFSET ${limit - 1} LIMIT 1)`
  const r = await database.db.query<{ pair: Date | null; account: Date | null; address: Date | null; known: boolean; now: Date }>(
    `SELECT ${nth(`email = $1 AND ip = $2 AND ${PAIR_SINCE}`, LIMITS.perPair)} AS pair,
            ${nth(`email = $1 AND at > coalesce($3::timestamptz, '-infinity')`, LIMITS.perAccount)} AS account,
            ${nth('ip = $2', LIMITS.perAddress)} AS address,
            EXISTS (SELECT 1 FROM auth_login_attempts WHERE email = $1 AND ip = $2 AND ok
                     AND at > now() - make_interval(days => ${LIMITS.knownDays})) AS known,
            now() AS now`,
    [email, ip, passwordSince],
  )
  const row = r.rows[0]
  const locks: Array<[LockScope, Date | null]> = [['account at this address', row.pair]]
  if (!row.known) locks.push(['account', row.account], ['address', row.address])
  const active = locks.filter((l): l is [LockScope, Date] => l[1] !== null)
  if (!active.length) return { locked: false }
  const [scope, until] = active.reduce((a, b) => (new Date(b[1]).getTime() > new Date(a[1]).getTime() ? b : a))
  const minutes = Math.max(1, Math.ceil((new Date(until).getTime() - new Date(row.now).getTime()) / 60_000))
  return { locked: true, scope, minutes }
}

export async function recordAttempt(database: Database, email: string, ip: string, ok: boolean, reason?: string) {
  await database.db.query('INSERT INTO auth_login_attempts (email, ip, ok, reason) VALUES ($1, $2, $3, $4)', [email, ip, ok, reason ?? null])
}

// checks of one email, and of one address, run one at a time (in this process): otherwise a burst of
// parallel guesses all read the counts before any of them is recorded, and none is ever locked
const queues = new Map<string, Promise<unknown>>()

/** Runs fn after every earlier run that shares one of `keys` has ended. */
export function oneAtATime<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
  const run = Promise.all(keys.map((k) => queues.get(k))).then(fn)
  const tail = run.catch(() => {})
  for (const k of keys) queues.set(k, tail)
  void tail.then(() => keys.forEach((k) => queues.get(k) === tail && queues.delete(k)))
  return run
}
