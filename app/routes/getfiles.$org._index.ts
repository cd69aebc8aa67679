/**
 * GET /getfiles/{org}/?subdir=: the files of one folder of an organisation (SPEC §7: "an empty file
 * name lists"), as JSON [{ name, size, type, modified }] sorted by name: plain files only, not
 * recursing into sub-folders, no hidden or temp files, nothing getfiles would not serve
 * (app/files/storage.server.ts `list`). The same readers as a download without a token
 * (app/files/access.server.ts). A folder that does not exist is an empty list. Refusals are the
 * JSON error envelope: 400 bad folder name, 401 not signed in, 403 another organisation.
 * (Remix matches /getfiles/{org}/ and /getfiles/{org} here: a trailing slash is dropped.)
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { appErrorResponse } from '../api/respond.server'
import { fileReader, isPrivateFolder, mayRead } from '../files/access.server'
import { fileStorage, safeParts } from '../files/storage.server'
import { AppError, isAppError } from '../utils/errors'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const org = params.org ?? ''
  const subdir = new URL(request.url).searchParams.get('subdir') || null
  try {
    safeParts(org, subdir)
    if (isPrivateFolder(subdir)) throw new AppError('NOT_FOUND', 'No such folder.')
    const user = await fileReader(request, context)
    if (!mayRead(user, org)) throw new AppError('FORBIDDEN', 'These files belong to another organisation.')
    const files = await fileStorage(context.env.DATA_DIR).list(org, subdir)
    return Response.json(files, { headers: { 'Cache-Control': 'private, no-store' } })
  } catch (e) {
    if (isAppError(e)) return appErrorResponse(e)
    context.logger.error({ err: e, org, subdir }, 'file listing failed')
    return appErrorResponse(new AppError('UNAVAILABLE', 'The files could not be listed; try again later.'))
  }
}
