/**
 * The edit form's files without JavaScript (issue 6, SPEC §2.6 file drop): a form with a fileDND
 * field is multipart/form-data, and the file a user chose arrives with the other fields. The body is
 * streamed: every file part goes to a temp file (never past the size limit, the rest read and
 * dropped so the other fields still arrive), text parts are kept with a limit. Before the post is
 * validated, each file of a fileDND field is checked and stored through the same files module as the
 * upload route, and its reference replaces the field's value (the current file, posted in a hidden
 * input of the same name); a refused file becomes that field's error and nothing is stored.
 */
import { unstable_parseMultipartFormData as parseMultipart, type UploadHandler } from '@remix-run/node'
import type { Env } from '../config/env.server'
import type { FieldDef, TableSchema } from '../schemas/table-schema'
import { AppError, isAppError } from '../utils/errors'
import { refuseForField } from './rules'
import { commitUpload, discardStaged, maxUploadBytes, stageUpload, type Staged } from './store.server'

/** One text value of a form post, and all of them together. */
const MAX_TEXT_PART = 1_000_000
const MAX_TEXT_TOTAL = 8_000_000

export interface FormUpload {
  /** the form field's name (`photo`, or `rows[0].photo` in a sub-table) */
  name: string
  original: string
  staged?: Staged
  /** why the file was refused while it was read (too large, a type that is not accepted) */
  error?: string
}

export interface EditForm {
  form: FormData
  uploads: FormUpload[]
}

/** Reads an edit form's post: plain or multipart, with any files staged (see the module comment). */
export async function readEditForm(request: Request, env: Pick<Env, 'DATA_DIR' | 'MAX_UPLOAD_MB'>): Promise<EditForm> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data/i.test(type)) return { form: await request.formData(), uploads: [] }
  const uploads: FormUpload[] = []
  const limit = maxUploadBytes(env)
  let text = 0
  const handler: UploadHandler = async ({ name, filename, data, contentType }) => {
    // a file part has a file name; some clients send an empty file input as a typed part without one
    if (typeof filename === 'string' || (contentType && !/^text\/plain/i.test(contentType))) {
      // a file input left empty posts a part with no file name and no bytes
      if (!filename) {
        for await (const _ of data); // drain the part unread
        return undefined
      }
      try {
        uploads.push({ name, original: filename, staged: await stageUpload(env.DATA_DIR, filename, data, limit, { drain: true }) })
      } catch (e) {
        if (!isAppError(e)) throw e
        uploads.push({ name, original: filename, error: e.message })
      }
      return undefined
    }
    const chunks: Uint8Array[] = []
    let size = 0
    for await (const chunk of data) {
      size += chunk.byteLength
      text += chunk.byteLength
      if (size > MAX_TEXT_PART || text > MAX_TEXT_TOTAL) throw new AppError('TOO_LARGE', 'This form post is too large.')
      chunks.push(chunk)
    }
    return Buffer.concat(chunks).toString('utf8')
  }
  try {
    return { form: await parseMultipart(request, handler), uploads }
  } catch (e) {
    await discardUploads(uploads)
    if (isAppError(e)) throw e
    throw new AppError('BAD_INPUT', 'The form post could not be read.')
  }
}

/** The fileDND field a form name stands for: a top-level field, or a column of a sub-table row. */
function fileFieldOf(schema: TableSchema, name: string): FieldDef | null {
  const m = /^([^.[\]]+)(?:\[\d+\]\.([^.[\]]+))?$/.exec(name)
  if (!m) return null
  const top = schema.fields.find((f) => f.key === m[1] && !f.ro)
  const f = m[2] ? top?.type === 'array' ? top.array?.find((c) => c.key === m[2] && !c.ro) : undefined : top
  return f?.type === 'fileDND' ? f : null
}

/**
 * Stores each staged file of a fileDND field in the organisation's files and puts its reference in
 * the form (replacing the current value). Returns the refused ones as field errors; files posted for
 * any other field are dropped. Every temp file is gone afterwards.
 */
export async function storeFormUploads(dataDir: string, org: string, schema: TableSchema, form: FormData, uploads: FormUpload[]): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {}
  for (const u of uploads) {
    const f = fileFieldOf(schema, u.name)
    if (!f) {
      if (u.staged) await discardStaged(u.staged)
      continue
    }
    const refused = u.error ?? (u.staged ? refuseForField(f.format, f.label, u.staged.ext) : null)
    if (refused || !u.staged) {
      if (u.staged) await discardStaged(u.staged)
      errors[u.name] = [refused ?? 'The file could not be read.']
      continue
    }
    try {
      const stored = await commitUpload(dataDir, org, u.staged)
      form.set(u.name, stored.path)
    } catch (e) {
      if (!isAppError(e)) throw e
      errors[u.name] = [e.message]
    }
  }
  return errors
}

/** Removes the temp files of uploads not stored (a refused or failed save). */
export async function discardUploads(uploads: FormUpload[]): Promise<void> {
  for (const u of uploads) if (u.staged) await discardStaged(u.staged)
}
