/**
 * /{screen}/import's loader and action (decision 070): GET shows the upload form, or with `?id=` an
 * import's preview or result; POST takes the file (multipart, at most IMPORT_MAX_BYTES), then the
 * confirm (`intent=import`, `choice=good|all`) or the undo (`intent=undo`), each posting only the
 * import's id: plain forms, so it all works without JavaScript.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { isMultipart, MultipartError, parseMultipart } from '../files/multipart.server'
import { IMPORT_MAX_BYTES } from './csv-import'
import { importPage, importTarget, runImport, undoImport, uploadImport } from './csv-import.server'

const MAX_MB = IMPORT_MAX_BYTES / 1_048_576

export async function importLoader({ request, context, params }: LoaderFunctionArgs) {
  const t = await importTarget(request, context, `/${params.screen ?? ''}`)
  const id = new URL(request.url).searchParams.get('id')
  return json(await importPage(context, t, id && id.length <= 64 ? id : id ? '-' : null, MAX_MB))
}

/** The posted file's name and text, or why it cannot be read. */
async function readUpload(request: Request): Promise<{ name: string; text: string } | { error: string }> {
  let name = ''
  let size = 0
  const chunks: Uint8Array[] = []
  try {
    await parseMultipart(
      request,
      async (part) => {
        // only the file is needed (the parser drains what a handler leaves unread)
        if (part.name !== 'file' || part.filename === undefined) return null
        name = part.filename
        // read to the end (the parser needs the body drained), keeping no more than the limit
        for await (const c of part.data) {
          size += c.byteLength
          if (size <= IMPORT_MAX_BYTES) chunks.push(c)
        }
        return null
      },
      { parts: 10 },
    )
  } catch (e) {
    if (e instanceof MultipartError) return { error: 'The upload could not be read. Choose the file again and press Upload.' }
    throw e
  }
  if (!name) return { error: 'Choose a CSV file first.' }
  if (size > IMPORT_MAX_BYTES) return { error: `The file is ${(size / 1_048_576).toFixed(1)} MB; one import takes at most ${MAX_MB} MB. Split it into smaller files.` }
  try {
    return { name, text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) }
  } catch {
    return { error: 'The file is not UTF-8 text. Save it from your spreadsheet as "CSV UTF-8" and upload it again.' }
  }
}

export async function importAction({ request, context, params }: ActionFunctionArgs) {
  const t = await importTarget(request, context, `/${params.screen ?? ''}`)
  const here = `${t.route.path}/import`
  if (isMultipart(request)) {
    const up = await readUpload(request)
    if ('error' in up) return json({ error: up.error }, { status: 400 })
    const r = await uploadImport(context, t, up.name, up.text)
    if ('error' in r) return json({ error: r.error }, { status: 400 })
    return redirect(`${here}?id=${encodeURIComponent(r.id)}`)
  }
  const form = await request.formData()
  const id = String(form.get('id') ?? '').slice(0, 64)
  const intent = form.get('intent')
  const r = intent === 'undo' ? await undoImport(context, t, id) : intent === 'import' ? await runImport(context, t, id, form.get('choice') === 'all' ? 'all' : 'good') : { error: 'Unknown request.' }
  if ('error' in r) return json({ error: r.error }, { status: 409 })
  // the page tells what was done from the import's state (a reload posts nothing again)
  return redirect(`${here}?id=${encodeURIComponent(id)}`)
}
