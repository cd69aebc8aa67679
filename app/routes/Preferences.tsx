/**
 * Theme, language, kiosk and the drawer's collapse from the shell, the tables' density from the table toolbar (forms, so they work without
 * JavaScript: the answer is the page they came from). The drawer's button posts through a fetcher
 * with `js=1`: the answer is then a small JSON and the root loader reads the saved value again.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { savePrefs } from '../auth/preferences.server'
import { requireSession } from '../auth/require.server'
import { updateSession } from '../auth/session.server'
import { safePath } from '../utils/safe-url'

export const loader = () => redirect('/Welcome')

export async function action({ request, context }: ActionFunctionArgs) {
  const s = await requireSession(request, context)
  const form = await request.formData()
  let back = safePath(String(form.get('back') ?? '')) ?? '/Welcome'
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, requestId: context.requestId, session: s.session.id_hash }
  switch (form.get('intent')) {
    case 'theme':
      await savePrefs(context.database, actor, s.user.uid, s.session.facility, { light: form.get('light') === 'yes' })
      break
    case 'lang':
      await savePrefs(context.database, actor, s.user.uid, s.session.facility, { lang: form.get('lang') === 'es' ? 'es' : 'en' })
      break
    case 'drawer':
      await savePrefs(context.database, actor, s.user.uid, s.session.facility, { collapsed: form.get('collapsed') === 'yes' })
      if (form.get('js') === '1') return json({ ok: true })
      break
    case 'density':
      await savePrefs(context.database, actor, s.user.uid, s.session.facility, { density: form.get('density') === 'compact' ? 'compact' : 'comfortable' })
      break
    case 'kiosk':
      await updateSession(context.database, s.id, { kiosk: form.get('kiosk') === 'on' })
      // a page opened as ?kiosk=1 would switch kiosk mode straight back on: back to it without that
      back = withoutKioskParam(back)
      break
    default:
      throw new Response('Unknown preference.', { status: 400 })
  }
  return redirect(back)
}

function withoutKioskParam(path: string): string {
  const u = new URL(path, 'http://x')
  u.searchParams.delete('kiosk')
  return u.pathname + u.search
}
