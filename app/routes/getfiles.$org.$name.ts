/**
 * GET /getfiles/{org}/{name}?subdir=&token=: a file an organisation keeps (its logo first of all: the
 * footer shows /getfiles/{org}/logo.png; then what its users upload, app/files/store.server.ts),
 * read through the storage interface (app/files/storage.server.ts, which refuses any path that could
 * leave the organisation's folder). Who may read it (app/files/access.server.ts): the signed-in
 * users of that organisation (session cookie or `x-access-token`), everyone signed in for the
 * platform's own files; or anyone holding a valid download token for exactly this file
 * (`?token=`, app/files/tokens.server.ts, made by POST /files/{org}/token). Text files (csv, txt) are
 * always downloads, never shown. Refusals: a short text for a browser, the JSON error envelope
 * for an API client (x-access-token): 400 bad name, 401 not signed in or a bad/expired token,
 * 403 another organisation or a token for another file, 404 no such file.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { apiError } from '../api/respond.server'
import { isApiCall } from '../auth/api-caller.server'
import { fileReader, isPrivateFolder, mayRead } from '../files/access.server'
import { fileStorage, safeParts, servedType } from '../files/storage.server'
import { tokenFits, verifyFileToken } from '../files/tokens.server'
import { isAppError, STATUS_OF, type ErrorCode } from '../utils/errors'

/** shown as text would invite a browser to guess: always saved instead */
const DOWNLOAD = /\.(csv|txt)$/i

const text = (status: number, body: string) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const org = params.org ?? ''
  const name = params.name ?? ''
  const query = new URL(request.url).searchParams
  const subdir = query.get('subdir') || null
  const token = query.get('token')
  const fail = (code: ErrorCode, message: string) => (isApiCall(request) ? apiError(code, message) : text(STATUS_OF[code], message))
  try {
    try {
      safeParts(org, subdir, name)
    } catch {
      return fail('BAD_INPUT', 'That is not a file name.')
    }
    // an area's private folder (a message's files) is served by that area's route only
    if (isPrivateFolder(subdir)) return fail('NOT_FOUND', 'No such file.')
    if (token !== null) {
      const check = verifyFileToken(context.env.SESSION_SECRET, token)
      if (!check.ok) return fail('UNAUTHENTICATED', check.reason === 'expired' ? 'This download link has expired; ask for a new one.' : 'This download link is not valid.')
      if (!tokenFits(check.claims, org, subdir, name)) return fail('FORBIDDEN', 'This download link is for another file.')
    } else {
      const user = await fileReader(request, context)
      if (!mayRead(user, org)) return fail('FORBIDDEN', 'This file belongs to another organisation.')
    }
    const type = servedType(name)
    if (!type) return fail('NOT_FOUND', 'No such file.')
    const file = await fileStorage(context.env.DATA_DIR).get(org, subdir, name)
    if (!file) return fail('NOT_FOUND', 'No such file.')
    // SVG could carry script: never let it run in our origin
    const headers: Record<string, string> = {
      'Content-Type': type,
      'Content-Length': String(file.size),
      'Last-Modified': file.mtime.toUTCString(),
      'Cache-Control': token !== null ? 'private, no-store' : 'private, max-age=300',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'Referrer-Policy': 'no-referrer',
    }
    if (DOWNLOAD.test(name)) headers['Content-Disposition'] = `attachment; filename="${name}"`
    return new Response(file.body, { headers })
  } catch (e) {
    if (isAppError(e)) {
      if (e.code === 'FORBIDDEN') context.logger.warn({ org, subdir, name, why: e.message }, 'file read refused')
      return fail(e.code, e.message)
    }
    context.logger.error({ err: e, org, name }, 'file read failed')
    return fail('UNAVAILABLE', 'The file could not be read; try again later.')
  }
}
