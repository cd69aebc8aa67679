/**
 * Input that no route should see, and errors no route caught (issue 20 items 10 and 11).
 * - NUL: PostgreSQL cannot store or compare a NUL character in text or jsonb, so a `%00` in the
 *   address (a table search, an API filter) would fail deep in a query as a 500/503. It is refused
 *   here, once for every route, with a clear 400. (JSON bodies: readJson; form fields: the form schema.)
 * - Errors Express meets outside Remix (an address that is not valid percent-encoding, a body
 *   parser): a short page or the API envelope with the right status; never a stack trace or a file
 *   path, whatever NODE_ENV says. The error itself goes to the log.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express'
import type { Logger } from 'pino'
import { STATUS_OF, type ErrorCode } from '../utils/errors'
import { redactUrl } from '../utils/logger.server'
import { refuse } from './refuse.server'

export const NUL_MESSAGE = 'The address contains a NUL character (%00), which Canopy cannot search for or store. Remove it and try again.'

/** A `%00` in the path or the query (after the one decoding a route would do). */
export function hasNul(rawUrl: string): boolean {
  return /%00/i.test(rawUrl) || rawUrl.includes('\u0000')
}

export const refuseNul: RequestHandler = (req, res, next) => {
  if (hasNul(req.originalUrl)) return refuse(req, res, 'BAD_INPUT', NUL_MESSAGE)
  next()
}

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  BAD_INPUT: 'The address or the request could not be read. Check the link you followed.',
  TOO_LARGE: 'The request is too large.',
  UNAVAILABLE: 'Something went wrong on the server. Try again; if it keeps happening, tell your administrator.',
}

/** The last handler of the app: every error Express itself catches becomes a plain refusal. */
export function productionErrors(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err)
    const given = Number((err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode)
    const status = given >= 400 && given < 500 ? given : 500
    const code = (Object.keys(STATUS_OF) as ErrorCode[]).find((c) => STATUS_OF[c] === status) ?? (status < 500 ? 'BAD_INPUT' : 'UNAVAILABLE')
    ;(status >= 500 ? logger.error : logger.warn).call(logger, { err, url: redactUrl(req.originalUrl).slice(0, 200) }, 'request failed before the app answered')
    refuse(req, res, code, MESSAGES[code] ?? MESSAGES.BAD_INPUT!)
  }
}
