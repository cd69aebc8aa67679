/**
 * /SupportTicket (issue 27 item 3): a user's tickets and the form to open one (`?new=1&from={page}`:
 * the shell's Support button passes the page), platform staff's queue (`?status=`), one ticket's
 * thread (`?t={facility}:{id}`) with the reply form (staff also set the status). Multipart posts
 * without JavaScript; a file goes through the files module (type by its bytes, size limit).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { discardUploads, readEditForm } from '../../files/form-uploads.server'
import { commitUpload } from '../../files/store.server'
import { PLATFORM_ORG } from '../../route-map'
import { AppError, isAppError, statusOf } from '../../utils/errors'
import { writerOf } from '../documents/access.server'
import { myTickets, openTicket, queue, replyToTicket, safePage, setStatus, STATUS_LABEL, STATUSES, ticketThread } from './tickets.server'

export const SUPPORT = '/SupportTicket'

function parseRef(t: string | null): { org: string; id: string } | null {
  const m = /^([A-Za-z0-9_-]{1,64}):([A-Za-z0-9_-]{1,64})$/.exec(t ?? '')
  return m ? { org: m[1], id: m[2] } : null
}

export async function supportLoader({ request, context }: LoaderFunctionArgs) {
  const { s, facility } = await requireScreen(request, context, SUPPORT)
  const staff = s.user.role === 'super'
  const url = new URL(request.url)
  const ref = parseRef(url.searchParams.get('t'))
  let open: Awaited<ReturnType<typeof ticketThread>> | null = null
  if (ref) {
    if (!staff && ref.org !== facility) throw new Response('There is no such ticket.', { status: 404 })
    try {
      open = await ticketThread(context, ref.org, ref.id, { uid: s.user.uid, staff })
    } catch (e) {
      if (isAppError(e)) throw new Response(e.message, { status: statusOf(e) })
      throw e
    }
  }
  const names = new Map<string, string>()
  for (const uid of new Set([...(open?.posts.map((p) => p.author) ?? []), open?.ticket.requester ?? ''].filter(Boolean))) {
    const u = await context.database.store.get(PLATFORM_ORG, 'users', uid)
    names.set(uid, [u?.firstname, u?.lastname].filter(Boolean).join(' ') || String(u?.email ?? uid))
  }
  const status = url.searchParams.get('status')
  return json({
    staff,
    me: s.user.uid,
    tickets: staff ? await queue(context, status) : await myTickets(context, facility, s.user.uid),
    status,
    statuses: STATUSES.map((v) => ({ value: v, label: STATUS_LABEL[v] })),
    open: open ? { ...open, requesterName: names.get(open.ticket.requester) ?? open.ticket.requester, posts: open.posts.map((p) => ({ ...p, name: p.staff ? `${names.get(p.author) ?? p.author} (Canopy support)` : (names.get(p.author) ?? p.author) })) } : null,
    compose: url.searchParams.get('new') === '1' || (!staff && !ref && url.searchParams.has('from')),
    from: safePage(url.searchParams.get('from') ?? ''),
  })
}

export async function supportAction({ request, context }: ActionFunctionArgs) {
  const { s, facility } = await requireScreen(request, context, SUPPORT)
  const staff = s.user.role === 'super'
  const actor = writerOf(context, s, facility).actor
  let read
  try {
    read = await readEditForm(request, context.env)
  } catch (e) {
    if (isAppError(e)) return json({ error: e.message, intent: '', values: {} as Record<string, string> }, { status: statusOf(e) })
    throw e
  }
  const { form, uploads } = read
  const one = (k: string) => String(form.get(k) ?? '')
  const intent = one('intent')
  const values = { subject: one('subject'), body: one('body'), page: one('page') }
  try {
    const ref = parseRef(one('t'))
    const org = intent === 'open' ? facility : (ref?.org ?? '')
    if (intent !== 'open' && (!ref || (!staff && ref.org !== facility))) throw new AppError('NOT_FOUND', 'There is no such ticket.')
    // the file (one), stored in the ticket's facility's files under support/
    let file = ''
    const u = uploads.find((x) => x.name === 'file')
    if (u?.error) throw new AppError('BAD_INPUT', u.error, { field: 'file' })
    if (intent === 'status') {
      await setStatus(context, actor, org, ref!.id, one('status'))
      return redirect(`${SUPPORT}?t=${org}:${ref!.id}`)
    }
    // a refused text is refused before a file is kept
    if (!one('body').trim()) throw new AppError('BAD_INPUT', 'Describe what happened.', { field: 'body' })
    if (u?.staged) file = (await commitUpload(context.env.DATA_DIR, org, u.staged, 'support')).path
    if (intent === 'open') {
      const id = await openTicket(context, actor, facility, { ...values, file })
      return redirect(`${SUPPORT}?t=${facility}:${id}`)
    }
    if (intent === 'reply') {
      await replyToTicket(context, actor, staff, org, ref!.id, { body: values.body, file, status: staff ? one('status') : undefined })
      return redirect(`${SUPPORT}?t=${org}:${ref!.id}`)
    }
    throw new AppError('BAD_INPUT', 'Unknown request.')
  } catch (e) {
    await discardUploads(uploads)
    if (!isAppError(e)) throw e
    return json({ error: e.message, intent, values }, { status: statusOf(e) })
  }
}
