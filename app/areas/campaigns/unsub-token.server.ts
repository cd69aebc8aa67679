/**
 * The unsubscribe link's token (decision 058): which organisation, which address and which campaign,
 * signed with an HMAC of the session secret (its own purpose string, so no other signed value of the
 * app is ever accepted here). No sign-in is needed to use it; an altered or forged token is refused.
 */
import crypto from 'node:crypto'

export interface UnsubClaim {
  org: string
  email: string
  campaign: string
}

const PURPOSE = 'canopy:crm-unsubscribe:v1'
const mac = (secret: string, payload: string) => crypto.createHmac('sha256', secret).update(`${PURPOSE}\n${payload}`).digest('base64url')

export function signUnsub(secret: string, c: UnsubClaim): string {
  const payload = Buffer.from(JSON.stringify([c.org, c.email.toLowerCase(), c.campaign]), 'utf8').toString('base64url')
  return `${payload}.${mac(secret, payload)}`
}

/** The claim of a genuine token; null for anything else (altered, forged, cut short, not a token). */
export function verifyUnsub(secret: string, token: string): UnsubClaim | null {
  if (typeof token !== 'string' || token.length > 2000) return null
  const [payload, sig, extra] = token.split('.')
  if (!payload || !sig || extra !== undefined) return null
  const want = Buffer.from(mac(secret, payload))
  const got = Buffer.from(sig)
  if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return null
  try {
    const v: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'string' && x)) return null
    const [org, email, campaign] = v as string[]
    return { org, email, campaign }
  } catch {
    return null
  }
}

export const UNSUB_PATH = '/Unsubscribe'
export const unsubUrl = (origin: string, token: string) => `${origin.replace(/\/$/, '')}${UNSUB_PATH}/${token}`
