/**
 * /ReleaseNotes (issue 27 item 5): every published release note, newest first (any signed-in user;
 * the user menu links here), and the "What's new" notice's dismiss form, a plain post that records
 * the version seen and goes back to the page it came from (works without JavaScript).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { roleOf } from '../../auth/entitlements'
import { requireScreen } from '../../auth/screens.server'
import { safePath } from '../../utils/safe-url'
import { dismiss, publishedNotes } from './notes.server'
import { NOTES_SCREEN, WHATS_NEW_PATH } from './rules'

export async function releaseNotesLoader({ request, context }: LoaderFunctionArgs) {
  const { s } = await requireScreen(request, context, WHATS_NEW_PATH)
  const notes = await publishedNotes(context.database)
  const versions: Array<{ version: string; notes: typeof notes }> = []
  for (const n of notes) {
    const last = versions[versions.length - 1]
    if (last?.version === n.version) last.notes.push(n)
    else versions.push({ version: n.version, notes: [n] })
  }
  return json({ versions, canWrite: roleOf(s.user) === 'super', writePath: NOTES_SCREEN })
}

export async function releaseNotesAction({ request, context }: ActionFunctionArgs) {
  const { s } = await requireScreen(request, context, WHATS_NEW_PATH)
  const form = await request.formData()
  const version = String(form.get('version') ?? '').trim()
  const back = safePath(String(form.get('from') ?? '')) ?? WHATS_NEW_PATH
  if (String(form.get('intent') ?? '') !== 'dismiss') return json({ error: 'Unknown request.' }, { status: 400 })
  if (!(await dismiss(context.database, s.user.uid, version))) return json({ error: 'There is no published release note of that version.' }, { status: 400 })
  return redirect(back)
}
