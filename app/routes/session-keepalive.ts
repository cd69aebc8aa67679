/**
 * /session-keepalive (issue 32 item 7): what the page's idle watch asks the server. Requests are
 * what the server counts as activity, so typing into a form for an hour would otherwise end the
 * sign-in under the person's hands: POST says "the person is here" (typing, a tap, a scroll; the
 * page sends it at most once a minute); GET only asks how many seconds are left (before the page
 * warns, and before it signs out: another tab may have kept the session). Answers
 * `{ signedIn, secondsLeft }`; never a redirect, never cached.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { idleSecondsLeft, readSessionId } from '../auth/session.server'

const answer = (left: number | null) => json({ signedIn: left !== null, secondsLeft: left ?? 0 }, { headers: { 'Cache-Control': 'no-store' } })

export async function loader({ request, context }: LoaderFunctionArgs) {
  return answer(await idleSecondsLeft(context.database, readSessionId(request), context.env.IDLE_TIMEOUT_S))
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ error: 'Use POST.' }, { status: 405 })
  return answer(await idleSecondsLeft(context.database, readSessionId(request), context.env.IDLE_TIMEOUT_S, true))
}
