/** GET /ical/{secret}.ics: a user's tasks as iCalendar for a phone's calendar (app/areas/calendar; no session: the secret is the key). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { icsFeed } from '../areas/calendar/ics.server'

export async function loader({ params, context }: LoaderFunctionArgs) {
  const file = params.file ?? ''
  const body = file.endsWith('.ics') ? await icsFeed(context, file.slice(0, -4)) : null
  if (body === null) return new Response('This calendar link is not valid (it may have been replaced or turned off).', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  return new Response(body, { headers: { 'Content-Type': 'text/calendar; charset=utf-8', 'Cache-Control': 'private, no-store', 'Content-Disposition': 'inline; filename="canopy-tasks.ics"' } })
}
