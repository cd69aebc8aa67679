/**
 * Files uploaded while writing a message (issue 27): stored through the organisation's file store
 * (app/files: the same allow-list, first-bytes check and MAX_UPLOAD_MB as every upload) in the
 * facility's private folder `private/msg` (decision 059: getfiles and the files API never serve it),
 * and served by /MsgMessages/file/{conversation}/{name} to the conversation's members only: anyone
 * else, in this facility or another, gets 404, as if there were no such file.
 */
import type { FormUpload } from '../../files/form-uploads.server'
import { discardUploads } from '../../files/form-uploads.server'
import { PRIVATE_FOLDER } from '../../files/access.server'
import { fileStorage, safeParts, servedType, type FileBody } from '../../files/storage.server'
import { commitUpload, removeStored, type StoredFile } from '../../files/store.server'
import type { Database } from '../../db/index.server'
import { AppError } from '../../utils/errors'
import type { Attachment } from './conversations.server'

/** Where a facility's message files are kept (under DATA_DIR/files/{facility}/). */
export const MSG_FOLDER = `${PRIVATE_FOLDER}/msg`
/** The id of an uploaded attachment: its stored name behind this prefix (a document's id never has it). */
export const UPLOAD_ID = 'upload:'

export const fileUrl = (threadId: string, name: string) => `/MsgMessages/file/${encodeURIComponent(threadId)}/${encodeURIComponent(name)}`

/** The uploads of a post that actually carry a file (an empty file input sends none). */
export const chosen = (uploads: FormUpload[] | undefined): FormUpload[] => (uploads ?? []).filter((u) => u.name === 'upload')

/**
 * Refuses the post when any upload was refused while it was read (too large, a type not accepted):
 * called before anything is written, so a refusal stores nothing.
 */
export function checkUploads(uploads: FormUpload[]): void {
  const bad = uploads.find((u) => u.error || !u.staged)
  if (bad) throw new AppError(/larger than/.test(bad.error ?? '') ? 'TOO_LARGE' : 'UNSUPPORTED', bad.error ?? `${bad.original} could not be read.`, { field: 'upload' })
}

/** Places the staged uploads in the facility's message folder; all or none (a refusal removes what was placed). */
export async function placeUploads(dataDir: string, facility: string, threadId: string, uploads: FormUpload[]): Promise<{ attachments: Attachment[]; stored: StoredFile[] }> {
  const stored: StoredFile[] = []
  try {
    for (const u of uploads) stored.push(await commitUpload(dataDir, facility, u.staged!, MSG_FOLDER))
  } catch (e) {
    await forgetUploads(dataDir, facility, stored)
    await discardUploads(uploads)
    throw e instanceof AppError ? new AppError(e.code, e.message, { field: 'upload' }) : e
  }
  return { stored, attachments: stored.map((f) => ({ id: `${UPLOAD_ID}${f.name}`, name: f.original, url: fileUrl(threadId, f.name) })) }
}

/** Removes placed files again (the post that carried them was not saved). */
export async function forgetUploads(dataDir: string, facility: string, stored: StoredFile[]): Promise<void> {
  for (const f of stored) await removeStored(dataDir, facility, f, MSG_FOLDER).catch(() => {})
}

/**
 * A file of a conversation, for one of its members: the stored file and the name it was uploaded
 * with. Not a member, not a file of this conversation, no such file: NOT_FOUND.
 */
export async function messageFile(database: Database, dataDir: string, facility: string, threadId: string, uid: string, name: string): Promise<{ file: FileBody; original: string; type: string }> {
  const none = new AppError('NOT_FOUND', 'There is no such file.')
  try {
    safeParts(facility, MSG_FOLDER, name)
  } catch {
    throw none
  }
  const r = await database.db.query<{ name: string }>(
    `SELECT a->>'name' AS name FROM msg_posts p JOIN msg_members m ON m.org = p.org AND m.thread_id = p.thread_id AND m.uid = $3,
       jsonb_array_elements(p.attachments) a
     WHERE p.org = $1 AND p.thread_id = $2 AND a->>'id' = $4 LIMIT 1`,
    [facility, threadId, uid, `${UPLOAD_ID}${name}`],
  )
  const type = servedType(name)
  if (!r.rows.length || !type) throw none
  const file = await fileStorage(dataDir).get(facility, MSG_FOLDER, name)
  if (!file) throw none
  return { file, original: r.rows[0].name || name, type }
}
