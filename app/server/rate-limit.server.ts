/**
 * The server's rate limit: two sets of token buckets (app/server/token-bucket.ts), one per signed-in
 * caller and one per client address; a request needs a token from both. People never notice it
 * (a page load spends a handful: static files are served before it and not counted); a runaway
 * script or a loop in a device gets 429 with Retry-After and can carry on once it backs off.
 *
 * Who the caller is, without a database read: the subject of a valid `x-access-token` (verified
 * with the session secret, a cheap HMAC), else the console's session cookie. A made-up cookie only
 * buys a fresh per-caller bucket; the per-address bucket still holds. One process, memory only:
 * the buckets start empty on restart and are not shared between instances.
 */
import type { RequestHandler } from 'express'
import { COOKIE } from '../auth/session.server'
import { verifyAccessToken } from '../auth/tokens.server'
import { refuse } from './refuse.server'
import { TokenBuckets } from '../utils/token-bucket'

export interface RateLimitOptions {
  /** per signed-in caller (none: not limited per caller) */
  user?: { perSec: number; burst: number }
  /** per client address; everyone behind one NAT or proxy shares it, so keep it large (none: not limited) */
  address?: { perSec: number; burst: number }
  /** verifies access tokens */
  secret: string
  now?: () => number
  maxKeys?: number
}

/** Never counted: probes, and the files a page load pulls in (normally answered before this runs). */
const EXEMPT = /^\/(healthz|readyz|build\/.*|favicon\.(ico|svg|png)|manifest\.webmanifest|sw\.js|sw-core\.js|icons\/.*|offline\.html|robots\.txt)$/

/** The caller's key: `u:<uid>` for a valid access token, `s:<session id>` for a session cookie. */
export function callerKey(headers: Record<string, string | string[] | undefined>, secret: string, now = Date.now()): string | null {
  const token = headers['x-access-token']
  if (typeof token === 'string') {
    const claims = verifyAccessToken(secret, token, now)
    if (claims) return `u:${claims.sub}`
  }
  const cookie = typeof headers.cookie === 'string' ? headers.cookie : ''
  const m = cookie.match(new RegExp(`(?:^|;\\s*)${COOKIE}=([A-Za-z0-9_-]{20,100})(?:;|$)`))
  return m ? `s:${m[1]}` : null
}

export function rateLimit(o: RateLimitOptions): RequestHandler {
  const now = o.now ?? Date.now
  const users = o.user && new TokenBuckets({ ...o.user, now, maxKeys: o.maxKeys })
  const addresses = o.address && new TokenBuckets({ ...o.address, now, maxKeys: o.maxKeys })
  return (req, res, next) => {
    if (EXEMPT.test(req.path)) return next()
    const who = users ? callerKey(req.headers, o.secret, now()) : null
    const where = `a:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`
    // look at both before spending, so a refusal by one does not drain the other
    const wait = Math.max(who && users ? users.wait(who) : 0, addresses ? addresses.wait(where) : 0)
    if (wait === 0) {
      if (who) users?.take(who)
      addresses?.take(where)
      return next()
    }
    const retryAfter = Math.max(1, Math.ceil(wait / 1000))
    // pino-http logs the 429 itself (warn, with the address); session ids never go to the log
    refuse(req, res, 'TOO_MANY', `Too many requests; try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`, { 'Retry-After': String(retryAfter) })
  }
}
