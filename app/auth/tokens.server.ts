/**
 * Tokens for API clients and devices (SPEC §7): a short-lived signed access token
 * (`x-access-token`, HS256, decodable expiry) and a rotating refresh token. A refresh token
 * used twice revokes its whole family (someone else holds a copy).
 */
import crypto from 'node:crypto'
import type { Database } from '../db/index.server'
import type { Queryable } from '../db/driver.server'

export const ACCESS_TTL_S = 15 * 60
export const REFRESH_TTL_S = 30 * 24 * 3600

export interface AccessClaims {
  sub: string
  /** original user (impersonation) */
  orig: string
  org: string
  role: string
  iat: number
  exp: number
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url')
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

function key(secret: string) {
  return crypto.createHmac('sha256', secret).update('canopy access token v1').digest()
}

export function signAccessToken(secret: string, c: Omit<AccessClaims, 'iat' | 'exp'>, ttlS = ACCESS_TTL_S, now = Date.now()): string {
  const iat = Math.floor(now / 1000)
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const body = b64(JSON.stringify({ ...c, iat, exp: iat + ttlS }))
  const sig = b64(crypto.createHmac('sha256', key(secret)).update(`${head}.${body}`).digest())
  return `${head}.${body}.${sig}`
}

/** The claims of a valid, unexpired token, or null (never throws on bad input). */
export function verifyAccessToken(secret: string, token: string | null | undefined, now = Date.now()): AccessClaims | null {
  if (!token || token.length > 4096) return null
  const parts = token.split('.')
  if (parts.length !== 3) return null
  // compared as text: base64url decoding ignores a last character's unused bits, so a signature
  // with those bits changed decoded to the same bytes and was accepted (one tampered token in ~1,000)
  const want = Buffer.from(crypto.createHmac('sha256', key(secret)).update(`${parts[0]}.${parts[1]}`).digest('base64url'))
  const got = Buffer.from(parts[2])
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return null
  try {
    const c = JSON.parse(Buffer.from(parts[1], 'base64url').toString()) as AccessClaims
    if (typeof c.exp !== 'number' || c.exp * 1000 <= now || typeof c.sub !== 'string') return null
    return c
  } catch {
    return null
  }
}

export async function issueRefreshToken(database: Database, c: { uid: string; orig: string; org: string }, family: string = crypto.randomUUID()): Promise<string> {
  return insertRefreshToken(database.db, c, family)
}

async function insertRefreshToken(q: Queryable, c: { uid: string; orig: string; org: string }, family: string): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url')
  await q.query(
    `INSERT INTO auth_refresh_tokens (id_hash, family, uid, orig_uid, org, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [sha256(token), family, c.uid, c.orig, c.org, REFRESH_TTL_S],
  )
  return token
}

export type RefreshResult = { ok: true; uid: string; orig: string; org: string; refreshToken: string } | { ok: false; reason: 'unknown' | 'expired' | 'reused' | 'revoked' }

/** Rotates a refresh token: the old one is spent; a second use revokes the whole family. */
export async function rotateRefreshToken(database: Database, token: string): Promise<RefreshResult> {
  if (!token || token.length > 200) return { ok: false, reason: 'unknown' }
  const out = await database.db.transaction(async (tx) => {
    const r = await tx.query<{ family: string; uid: string; orig_uid: string; org: string; expired: boolean; used_at: Date | null; revoked_at: Date | null }>(
      `SELECT family, uid, orig_uid, org, expires_at <= now() AS expired, used_at, revoked_at FROM auth_refresh_tokens WHERE id_hash = $1 FOR UPDATE`,
      [sha256(token)],
    )
    const row = r.rows[0]
    if (!row) return { ok: false as const, reason: 'unknown' as const }
    if (row.revoked_at) return { ok: false as const, reason: 'revoked' as const }
    if (row.used_at) {
      await tx.query('UPDATE auth_refresh_tokens SET revoked_at = now() WHERE family = $1 AND revoked_at IS NULL', [row.family])
      return { ok: false as const, reason: 'reused' as const }
    }
    if (row.expired) return { ok: false as const, reason: 'expired' as const }
    await tx.query('UPDATE auth_refresh_tokens SET used_at = now() WHERE id_hash = $1', [sha256(token)])
    // the successor is written in the same transaction, so a parallel reuse that revokes the family revokes it too
    const refreshToken = await insertRefreshToken(tx, { uid: row.uid, orig: row.orig_uid, org: row.org }, row.family)
    return { ok: true as const, uid: row.uid, orig: row.orig_uid, org: row.org, refreshToken }
  })
  return out
}
