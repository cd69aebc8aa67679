/** The link from the reset mail: single use, expiring; choosing a new password ends every session. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { setPassword } from '../auth/accounts.server'
import { checkOneTimeToken } from '../auth/reset.server'
import { newPassword, PASSWORD_HINT } from '../auth/rules'
import { endUserSessions } from '../auth/session.server'
import { Button, Field, Notice, Page } from '../components/ui'
import { fieldErrors } from '../utils/form'

const GONE = { used: 'This reset link has already been used. Ask for a new one from the login page.', expired: 'This reset link has expired. Ask for a new one from the login page.', unknown: 'This reset link is not valid. Ask for a new one from the login page.' }

export async function loader({ params, context }: LoaderFunctionArgs) {
  const t = await checkOneTimeToken(context.database, params.token ?? '', 'reset', false)
  return json({ problem: t.ok ? null : GONE[t.reason] })
}

const schema = z.object({ password: newPassword, confirm: z.string() }).refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords differ' })

export async function action({ params, request, context }: ActionFunctionArgs) {
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()))
  if (!parsed.success) {
    return json({ errors: fieldErrors(parsed.error), problem: null }, { status: 400 })
  }
  const t = await checkOneTimeToken(context.database, params.token ?? '', 'reset', true)
  if (!t.ok) return json({ errors: {} as Record<string, string>, problem: GONE[t.reason] }, { status: 410 })
  await setPassword(context.database, t.uid, parsed.data.password)
  await endUserSessions(context.database, t.uid, 'password reset')
  context.logger.info({ uid: t.uid }, 'password reset through the mailed link')
  return redirect('/Welcome?msg=changed')
}

export default function PasswordReset() {
  const d = useLoaderData<typeof loader>()
  const a = useActionData<typeof action>()
  const problem = a?.problem ?? d.problem
  return (
    <Page title="Choose a new password">
      {problem ? (
        <Notice tone="error">{problem}</Notice>
      ) : (
        <Form method="post" className="flex flex-col gap-4">
          <Field label="New password" name="password" type="password" autoComplete="new-password" hint={PASSWORD_HINT} error={a?.errors?.password} />
          <Field label="Repeat the new password" name="confirm" type="password" autoComplete="new-password" error={a?.errors?.confirm} />
          <Button type="submit">Save password</Button>
        </Form>
      )}
    </Page>
  )
}
