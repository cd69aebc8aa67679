/**
 * /saved-views (decision 073): GET `?screen=/CulPlants` lists the screen's views this user sees with
 * their controls (rename, share/unshare, pin/unpin, delete); POST saves the table's current view
 * (`intent=save`: screen, query, name, shared, pinned; from the table toolbar's More menu) or changes
 * one (`intent=rename|share|unshare|pin|unpin|delete`, `id`). Plain forms, so all of it works
 * without JavaScript: a save goes back to the saved view with a confirmation (`done=`), a change to
 * this page; a refused one answers this page with the message and nothing changed.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import type { AppLoadContext } from '@remix-run/node'
import { requireScreen } from '../auth/screens.server'
import { changeView, listViews, saveView, type SavedView, type ViewUser } from './saved-views.server'
import { readView } from './table-page.server'

export interface SavedViewsPage {
  screen: string
  title: string
  views: SavedView[]
  done: string | null
}

export type SavedViewsAnswer = { error: string; draft?: { name: string; query: string; shared: boolean; pinned: boolean } }

/** The table screen a request names, for a user who may open it; else the error page. */
async function target(request: Request, context: AppLoadContext, screenPath: string) {
  if (!screenPath.startsWith('/') || screenPath.length > 200) throw new Response('Name the table screen the views belong to.', { status: 400 })
  const { s, facility, screen } = await requireScreen(request, context, screenPath)
  const route = screen.route
  if (!route.collection || screen.workflows || route.path === '/Table') throw new Response('This screen has no table views to save.', { status: 404 })
  const vu: ViewUser = { user: s.user, facility, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash } }
  return { route, vu }
}

export async function savedViewsLoader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const { route, vu } = await target(request, context, url.searchParams.get('screen') ?? '')
  return json({ screen: route.path, title: route.title, views: await listViews(context.database, vu, route.path), done: url.searchParams.get('done') } satisfies SavedViewsPage)
}

export async function savedViewsAction({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const field = (k: string) => String(form.get(k) ?? '')
  const { route, vu } = await target(request, context, field('screen'))
  const intent = field('intent')
  if (intent === 'save') {
    const raw = field('query').replace(/^\?/, '')
    // the same reading the table does: a column the table does not have is left out
    const view = await readView(context, route, vu.facility, new URL(`http://x${route.path}?${raw}`), vu.user)
    const shared = form.get('shared') === 'on'
    const pinned = form.get('pinned') === 'on'
    const out = await saveView(context.database, vu, route.path, { name: form.get('name'), query: view.query, shared, pinned })
    if ('error' in out) return json({ error: out.error, draft: { name: field('name'), query: raw, shared, pinned } } satisfies SavedViewsAnswer, { status: 400 })
    return redirect(withDone(out.view.href, out.message))
  }
  const change =
    intent === 'rename' ? { rename: form.get('name') } : intent === 'share' || intent === 'unshare' ? { share: intent === 'share' } : intent === 'pin' || intent === 'unpin' ? { pin: intent === 'pin' } : intent === 'delete' ? { remove: true as const } : null
  if (!change) return json({ error: 'This page takes no such request.' } satisfies SavedViewsAnswer, { status: 400 })
  const out = await changeView(context.database, vu, field('id'), change)
  if ('error' in out) return json({ error: out.error } satisfies SavedViewsAnswer, { status: 400 })
  return redirect(withDone(`/saved-views?screen=${encodeURIComponent(route.path)}`, out.message))
}

function withDone(href: string, message: string): string {
  return `${href}${href.includes('?') ? '&' : '?'}done=${encodeURIComponent(message)}`
}
