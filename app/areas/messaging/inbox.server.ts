/**
 * /MsgMessages (issue 27 item 1): the inbox, one conversation (`?c=`), the compose form (`?new=1`,
 * `&to=user:{uid}|group:{id}` to start one with someone). Everything is a link or a posted form, so
 * it works without JavaScript; with it the page and the shell's badge follow `unread` events.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { isAppError, statusOf } from '../../utils/errors'
import { writerOf } from '../documents/access.server'
import { staffOf } from '../documents/policies.server'
import { conversation, inbox, markRead, reply, startConversation, teamsOf, unreadCount } from './conversations.server'
import { announce } from './notify.server'
import { discardUploads, readEditForm } from '../../files/form-uploads.server'
import { acceptFor } from '../../files/rules'
import { messageFile } from './uploads.server'

export const MESSAGES_PATH = '/MsgMessages'

async function who(request: Request, context: LoaderFunctionArgs['context']) {
  const { s, facility } = await requireScreen(request, context, MESSAGES_PATH)
  const staff = await staffOf(context.database, facility)
  const teams = await teamsOf(context.database, facility, staff)
  const names = new Map<string, string>(staff.map((u) => [u.uid, u.name]))
  for (const t of teams) names.set(`group:${t.id}`, t.name)
  // whoever is in an old conversation but no longer on the staff list still has a name
  if (!names.has(s.user.uid)) names.set(s.user.uid, [s.user.firstname, s.user.lastname].filter(Boolean).join(' ') || s.user.email)
  return { s, facility, staff, teams, names }
}

export async function inboxLoader({ request, context }: LoaderFunctionArgs) {
  const { s, facility, staff, teams, names } = await who(request, context)
  const url = new URL(request.url)
  const c = url.searchParams.get('c')
  const uid = s.user.uid
  let open: Awaited<ReturnType<typeof conversation>> | null = null
  if (c) {
    try {
      open = await conversation(context.database, facility, c, uid, names)
    } catch (e) {
      if (isAppError(e)) throw new Response(e.message, { status: statusOf(e), statusText: e.message })
      throw e
    }
    await markRead(context.database, facility, c, uid)
    // the user's other pages (and the shell of this one, with JavaScript) see the count go down
    context.events.publishToUser(facility, uid, 'unread', { kind: 'messages', count: await unreadCount(context.database, facility, uid), thread: c })
  }
  const compose = url.searchParams.get('new') === '1'
  const files = compose || open ? (await context.database.store.find(facility, 'doc_files', {}, 300)).filter((d) => typeof d.file === 'string' && d.file).map((d) => ({ id: d._id, name: String(d.name ?? d._id) })) : []
  files.sort((a, b) => a.name.localeCompare(b.name))
  return json({
    me: uid,
    threads: await inbox(context.database, facility, uid, names),
    open,
    compose,
    to: url.searchParams.get('to') ?? '',
    people: staff.filter((u) => u.uid !== uid).map((u) => ({ value: `user:${u.uid}`, label: u.name })),
    teams: teams.map((t) => ({ value: `group:${t.id}`, label: `${t.name} (${t.members.length})` })),
    files,
    // what the upload input takes: the file store's own limits (app/files)
    upload: { accept: acceptFor(undefined), maxMb: context.env.MAX_UPLOAD_MB },
  })
}

export async function inboxAction({ request, context }: ActionFunctionArgs) {
  const { s, facility } = await requireScreen(request, context, MESSAGES_PATH)
  // a compose form with a file is multipart: its files are staged (size-limited) to temp files, placed only when the post is saved
  let read: Awaited<ReturnType<typeof readEditForm>>
  try {
    read = await readEditForm(request, context.env)
  } catch (e) {
    if (!isAppError(e)) throw e
    return json({ error: e.message, intent: '', field: 'upload' as string | null, values: {} as Record<string, string> }, { status: statusOf(e) })
  }
  const { form, uploads } = read
  const files = { dataDir: context.env.DATA_DIR, uploads }
  const all = (k: string) => form.getAll(k).map(String)
  const one = (k: string) => String(form.get(k) ?? '')
  const actor = writerOf(context, s, facility).actor
  const intent = one('intent')
  try {
    if (intent === 'send') {
      const r = await startConversation(context.database, actor, facility, { to: all('to'), subject: one('subject'), body: one('body'), attach: all('attach'), files })
      await announce(context.database, context.events, facility, r.members, r.threadId)
      return redirect(`${MESSAGES_PATH}?c=${encodeURIComponent(r.threadId)}`)
    }
    if (intent === 'reply') {
      const c = one('c')
      const r = await reply(context.database, actor, facility, c, { body: one('body'), attach: all('attach'), files })
      await announce(context.database, context.events, facility, r.members, c)
      return redirect(`${MESSAGES_PATH}?c=${encodeURIComponent(c)}`)
    }
    return json({ error: 'Unknown request.', intent, field: null as string | null, values: {} as Record<string, string> }, { status: 400 })
  } catch (e) {
    if (!isAppError(e)) throw e
    const field = (e.details as { field?: string } | undefined)?.field ?? null
    if (field === 'upload') context.logger.info({ uid: s.user.uid, code: e.code, why: e.message }, 'message upload refused')
    return json({ error: e.message, intent, field, values: { to: one('to'), subject: one('subject'), body: one('body') } }, { status: statusOf(e) })
  } finally {
    // whatever was not placed (a refusal, an unused file) leaves no temp file behind
    await discardUploads(uploads)
  }
}

/** GET /MsgMessages/file/{conversation}/{name}: a file uploaded in a conversation, to its members only (404 for anyone else). */
export async function messageFileLoader({ request, context, params }: LoaderFunctionArgs) {
  const { s, facility } = await requireScreen(request, context, MESSAGES_PATH)
  try {
    const f = await messageFile(context.database, context.env.DATA_DIR, facility, params.thread ?? '', s.user.uid, params.name ?? '')
    return new Response(f.file.body, {
      headers: {
        'Content-Type': f.type,
        'Content-Length': String(f.file.size),
        'Content-Disposition': `attachment; filename="${f.original.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.original)}`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      },
    })
  } catch (e) {
    if (isAppError(e)) throw new Response(e.message, { status: statusOf(e) })
    throw e
  }
}
