/**
 * /MetrcDrift: the reconciliation screen (issue 9 item 7, decision 021). Every open difference
 * between a Canopy record and METRC's record with the same tag, with Canopy's value, the last
 * value both agreed on and METRC's; admins and compliance staff pick the side that wins with a
 * plain form post (works without JavaScript); others entitled to the Metrc module read.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireScreen } from '../auth/screens.server'
import { DriftView } from '../components/metrc/drift-view'
import { Notice } from '../components/ui'
import { driftScreen } from '../metrc/drift/list.server'
import { resolveDrift } from '../metrc/drift/resolve.server'
import { mayResolveDrift } from '../metrc/drift/rights'
import { timeZoneOf } from '../facilities/facts.server'
import { isAppError, statusOf } from '../utils/errors'
import { APP_NAME } from '../version'

const PATH = '/MetrcDrift'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${APP_NAME}` : APP_NAME }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { s, facility, screen } = await requireScreen(request, context, PATH)
  const title = screen.route.title
  const q = new URL(request.url).searchParams.get('done')
  const done: 'canopy' | 'metrc' | null = q === 'canopy' || q === 'metrc' ? q : null
  return json({ title, path: PATH, canResolve: mayResolveDrift(s.user), done, drift: await driftScreen(context.database, facility) })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { s, facility } = await requireScreen(request, context, PATH)
  if (!mayResolveDrift(s.user)) return json({ error: 'Only admins and compliance staff decide drift; you may read it.' }, { status: 403 })
  const form = await request.formData()
  const side = form.get('side')
  try {
    await resolveDrift(context.database, { uid: s.user.uid, origUid: s.session.orig_uid, requestId: context.requestId, session: s.session.id_hash }, facility, form.get('id'), side, { isSuper: s.user.role === 'super', timeZone: await timeZoneOf(context, facility) })
  } catch (e) {
    if (!isAppError(e)) throw e
    context.logger?.warn({ err: e.message, path: PATH }, 'drift decision refused')
    return json({ error: e.message }, { status: statusOf(e) })
  }
  return redirect(`${PATH}?done=${side === 'canopy' ? 'canopy' : 'metrc'}`)
}

export default function MetrcDriftRoute() {
  const data = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  return (
    <>
      {refused && 'error' in refused ? (
        <div className="px-4 pt-4">
          <Notice tone="error">{refused.error}</Notice>
        </div>
      ) : null}
      <DriftView title={data.title} path={data.path} canResolve={data.canResolve} done={data.done} drift={data.drift} />
    </>
  )
}
