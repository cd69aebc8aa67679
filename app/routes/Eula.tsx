/** SPEC §4 EULA: Agree records acceptance; Disagree records the refusal and logs out. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { Form } from '@remix-run/react'
import { advance, recordEula } from '../auth/flow.server'
import { safePath } from '../auth/guard.server'
import { requireSession } from '../auth/require.server'
import { endSession, sessionCookie } from '../auth/session.server'
import { Button, Page } from '../components/ui'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const s = await requireSession(request, context, false)
  if (s.session.step !== 'eula') return redirect('/Welcome')
  return null
}

export async function action({ request, context }: ActionFunctionArgs) {
  const s = await requireSession(request, context, false)
  const agree = (await request.formData()).get('intent') === 'agree'
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, requestId: context.requestId, session: s.session.id_hash }
  await recordEula(context.database, actor, s.user.email, agree, context.clientIp ?? '')
  if (!agree) {
    await endSession(context.database, s.id, 'eula declined')
    return redirect('/Welcome?msg=declined', { headers: { 'Set-Cookie': sessionCookie(request, null) } })
  }
  return advance(context.database, s.id, s.user, { step: 'credentials', facility: s.session.facility }, safePath(new URL(request.url).searchParams.get('redirectTo')))
}

export default function Eula() {
  return (
    <Page title="License Agreement">
      <div className="max-h-80 overflow-y-auto rounded-md border border-slate-700 bg-slate-900 p-4 text-sm text-slate-300">
        <p>
          Canopy records cultivation, inventory, sales and compliance data for your facility and sends what the law requires to your state's tracking
          system (METRC). You agree to enter true records, to keep your login to yourself, and that every change you make is recorded with your name and
          the time, so a regulator can read it. You may not use Canopy to record activity your license does not allow.
        </p>
      </div>
      <Form method="post" className="flex gap-3">
        <Button name="intent" value="agree" type="submit">
          Agree
        </Button>
        <Button name="intent" value="disagree" tone="plain" type="submit">
          Disagree
        </Button>
      </Form>
    </Page>
  )
}
