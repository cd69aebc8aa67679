/**
 * The question /LinkSignIn asks before a sign-in link from another site replaces the session
 * (issue 20 item 7). The guard does not check the link's credentials (another site must not be
 * able to try passwords or lock accounts through a visitor's browser): it seals the link's path
 * and query, credentials included, into one short-lived value (AES-GCM under a key derived from
 * SESSION_SECRET with its own label) and keeps it in a cookie that only /LinkSignIn receives
 * (HttpOnly, SameSite=Lax, ten minutes). So the credentials are in no page, no address (the
 * Support link and the history copy the address), no Referer and no log line. The page's
 * Continue form carries a digest of the value it showed: a question replaced in the meantime
 * (another link opened in another tab) is not answered by it.
 */
import crypto from 'node:crypto'
import { redirect, type AppLoadContext } from '@remix-run/node'
import { findUser } from './accounts.server'
import { withoutCredentials } from './address-sign-in.server'
import { overHttps } from './session.server'
import { verifyAccessToken } from './tokens.server'
import { seal, unseal } from '../utils/seal.server'
import { safePath } from '../utils/safe-url'

export const QUESTION_PATH = '/LinkSignIn'
const COOKIE = 'canopy_link'
/** How long the question may stay open before Continue no longer works. */
export const QUESTION_TTL_S = 600
/** A browser keeps a cookie of about 4 KB at most: a longer link cannot wait for the answer. */
const MAX_COOKIE = 3800

const keyOf = (secret: string) => `link sign-in:${secret}`

export interface SealedLink {
  /** a safe path of this site */
  path: string
  query: URLSearchParams
}

function questionCookie(request: Request, value: string | null): string {
  const attrs = [`Path=${QUESTION_PATH}`, 'HttpOnly', 'SameSite=Lax', ...(overHttps(request) ? ['Secure'] : [])]
  return value ? `${COOKIE}=${value}; ${attrs.join('; ')}; Max-Age=${QUESTION_TTL_S}` : `${COOKIE}=; ${attrs.join('; ')}; Max-Age=0`
}

/** The redirect to the question for a sign-in link (path: a safe path of this site); `headers` go along. */
export function askFirst(request: Request, secret: string, link: SealedLink, headers?: Headers, now = Date.now()): Response {
  const query = new URLSearchParams(link.query)
  query.delete('_data')
  const sealed = seal(keyOf(secret), JSON.stringify({ p: link.path, q: query.toString(), exp: now + QUESTION_TTL_S * 1000 }))
  const h = new Headers(headers)
  h.append('Set-Cookie', questionCookie(request, sealed.length <= MAX_COOKIE ? sealed : null))
  return redirect(QUESTION_PATH, { headers: h })
}

/** The Set-Cookie that ends the question (after Continue). */
export const endQuestion = (request: Request) => questionCookie(request, null)

/** What the Continue form carries: names the question it answers, reveals nothing of it. */
export const digestOf = (value: string) => crypto.createHash('sha256').update(value).digest('base64url').slice(0, 22)

export interface OpenQuestion {
  link: SealedLink
  digest: string
}

/** The question waiting in this request's cookie, or null when there is none or it is forged, damaged or expired. */
export function openQuestion(request: Request, secret: string, now = Date.now()): OpenQuestion | null {
  const value = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1)
  if (!value || !value.startsWith('sealed:v1:') || value.length > MAX_COOKIE) return null
  try {
    const v = JSON.parse(unseal(keyOf(secret), value)) as { p?: unknown; q?: unknown; exp?: unknown }
    const path = safePath(typeof v.p === 'string' ? v.p : null)
    if (!path || typeof v.q !== 'string' || typeof v.exp !== 'number' || v.exp < now) return null
    return { link: { path, query: new URLSearchParams(v.q) }, digest: digestOf(value) }
  } catch {
    return null
  }
}

export interface LinkDescription {
  /** the account the link signs in as (its email), null when its token is not valid */
  as: string | null
  /** where "Stay signed in as I am" goes: the link's page without the credentials */
  stay: string
}

/** Whom a sealed link signs in as, without checking a password (that happens on Continue). */
export async function describeLink(context: AppLoadContext, link: SealedLink): Promise<LinkDescription> {
  const stay = withoutCredentials(link.path, link.query)
  const token = link.query.get('token')
  if (token !== null) {
    const claims = verifyAccessToken(context.env.SESSION_SECRET, token)
    const user = claims ? await findUser(context.database, claims.sub) : null
    return { as: user ? user.email : null, stay }
  }
  return { as: (link.query.get('email') ?? '').trim().slice(0, 320) || 'an account without an email address', stay }
}
