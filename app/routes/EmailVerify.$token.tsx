/** The link from the verification mail: a confirm button (a GET never changes anything). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { findUser } from '../auth/accounts.server'
import { checkOneTimeToken } from '../auth/reset.server'
import { Button, Notice, Page } from '../components/ui'
import { PLATFORM_ORG } from '../route-map'

const GONE = { used: 'This link has already been used.', expired: 'This link has expired. Sign in and ask for a new one.', unknown: 'This link is not valid.' }

export async function loader({ params, context }: LoaderFunctionArgs) {
  const t = await checkOneTimeToken(context.database, params.token ?? '', 'verify', false)
  return json(t.ok ? { email: t.email, problem: null } : { email: null, problem: GONE[t.reason] })
}

export async function action({ params, context }: ActionFunctionArgs) {
  const t = await checkOneTimeToken(context.database, params.token ?? '', 'verify', true)
  if (!t.ok) return json({ done: false, problem: GONE[t.reason] }, { status: 410 })
  const user = await findUser(context.database, t.uid)
  if (!user || user.email !== t.email) return json({ done: false, problem: 'This address no longer belongs to the account.' }, { status: 410 })
  await context.database.store.update({ uid: user.uid, requestId: context.requestId }, PLATFORM_ORG, 'users', user.uid, { emailVerified: 'yes' })
  return json({ done: true, problem: null })
}

export default function EmailVerify() {
  const d = useLoaderData<typeof loader>()
  const a = useActionData<typeof action>()
  return (
    <Page title="Confirm your email address">
      {a?.done ? (
        <Notice tone="success">Your email address is verified. Thank you.</Notice>
      ) : a?.problem || d.problem ? (
        <Notice tone="error">{a?.problem ?? d.problem}</Notice>
      ) : (
        <Form method="post" className="flex flex-col gap-3">
          <p className="text-slate-300">Confirm that {d.email} is your address.</p>
          <Button type="submit">Confirm my email address</Button>
        </Form>
      )}
      <Link to="/Welcome" className="text-canopy-400 underline">
        Go to the start page
      </Link>
    </Page>
  )
}
