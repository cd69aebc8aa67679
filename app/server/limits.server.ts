/**
 * What one request may cost, checked in Express before Remix sees it (http.server.ts mounts these
 * after the static files, so assets are never counted):
 *   1. the rate limit per caller and per address (rate-limit.server.ts) → 429 + Retry-After;
 *   2. the body size: a non-multipart body declared larger than BODY_LIMIT_BYTES → 413 before a
 *      byte of it is read (multipart uploads are app/files' business: MAX_UPLOAD_MB, streamed);
 *      a JSON body sent without a length is capped while it streams by readJson (app/api);
 *   3. the time: a handler that has not answered within REQUEST_TIMEOUT_MS gets a 503 written for
 *      it (and a log line); the event stream (/events) is long-lived by design and exempt.
 */
import type { Express, RequestHandler } from 'express'
import type { Env } from '../config/env.server'
import { rateLimit } from './rate-limit.server'
import { refuse } from './refuse.server'

/** Largest JSON or form body (the console's forms and the API's writes are far smaller). */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024

const isMultipart = (type: string | undefined) => /^multipart\/form-data/i.test(type ?? '')

export function bodyLimit(maxBytes = BODY_LIMIT_BYTES): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || isMultipart(req.headers['content-type'])) return next()
    const length = Number(req.headers['content-length'] ?? 0)
    if (length > maxBytes) {
      refuse(req, res, 'TOO_LARGE', `The request body is larger than ${Math.round(maxBytes / 1024)} kB.`)
      return
    }
    next()
  }
}

/** Paths that stay open on purpose: the server-sent event stream. */
const LONG_LIVED = new Set(['/events'])

export function requestTimeout(ms: number): RequestHandler {
  return (req, res, next) => {
    if (LONG_LIVED.has(req.path)) return next()
    let timer: NodeJS.Timeout | undefined
    const fire = () => {
      if (res.headersSent) return // answering already (a slow download is not a hung handler)
      res.locals.timedOut = true
      ;(req as { log?: { warn: (o: object, m: string) => void } }).log?.warn({ timeoutMs: ms, method: req.method, path: req.path }, 'request timed out: answered 503')
      refuse(req, res, 'UNAVAILABLE', `The server did not answer within ${ms % 1000 ? `${ms} ms` : `${ms / 1000} seconds`}; try again.`)
    }
    const start = () => {
      timer = setTimeout(fire, ms)
      timer.unref()
    }
    // an upload's clock starts once its body is in: a slow link is not a slow handler
    // (Node's own server.requestTimeout, 300 s, bounds how long receiving may take)
    if (isMultipart(req.headers['content-type']) && !req.complete) req.once('end', start)
    else start()
    const stop = () => clearTimeout(timer)
    res.once('finish', stop)
    res.once('close', stop)
    next()
  }
}

/**
 * Wraps the Remix handler: once a request has been answered with the timeout's 503, the handler's
 * late answer fails to write (headers sent) and is dropped quietly instead of reaching Express's
 * error handler, which would destroy the connection.
 */
export function quietAfterTimeout(handler: RequestHandler): RequestHandler {
  return (req, res, next) =>
    handler(req, res, (err?: unknown) => {
      if (res.locals.timedOut) return
      next(err)
    })
}

export interface LimitDeps {
  env: Pick<Env, 'RATE_LIMIT_PER_SEC' | 'RATE_LIMIT_BURST' | 'RATE_LIMIT_ADDRESS_PER_SEC' | 'RATE_LIMIT_ADDRESS_BURST' | 'REQUEST_TIMEOUT_MS' | 'SESSION_SECRET'>
  /** the rate limit's clock (tests move it by hand) */
  now?: () => number
}

/** Mounts the three limits on `app`, in order. A rate of 0 turns that rate limit off (benchmarks). */
export function installLimits(app: Express, { env, now }: LimitDeps): void {
  const user = env.RATE_LIMIT_PER_SEC > 0 ? { perSec: env.RATE_LIMIT_PER_SEC, burst: env.RATE_LIMIT_BURST } : undefined
  const address = env.RATE_LIMIT_ADDRESS_PER_SEC > 0 ? { perSec: env.RATE_LIMIT_ADDRESS_PER_SEC, burst: env.RATE_LIMIT_ADDRESS_BURST } : undefined
  if (user || address) app.use(rateLimit({ user, address, secret: env.SESSION_SECRET, now }))
  app.use(bodyLimit())
  app.use(requestTimeout(env.REQUEST_TIMEOUT_MS))
}
