/**
 * Security headers on every answer (issue 20 item 9, decision 034), written here rather than with
 * a library: a Content-Security-Policy whose scripts are this site's files plus the inline scripts
 * this response's pages were rendered with (a fresh nonce per request: Remix's hydration data, the
 * boot watchdog); no framing by another site (frame-ancestors, X-Frame-Options); nosniff; no
 * Referer sent to other sites (addresses can carry a sign-in token); and `Cache-Control: no-store`
 * by default on everything the app answers (pages, data, API), so a shared kiosk's Back button or
 * disk cache never shows the previous user's records. Static files set their own caching.
 */
import crypto from 'node:crypto'
import type { RequestHandler, Response } from 'express'

/** The policy for a page rendered with `nonce`. Inline style attributes stay allowed (Tailwind classes, React `style`). */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    // documents may show https images; QR codes and previews are data: and blob: addresses
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ')
}

/** The nonce the page of this response is rendered with (set by securityHeaders). */
export const cspNonceOf = (res: Response): string => String(res.locals.cspNonce ?? '')

export function securityHeaders(): RequestHandler {
  return (req, res, next) => {
    const nonce = crypto.randomBytes(16).toString('base64')
    res.locals.cspNonce = nonce
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce))
    res.setHeader('X-Frame-Options', 'SAMEORIGIN')
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'same-origin')
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
    res.setHeader('Permissions-Policy', 'geolocation=(), microphone=(), payment=(), usb=()')
    if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=15552000; includeSubDomains')
    next()
  }
}

/**
 * Before the Remix handler: nothing the app answers is kept by a browser or a proxy unless the
 * route says otherwise (its own Cache-Control wins; decided when the headers go out).
 */
export const noStoreByDefault: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    if (!this.getHeader('Cache-Control')) this.setHeader('Cache-Control', 'no-store')
    return writeHead.apply(this, args as never)
  } as Response['writeHead']
  next()
}
