/**
 * Every screen of SPEC §2.3 through one route: the address is looked up in the route map
 * (app/route-map.ts) and the workflows of the facility; the user's entitlements decide on the
 * server (403 otherwise); the screen renders by its kind. Unknown addresses are a real 404.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireSession } from '../auth/require.server'
import { resolveScreen } from '../auth/screens.server'
import { ScreenView } from '../components/screen-view'
import { PLATFORM_ORG } from '../route-map'
import { APP_NAME } from '../version'

const PAGE = 20

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${APP_NAME}` : APP_NAME }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const s = await requireSession(request, context)
  const facility = s.session.facility ?? ''
  const screen = await resolveScreen(context.database, s.user, facility, url.pathname)
  if (screen === 'unknown') throw new Response('There is no page at this address.', { status: 404, statusText: 'There is no page at this address.' })
  if (screen === 'forbidden') throw new Response('Your account is not entitled to this screen in this facility. Ask your administrator for access to its module.', { status: 403, statusText: 'Not allowed' })
  const { route } = screen
  if (screen.workflows) return json({ title: route.title, kind: 'workflows' as const, path: route.path, workflows: screen.workflows, table: null })
  if (!route.collection || route.kind === 'help') return json({ title: route.title, kind: route.kind, path: route.path, workflows: null, table: null })
  const { store, schemas } = context.database
  const schema = await schemas.get(route.collection)
  const org = route.platform ? PLATFORM_ORG : facility
  const page = Math.max(1, Math.min(100_000, Number(url.searchParams.get('page')) || 1))
  const result = schema ? await store.page(org, route.collection, { offset: (page - 1) * PAGE, limit: PAGE }) : { rows: [], total: 0 }
  const columns = (schema?.fields ?? []).filter((f) => f.show && f.type !== 'array' && f.type !== 'code').slice(0, 10).map((f) => ({ key: f.key, label: f.label, format: f.format ?? '', type: f.type, align: f.align }))
  return json({
    title: route.title,
    kind: route.kind,
    path: route.path,
    workflows: null,
    table: { columns, rows: result.rows, total: result.total, page, pages: Math.max(1, Math.ceil(result.total / PAGE)), readOnly: !!route.readOnly || schema?.editable === false },
  })
}

export default function ScreenRoute() {
  const data = useLoaderData<typeof loader>()
  return <ScreenView data={data} />
}
