/**
 * Download tokens (SPEC §7: "a token query is used for downloads"): GET /getfiles/{org}/{name}?token=
 * works without a session cookie, for a link opened in a new tab or by a device. A token is a
 * short-lived HS256 JWT signed with a key derived from SESSION_SECRET (its own label, so an access
 * token is never a file token nor the other way round), bound to exactly one file: its claims are
 * org, subdir ('' for the top folder), name, exp (and sub, iat: who asked, when). Lifetime:
 * FILE_TOKEN_TTL_S (300 s unless set). Made by POST /files/{org}/token.
 */
import crypto from 'node:crypto'

export interface FileTokenClaims {
  org: string
  subdir: string
  name: string
  /** the user it was made for (logged) */
  sub: string
  iat: number
  exp: number
}

export type FileTokenCheck = { ok: true; claims: FileTokenClaims } | { ok: false; reason: 'invalid' | 'expired' }

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url')
const key = (secret: string) => crypto.createHmac('sha256', secret).update('canopy file token v1').digest()

export function signFileToken(secret: string, c: Pick<FileTokenClaims, 'org' | 'name' | 'sub'> & { subdir?: string | null }, ttlS: number, now = Date.now()): { token: string; exp: number } {
  const iat = Math.floor(now / 1000)
  const exp = iat + ttlS
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const body = b64(JSON.stringify({ org: c.org, subdir: c.subdir ?? '', name: c.name, sub: c.sub, iat, exp } satisfies FileTokenClaims))
  const sig = b64(crypto.createHmac('sha256', key(secret)).update(`${head}.${body}`).digest())
  return { token: `${head}.${body}.${sig}`, exp }
}

/** Checks a token's signature and expiry (never throws on bad input). Which file it is for is the caller's check. */
export function verifyFileToken(secret: string, token: string | null | undefined, now = Date.now()): FileTokenCheck {
  if (!token || token.length > 2048) return { ok: false, reason: 'invalid' }
  const parts = token.split('.')
  if (parts.length !== 3) return { ok: false, reason: 'invalid' }
  const want = crypto.createHmac('sha256', key(secret)).update(`${parts[0]}.${parts[1]}`).digest()
  const got = Buffer.from(parts[2], 'base64url')
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return { ok: false, reason: 'invalid' }
  try {
    const c = JSON.parse(Buffer.from(parts[1], 'base64url').toString()) as FileTokenClaims
    if (typeof c.exp !== 'number' || typeof c.org !== 'string' || typeof c.name !== 'string' || typeof c.subdir !== 'string') return { ok: false, reason: 'invalid' }
    if (c.exp * 1000 <= now) return { ok: false, reason: 'expired' }
    return { ok: true, claims: c }
  } catch {
    return { ok: false, reason: 'invalid' }
  }
}

/** Is the token for exactly this file? */
export const tokenFits = (c: FileTokenClaims, org: string, subdir: string | null, name: string) => c.org === org && c.subdir === (subdir ?? '') && c.name === name
