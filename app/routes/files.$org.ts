/**
 * POST /files/{org}?subdir=: the files API's upload (SPEC §7), what the edit form's file drop sends
 * with XMLHttpRequest so it can show progress. multipart/form-data with the file as `files[0]`
 * (or `files`); signed-in users of that organisation only (the session cookie, or an API client's
 * x-access-token; app/files/access.server.ts). A body whose Content-Length is over the limit is
 * refused before a byte is read; a streamed one stops at the limit. Each file goes through
 * app/files/store.server.ts (allow-list, first-bytes check, temp file then rename).
 *
 * Answers { files: [{ name, path, size, type }] }, or the JSON error envelope: 400 bad request,
 * 401 not signed in, 403 another organisation, 413 too large, 415 a type that is not accepted.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { apiError } from '../api/respond.server'
import { signedInCaller } from '../auth/api-caller.server'
import { isPrivateFolder, mayWrite } from '../files/access.server'
import { parseMultipart, type PartHandler } from '../files/multipart.server'
import { FILE_MSG } from '../files/rules'
import { folderOf, maxUploadBytes, removeStored, saveUpload, type StoredFile } from '../files/store.server'
import { AppError, isAppError } from '../utils/errors'

/** Room for the multipart boundaries and headers around the file. */
const OVERHEAD = 64 * 1024
/** Files one request may carry. */
const MAX_FILES = 5
const FILE_PART = /^files(\[\d{1,2}\])?$/

/** Anything but a file part of the body: read and dropped (a few small fields at most). */
async function drop(data: AsyncIterable<Uint8Array>): Promise<void> {
  let n = 0
  for await (const chunk of data) if ((n += chunk.byteLength) > OVERHEAD) throw new AppError('TOO_LARGE', 'A form field of this request is too large.')
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const org = params.org ?? ''
  const subdir = new URL(request.url).searchParams.get('subdir') || null
  const refuse = (code: AppError['code'], message: string, extra: object = {}) => {
    context.logger.info({ org, subdir, code, why: message, ...extra }, 'upload refused')
    return apiError(code, message)
  }
  if (request.method !== 'POST') return apiError('BAD_INPUT', 'Upload with POST.', { headers: { Allow: 'POST' } })
  const stored: StoredFile[] = []
  try {
    const user = await signedInCaller(request, context)
    folderOf(context.env.DATA_DIR, org, subdir)
    if (isPrivateFolder(subdir)) return refuse('FORBIDDEN', 'That folder is kept by the app itself.', { uid: user.uid })
    if (!mayWrite(user, org)) return refuse('FORBIDDEN', 'You can not upload files to another organisation.', { uid: user.uid })
    if (!/^multipart\/form-data\s*;\s*boundary=/i.test(request.headers.get('content-type') ?? '')) return refuse('BAD_INPUT', 'Send the file as multipart/form-data.')
    const limit = maxUploadBytes(context.env)
    const length = Number(request.headers.get('content-length') ?? 0)
    if (length > limit + OVERHEAD) return refuse('TOO_LARGE', FILE_MSG.tooBig('The file', limit), { uid: user.uid, length })

    const handler: PartHandler = async ({ name, filename, data }) => {
      if (typeof filename !== 'string' || !FILE_PART.test(name)) return void (await drop(data))
      if (!filename) return void (await drop(data)) // a file input left empty
      if (stored.length >= MAX_FILES) throw new AppError('BAD_INPUT', `Send at most ${MAX_FILES} files at once.`)
      stored.push(await saveUpload(context.env.DATA_DIR, org, filename, data, limit, subdir))
      return undefined
    }
    try {
      await parseMultipart(request, handler)
    } catch (e) {
      if (isAppError(e)) throw e
      throw new AppError('BAD_INPUT', 'The upload could not be read as multipart/form-data.')
    }
    if (!stored.length) return refuse('BAD_INPUT', FILE_MSG.noFile, { uid: user.uid })
    context.logger.info({ org, subdir, uid: user.uid, files: stored.map((f) => ({ name: f.name, size: f.size })) }, 'files uploaded')
    return Response.json({ files: stored.map(({ name, path, size, type }) => ({ name, path, size, type })) })
  } catch (e) {
    // a refusal part-way keeps nothing of this request
    for (const f of stored) await removeStored(context.env.DATA_DIR, org, f, subdir).catch(() => {})
    if (isAppError(e)) return refuse(e.code, e.message)
    context.logger.error({ err: e, org }, 'upload failed')
    return apiError('UNAVAILABLE', 'The server could not store the file; try again later.')
  }
}

export function loader() {
  return apiError('BAD_INPUT', 'Upload with POST; files are read with GET /getfiles/{org}/{name}.', { headers: { Allow: 'POST' } })
}
