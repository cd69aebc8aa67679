/** Loader and action of the edit pages (`$screen.new.tsx`, `$screen.$id.edit.tsx`): one implementation for both. */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSession } from '../auth/require.server'
import { discardUploads, readEditForm } from '../files/form-uploads.server'
import { refusedAsPage } from '../utils/errors'
import { editTarget, loadEdit, saveRecord } from './record-edit.server'


export async function editLoader({ request, context, params }: LoaderFunctionArgs) {
  const s = await requireSession(request, context)
  const url = new URL(request.url)
  const { route, facility } = await editTarget(context, s, `/${params.screen ?? ''}`).catch(refusedAsPage)
  return json(await loadEdit(context, s, route, facility, url, params.id ?? null).catch(refusedAsPage))
}

export async function editAction({ request, context, params }: ActionFunctionArgs) {
  const s = await requireSession(request, context)
  const url = new URL(request.url)
  const { route, facility } = await editTarget(context, s, `/${params.screen ?? ''}`).catch(refusedAsPage)
  // a form with a file field is multipart: its files are streamed to temp files (size-limited) and stored or refused by saveRecord
  const { form, uploads } = await readEditForm(request, context.env).catch(refusedAsPage)
  const out = await saveRecord(context, s, route, facility, url, params.id ?? null, form, uploads)
    .catch(refusedAsPage)
    .finally(() => discardUploads(uploads))
  if (!out.ok) {
    // 200: an Add row / Remove button pressed without JavaScript, not a refusal
    if (out.status !== 200) context.logger.info({ path: url.pathname, status: out.status }, 'save refused')
    return json(out.reply, { status: out.status })
  }
  const [path, query = ''] = out.back.split('?')
  const back = new URLSearchParams(query)
  back.delete('_data')
  back.set('msg', 'saved')
  return redirect(`${path}?${back}`)
}
