/**
 * Refusals written by the Express middleware before Remix sees a request (rate limit, body size,
 * timeout). API callers get the JSON error envelope of app/api/respond.server.ts; a browser asking
 * for a page gets a short page that says what happened, in the console's words.
 */
import type { Request, Response } from 'express'
import { errorEnvelope } from '../api/respond.server'
import { STATUS_OF, type ErrorCode } from '../utils/errors'

/** Paths of the JSON API (SPEC §7): refusals there are the envelope, never HTML. */
const API_PREFIXES = ['/dt/', '/misc/', '/auth/', '/files', '/api/']

/** An API call: an API path, or any request an API client makes with its access token. */
export function isApiRequest(req: Pick<Request, 'path' | 'headers'>): boolean {
  return API_PREFIXES.some((p) => req.path.startsWith(p)) || typeof req.headers['x-access-token'] === 'string'
}

const TITLE: Partial<Record<ErrorCode, string>> = {
  TOO_MANY: 'Too many requests',
  TOO_LARGE: 'Request too large',
  UNAVAILABLE: 'The server is busy',
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Answers `code` with its status: the envelope for the API, a small page otherwise. When the
 * request body is still arriving the connection is closed afterwards (`Connection: close`), so
 * Node does not read the rest of an oversized or unwanted body just to reuse the connection.
 */
export function refuse(req: Request, res: Response, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return
  res.status(STATUS_OF[code]).set({ 'Cache-Control': 'no-store', ...headers })
  if (!req.complete) res.set('Connection', 'close')
  if (isApiRequest(req)) {
    res.json(errorEnvelope(code, message))
    return
  }
  const title = TITLE[code] ?? 'Request refused'
  res
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} · Canopy</title></head>` +
        `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>${title}</h1><p>${escape(message)}</p><p><a href="/">Back to Canopy</a></p></body></html>`,
    )
}
