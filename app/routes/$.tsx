/**
 * Every screen of SPEC §2.3 (and the general routes of §2.2) through one route: the address is
 * looked up in the route map (app/route-map.ts) and the workflows of the facility; the user's
 * entitlements decide on the server (403 otherwise); the screen renders by its kind.
 * Unknown addresses are a real 404.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireSession } from '../auth/require.server'
import { resolveScreen } from '../auth/screens.server'
import { ScreenView } from '../components/screen-view'
import { loadScreen, type ScreenData } from '../screens/screen-data.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${APP_NAME}` : APP_NAME }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const s = await requireSession(request, context)
  const facility = s.session.facility ?? ''
  const screen = await resolveScreen(context.database, s.user, facility, url.pathname)
  if (screen === 'unknown') throw new Response('There is no page at this address.', { status: 404, statusText: 'There is no page at this address.' })
  if (screen === 'forbidden') throw new Response('Your account is not entitled to this screen in this facility. Ask your administrator for access to its module.', { status: 403, statusText: 'Not allowed' })
  return json(await loadScreen(context, s.user, facility, screen, url))
}

export default function ScreenRoute() {
  const data = useLoaderData<typeof loader>()
  // every value in it is plain JSON already (strings, numbers, records)
  return <ScreenView data={data as unknown as ScreenData} />
}
