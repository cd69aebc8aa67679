/** Theme, language and kiosk switches from the shell (forms, so they work without JavaScript). */
import type { ActionFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { savePrefs } from '../auth/preferences.server'
import { requireSession } from '../auth/require.server'
import { updateSession } from '../auth/session.server'
import { safePath } from '../utils/safe-url'

export const loader = () => redirect('/Welcome')

export async function action({ request, context }: ActionFunctionArgs) {
  const s = await requireSession(request, context)
  const form = await request.formData()
  const back = safePath(String(form.get('back') ?? '')) ?? '/Welcome'
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, requestId: context.requestId, session: s.session.id_hash }
  switch (form.get('intent')) {
    case 'theme':
      await savePrefs(context.database, actor, s.user.uid, s.session.facility, { light: form.get('light') === 'yes' })
      break
    case 'lang':
      await savePrefs(context.database, actor, s.user.uid, s.session.facility, { lang: form.get('lang') === 'es' ? 'es' : 'en' })
      break
    case 'kiosk':
      await updateSession(context.database, s.id, { kiosk: form.get('kiosk') === 'on' })
      break
    default:
      throw new Response('Unknown preference.', { status: 400 })
  }
  return redirect(back)
}
