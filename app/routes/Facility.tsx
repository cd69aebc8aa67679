/**
 * The facility picker (SPEC §2.1, §4): users choose among the facilities in their props; super
 * among all. Also the facility switcher after sign-in (the /misc/switchorg semantics).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { facilitiesOf } from '../auth/entitlements'
import { activeOrgs, advance } from '../auth/flow.server'
import { safePath } from '../auth/guard.server'
import { requireSession } from '../auth/require.server'
import { updateSession } from '../auth/session.server'
import { Button, Notice, Page } from '../components/ui'

async function choices(context: LoaderFunctionArgs['context'], user: Parameters<typeof facilitiesOf>[0]) {
  const orgs = await activeOrgs(context.database)
  const allowed = facilitiesOf(user, orgs.map((o) => o._id))
  return orgs.filter((o) => allowed.includes(o._id))
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const s = await requireSession(request, context, false)
  if (s.session.step !== 'facility' && s.session.step !== 'done') return redirect('/Welcome')
  return json({ facilities: await choices(context, s.user), current: s.session.facility })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const s = await requireSession(request, context, false)
  if (s.session.step !== 'facility' && s.session.step !== 'done') return redirect('/Welcome')
  const wanted = String((await request.formData()).get('facility') ?? '')
  const list = await choices(context, s.user)
  if (!list.some((f) => f._id === wanted)) {
    context.logger.warn({ uid: s.user.uid, wanted }, 'refused a facility the user does not have')
    return json({ error: 'You do not have access to that facility. Choose one from the list.' }, { status: 403 })
  }
  // a shared link that brought the user here goes on to where it pointed (issue 32)
  const back = safePath(new URL(request.url).searchParams.get('redirectTo'))
  if (s.session.step === 'done') {
    await updateSession(context.database, s.id, { facility: wanted })
    return redirect(back ?? '/Welcome')
  }
  return advance(context.database, s.id, s.user, { step: 'facility', facility: wanted }, back)
}

export default function Facility() {
  const { facilities, current } = useLoaderData<typeof loader>()
  const data = useActionData<typeof action>()
  return (
    <Page title="Choose a facility">
      {data && 'error' in data ? <Notice tone="error">{data.error}</Notice> : null}
      {facilities.length === 0 ? <Notice>Your account has no facility yet. Please contact your administrator.</Notice> : null}
      <Form method="post" className="flex flex-col gap-3">
        {facilities.map((f) => (
          <Button key={f._id} type="submit" name="facility" value={f._id} tone={f._id === current ? 'primary' : 'plain'} className="text-left">
            {f.fullName}
          </Button>
        ))}
      </Form>
    </Page>
  )
}
