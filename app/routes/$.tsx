/**
 * Every screen of SPEC §2.3 (and the general routes of §2.2) through one route: the address is
 * looked up in the route map (app/route-map.ts) and the workflows of the facility; the user's
 * entitlements decide on the server (403 otherwise); the screen renders by its kind.
 * Unknown addresses are a real 404.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireSession } from '../auth/require.server'
import { resolveScreen, workflowAlias } from '../auth/screens.server'
import { ScreenView } from '../components/screen-view'
import { Notice } from '../components/ui'
import { loadScreen, type ScreenData } from '../screens/screen-data.server'
import { actionError, toggleCheck } from '../screens/table-actions.server'
import { expandToggle } from '../screens/table-toggle'
import { confirmDelete, deleteRecord, recordAddress } from '../screens/record-delete.server'
import { refusedAsPage } from '../utils/errors'
import { safePath } from '../utils/safe-url'
import { APP_NAME } from '../version'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${APP_NAME}` : APP_NAME }]

async function screenOf(request: Request, context: LoaderFunctionArgs['context']) {
  const url = new URL(request.url)
  const s = await requireSession(request, context)
  const facility = s.session.facility ?? ''
  // a record of a table screen (/DisSales/o1/delete) belongs to that screen
  const record = recordAddress(url.pathname)
  const screen = await resolveScreen(context.database, s.user, facility, record?.screen ?? url.pathname)
  if (screen === 'unknown' || (record && (screen === 'forbidden' ? false : screen.route.kind !== 'table' || !screen.route.collection || screen.workflows)))
    throw new Response('There is no page at this address.', { status: 404, statusText: 'There is no page at this address.' })
  if (screen === 'forbidden') throw new Response('Your account is not entitled to this screen in this facility. Ask your administrator for access to its module.', { status: 403, statusText: 'Not allowed' })
  return { url, s, facility, screen, record }
}


export async function loader({ request, context }: LoaderFunctionArgs) {
  // a module's workflows named by the module's name (/CultivationWorkflows): where they live (/CulWorkflows)
  const alias = workflowAlias(new URL(request.url).pathname)
  if (alias) throw redirect(alias, 301)
  const { url, s, facility, screen, record } = await screenOf(request, context)
  if (record) {
    const confirm = await confirmDelete(context, s, screen.route, facility, url, record.id).catch(refusedAsPage)
    return json({ kind: 'delete', title: 'Delete item', path: screen.route.path, confirm } satisfies ScreenData)
  }
  return json(await loadScreen(context, s.user, facility, screen, url))
}

/** Posts to a table screen (a check cell's toggle); back to the same view when done. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { url, s, facility, screen, record } = await screenOf(request, context)
  const form = expandToggle(await request.formData())
  if (record) {
    if (form.get('intent') !== 'delete') return json({ error: 'This page takes no such request.' }, { status: 400 })
    try {
      await deleteRecord(context, s, screen.route, facility, url, record.id, String(form.get('ts') ?? ''))
    } catch (e) {
      const { error, status } = actionError(e)
      context.logger?.warn({ err: error, path: url.pathname }, 'delete refused')
      return json({ error }, { status })
    }
    const back = new URLSearchParams(url.search)
    back.delete('_data')
    back.set('msg', 'deleted')
    return redirect(`${screen.route.path}?${back}`)
  }
  if (form.get('intent') !== 'toggle' || screen.route.kind !== 'table' || !screen.route.collection || screen.workflows) return json({ error: 'This screen takes no such request.' }, { status: 400 })
  let outcome
  try {
    outcome = await toggleCheck(context, s, screen.route, facility, url, form)
  } catch (e) {
    const { error, status } = actionError(e)
    context.logger?.warn({ err: error, path: url.pathname }, 'table toggle refused')
    return json({ error }, { status })
  }
  // the save rules need more than the tap (a dead plant: how it was destroyed): the record's form, the check already set
  if (!outcome.saved) return url.searchParams.has('_data') ? json({ form: outcome.form, error: outcome.message }) : redirect(outcome.form)
  // a script's request (fetcher) gets its answer and the page revalidates; a plain form post goes back to the view (no resubmit on reload)
  if (url.searchParams.has('_data')) return json({ ok: true })
  return redirect(`${safePath(url.pathname) ?? screen.route.path}${url.search}`)
}

export default function ScreenRoute() {
  const data = useLoaderData<typeof loader>()
  const done = useActionData<typeof action>()
  // every value in it is plain JSON already (strings, numbers, records)
  return (
    <>
      {done && 'error' in done ? (
        <div className="px-4 pt-4">
          <Notice tone="error">{done.error}</Notice>
        </div>
      ) : null}
      <ScreenView data={data as unknown as ScreenData} />
    </>
  )
}
