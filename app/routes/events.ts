/**
 * GET /events: the browser's server-sent events stream (SPEC §8 server connection toasts, table
 * changes, sensor readings, notifications). Signed-in users only; one stream per tab, scoped to the
 * session's facility and to the tables the user may read (notifications: to that user only). A
 * heartbeat every 25 s keeps proxies from closing an idle stream and shows the server is alive;
 * it does not count as activity for the idle timeout.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { eventStream } from 'remix-utils/sse/server'
import { findUser } from '../auth/accounts.server'
import { loadSession, readSessionId, sessionIsLive } from '../auth/session.server'
import { readableCollections } from '../records/access.server'

const HEARTBEAT_MS = 25_000

export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = readSessionId(request)
  const look = await loadSession(context.database, id, context.env.IDLE_TIMEOUT_S)
  // a plain 401 (not a redirect to the login page): EventSource then stops and the page says so
  if (look.state !== 'active' || look.session.step !== 'done') return new Response('Sign in first.', { status: 401, headers: { 'Content-Type': 'text/plain' } })
  const org = look.session.facility ?? ''
  const user = await findUser(context.database, look.session.uid)
  if (!user) return new Response('Sign in first.', { status: 401, headers: { 'Content-Type': 'text/plain' } })
  // table changes only for the tables this user's screens show (sign in again to pick up new rights)
  const readable = await readableCollections(context, user, org)
  const stream = eventStream(request.signal, (send, close) => {
    const emit = (event: string, data: unknown) => send({ event, data: JSON.stringify(data) })
    // the session's hash: this page's own saves are not announced back to it
    const detach = context.events.attach({ org, uid: user.uid, session: look.session.id_hash, readable, send: emit, close })
    emit('ready', { facility: org, bus: context.bus?.state ?? 'none' })
    // the heartbeat also ends the stream once the sign-in has ended (logout elsewhere, idle)
    const beat = setInterval(async () => {
      const live = await sessionIsLive(context.database, id!, context.env.IDLE_TIMEOUT_S).catch(() => true)
      if (live) return emit('ping', { at: Date.now() })
      emit('signedout', {})
      close()
    }, HEARTBEAT_MS)
    return () => {
      clearInterval(beat)
      detach()
    }
  })
  // behind a reverse proxy (nginx buffers responses unless told not to; ops/proxy/README.md): events pass at once,
  // and no proxy or cache transforms or stores the stream
  stream.headers.set('X-Accel-Buffering', 'no')
  stream.headers.set('Cache-Control', 'no-cache, no-store, no-transform')
  return stream
}
