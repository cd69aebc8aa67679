/**
 * POST /files/{org}/token {name, subdir?}: a download link for one file of the organisation
 * (app/files/tokens.server.ts), for a link opened in a new tab or handed to a device: answers
 * { token, url, expires } where url is /getfiles/{org}/{name}?[subdir=&]token=… and works without a
 * session until `expires` (FILE_TOKEN_TTL_S, 300 s unless set). For a signed-in user who may read
 * that organisation's files (session or x-access-token, app/files/access.server.ts), and only for a
 * file that exists. Refusals: the JSON error envelope (400, 401, 403, 404).
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { api, apiError, readJson } from '../api/respond.server'
import { signedInCaller } from '../auth/api-caller.server'
import { isPrivateFolder, mayRead } from '../files/access.server'
import { fileStorage, safeParts } from '../files/storage.server'
import { referenceOf } from '../files/store.server'
import { signFileToken } from '../files/tokens.server'
import { AppError } from '../utils/errors'

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError('NOT_ALLOWED', 'Ask for a download link with POST.', { headers: { Allow: 'POST' } })
  return api(async () => {
    const org = params.org ?? ''
    const user = await signedInCaller(request, context)
    const body = (await readJson(request, 4096)) as { name?: unknown; subdir?: unknown } | null
    const name = typeof body?.name === 'string' ? body.name : ''
    const subdir = typeof body?.subdir === 'string' && body.subdir ? body.subdir : null
    if (!name) throw new AppError('BAD_INPUT', 'Send the file as {"name": …, "subdir"?: …}.', { field: 'name' })
    safeParts(org, subdir, name)
    if (isPrivateFolder(subdir)) throw new AppError('NOT_FOUND', 'No such file.')
    if (!mayRead(user, org)) throw new AppError('FORBIDDEN', 'This file belongs to another organisation.')
    if (!(await fileStorage(context.env.DATA_DIR).stat(org, subdir, name))) throw new AppError('NOT_FOUND', 'No such file.')
    const { token, exp } = signFileToken(context.env.SESSION_SECRET, { org, subdir, name, sub: user.uid }, context.env.FILE_TOKEN_TTL_S)
    const ref = referenceOf(org, name, subdir)
    context.logger.info({ org, subdir, name, uid: user.uid, exp }, 'download link made')
    return Response.json({ token, url: `${ref}${ref.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`, expires: new Date(exp * 1000).toISOString() })
  }, context.logger)
}

export function loader() {
  return apiError('NOT_ALLOWED', 'Ask for a download link with POST {name, subdir?}.', { headers: { Allow: 'POST' } })
}
