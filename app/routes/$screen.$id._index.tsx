/**
 * /{screen}/{id}: a record's own page (issue 33 item 4), read-only, with what it offers and what
 * names it (screens/record-page.server.ts). The table screen's guard and read rights; a screen with a
 * page of its own for a record (/DisSales/{id}, /PolDocs/{id}) keeps it: those routes are more specific.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireSession } from '../auth/require.server'
import { RecordView } from '../components/record-view'
import { editTarget } from '../screens/record-edit.server'
import { recordPage } from '../screens/record-page.server'
import { refusedAsPage } from '../utils/errors'
import { APP_NAME } from '../version'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.name} · ${APP_NAME}` : APP_NAME }]

export const handle = { crumb: (data: { name?: string } | undefined) => data?.name ?? null }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const s = await requireSession(request, context)
  const url = new URL(request.url)
  try {
    const { route, facility } = await editTarget(context, s, `/${params.screen ?? ''}`)
    return json(await recordPage(context, s, route, facility, url, params.id ?? ''))
  } catch (e) {
    refusedAsPage(e)
  }
}

export default function RecordRoute() {
  return <RecordView data={useLoaderData<typeof loader>()!} />
}
