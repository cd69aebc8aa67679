/**
 * POST /metrc/sync {screen, full?}: sync that Metrc screen's table now (issue 9, "Sync now"; full=1:
 * read it all again, issue 21), for a user
 * entitled to the screen; POST /metrc/link {screen, state, license, key}: link this facility to
 * METRC (admins and super), the credentials checked against METRC first. Plain form posts, so they
 * work without JavaScript: both go back to the screen, which shows how the sync went (or why the
 * credentials were refused: ?metrc=license|key). While Sync now runs, its progress (requests and
 * rows read so far) goes to the user's pages as `metrc-sync` server-sent events: with JavaScript the
 * panel shows it until the answer comes.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { z } from 'zod'
import { requireSession } from '../auth/require.server'
import { CREDENTIAL_STATES } from '../auth/messages'
import { metrcEndpoint } from '../metrc/connection.server'
import { credentialChecker } from '../metrc/credentials.server'
import { saveLink } from '../metrc/sync/links.server'
import { syncTable, type SyncProgress } from '../metrc/sync/run.server'
import { SYNC_TABLES } from '../metrc/sync/tables'
import { editTarget } from '../screens/record-edit.server'
import { isAppError } from '../utils/errors'

/** the least time between two progress events of one Sync now */
const PROGRESS_MS = 150

const LINK = z.object({ state: z.enum(CREDENTIAL_STATES), license: z.string().trim().min(1).max(60), key: z.string().trim().min(1).max(200) })

export async function action({ request, params, context }: ActionFunctionArgs) {
  const s = await requireSession(request, context)
  const form = await request.formData()
  const screen = String(form.get('screen') ?? '')
  if (!screen.startsWith('/') || screen.length > 100) return new Response('screen: the Metrc screen this comes from', { status: 400 })
  const { route, facility } = await editTarget(context, s, screen)
  const back = (q = '') => redirect(`${route.path}${q}`)
  if (!route.collection || !SYNC_TABLES.has(route.collection)) return new Response('This screen is not a Metrc table.', { status: 400 })
  const endpoint = metrcEndpoint(context.env)
  if (params.action === 'sync') {
    if (!endpoint) return back('?metrc=none')
    // progress to this user's pages (server-sent events), at most every PROGRESS_MS; the post itself still waits
    const tell = (p: SyncProgress & { done: boolean; status?: string }) => context.events.publishToUser(facility, s.user.uid, 'metrc-sync', p)
    let told = 0
    const onProgress = (p: SyncProgress) => {
      if (Date.now() - told < PROGRESS_MS) return
      told = Date.now()
      tell({ ...p, done: false })
    }
    // "Read all again": the whole table from METRC, not only what changed (what METRC no longer lists goes)
    const full = form.get('full') === '1'
    const r = await syncTable({ database: context.database, secret: context.env.SESSION_SECRET, endpoint, logger: context.logger, full, client: { attempts: 3, maxRetryAfterMs: 5000 }, onProgress }, facility, route.collection)
    tell({ collection: route.collection, requests: r.requests, rows: r.seen, done: true, status: r.status })
    return back('?metrc=synced')
  }
  if (params.action === 'link') {
    if (s.user.role !== 'admin' && s.user.role !== 'super') return new Response('Only an admin of this facility may link it to METRC.', { status: 403 })
    const v = LINK.safeParse(Object.fromEntries(form))
    if (!v.success) return back('?metrc=incomplete')
    try {
      await saveLink(context.database, context.env.SESSION_SECRET, { uid: s.user.uid, origUid: s.session.orig_uid, requestId: context.requestId }, facility, v.data, credentialChecker(context.env))
    } catch (e) {
      if (isAppError(e) && e.code === 'BAD_INPUT') return back(`?metrc=${(e.details as { field?: string } | undefined)?.field === 'license' ? 'license' : 'key'}`)
      throw e
    }
    return back('?metrc=linked')
  }
  return new Response('There is no such METRC action (sync, link).', { status: 404 })
}
