/**
 * Console sessions: the cookie holds only a random id (httpOnly, SameSite=Lax, Secure over
 * https); the table holds its hash, the user, the original user, the facility, the sign-in
 * step reached and when it was last used. Idle sessions end on the server.
 */
import crypto from 'node:crypto'
import type { Database } from '../db/index.server'

export const COOKIE = 'canopy_sid'
export type Step = 'eula' | 'credentials' | 'facility' | 'done'

export interface SessionRow {
  id_hash: string
  uid: string
  orig_uid: string
  facility: string | null
  step: Step
  kiosk: boolean
  last_seen: Date
  ended_at: Date | null
  end_reason: string | null
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

export function readSessionId(request: Request): string | null {
  const header = request.headers.get('cookie') ?? ''
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === COOKIE) {
      const id = v.join('=')
      return /^[A-Za-z0-9_-]{20,100}$/.test(id) ? id : null
    }
  }
  return null
}

/** Whether the browser reached us over https (directly or behind a proxy that says so): cookies are then Secure. */
export const overHttps = (request: Request) => new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https'

export function sessionCookie(request: Request, id: string | null): string {
  const attrs = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(overHttps(request) ? ['Secure'] : [])]
  return id ? `${COOKIE}=${id}; ${attrs.join('; ')}` : `${COOKIE}=; ${attrs.join('; ')}; Max-Age=0`
}

export async function createSession(database: Database, s: { uid: string; origUid?: string; step: Step; facility?: string | null; kiosk?: boolean; ip?: string; userAgent?: string }): Promise<string> {
  const id = crypto.randomBytes(32).toString('base64url')
  await database.db.query(
    'INSERT INTO auth_sessions (id_hash, uid, orig_uid, facility, step, kiosk, ip, user_agent) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [sha256(id), s.uid, s.origUid ?? s.uid, s.facility ?? null, s.step, s.kiosk ?? false, s.ip?.slice(0, 64) ?? null, s.userAgent?.slice(0, 300) ?? null],
  )
  return id
}

export type SessionLookup = { state: 'none' } | { state: 'ended'; reason: string } | { state: 'active'; session: SessionRow }

/** Finds the session and ends it if it sat idle longer than `idleSeconds`. */
export async function loadSession(database: Database, id: string | null, idleSeconds: number): Promise<SessionLookup> {
  if (!id) return { state: 'none' }
  const r = await database.db.query<SessionRow & { idle: boolean }>(
    `SELECT *, last_seen < now() - make_interval(secs => $2) AS idle FROM auth_sessions WHERE id_hash = $1`,
    [sha256(id), idleSeconds],
  )
  const row = r.rows[0]
  if (!row) return { state: 'none' }
  if (row.ended_at) return { state: 'ended', reason: row.end_reason ?? 'ended' }
  if (row.idle) {
    await endSession(database, id, 'idle')
    return { state: 'ended', reason: 'idle' }
  }
  // at most one write per quarter of the idle time (30 s at most), not one per request
  const touchAfter = Math.min(30, Math.floor(idleSeconds / 4))
  await database.db.query(`UPDATE auth_sessions SET last_seen = now() WHERE id_hash = $1 AND last_seen < now() - make_interval(secs => $2)`, [sha256(id), touchAfter])
  return { state: 'active', session: row }
}

export async function updateSession(database: Database, id: string, patch: Partial<Pick<SessionRow, 'step' | 'facility' | 'kiosk' | 'uid'>>) {
  const keys = Object.keys(patch) as Array<keyof typeof patch>
  if (!keys.length) return
  const sets = keys.map((k, i) => `${k} = $${i + 2}`)
  await database.db.query(`UPDATE auth_sessions SET ${sets.join(', ')}, last_seen = now() WHERE id_hash = $1 AND ended_at IS NULL`, [sha256(id), ...keys.map((k) => patch[k])])
}

export async function endSession(database: Database, id: string, reason: string) {
  await database.db.query('UPDATE auth_sessions SET ended_at = now(), end_reason = $2 WHERE id_hash = $1 AND ended_at IS NULL', [sha256(id), reason])
}

/** Ends every open session of a user (password change, account disabled). */
export async function endUserSessions(database: Database, uid: string, reason: string, exceptId?: string) {
  await database.db.query('UPDATE auth_sessions SET ended_at = now(), end_reason = $2 WHERE uid = $1 AND ended_at IS NULL AND id_hash <> $3', [uid, reason, exceptId ? sha256(exceptId) : ''])
}

/**
 * The seconds a session has left before idleness ends it, without counting this as activity (a page
 * asks before it warns or signs out, issue 32 item 7); null when it is not signed in. `touch`: count
 * this as activity first (the page saw typing, a tap, a scroll: `/session-keepalive`).
 */
export async function idleSecondsLeft(database: Database, id: string | null, idleSeconds: number, touch = false): Promise<number | null> {
  if (!id) return null
  if (touch) await database.db.query(`UPDATE auth_sessions SET last_seen = now() WHERE id_hash = $1 AND ended_at IS NULL AND last_seen >= now() - make_interval(secs => $2)`, [sha256(id), idleSeconds])
  const r = await database.db.query<{ left: number | string | null }>(
    `SELECT extract(epoch FROM last_seen + make_interval(secs => $2) - now()) AS left FROM auth_sessions WHERE id_hash = $1 AND ended_at IS NULL AND step = 'done'`,
    [sha256(id), idleSeconds],
  )
  const left = r.rows[0]?.left
  if (left === undefined || left === null || Number(left) <= 0) return null
  return Math.floor(Number(left))
}

/** Whether a session is still signed in, without counting this as activity (event streams ask this). */
export async function sessionIsLive(database: Database, id: string, idleSeconds: number): Promise<boolean> {
  const r = await database.db.query<{ live: boolean }>(
    `SELECT ended_at IS NULL AND last_seen >= now() - make_interval(secs => $2) AS live FROM auth_sessions WHERE id_hash = $1`,
    [sha256(id), idleSeconds],
  )
  return r.rows[0]?.live === true
}
