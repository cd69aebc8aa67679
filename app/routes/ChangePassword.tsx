/** Change Password from the user menu: the current password is required; other sessions end. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { z } from 'zod'
import { passwordMatches, setPassword } from '../auth/accounts.server'
import { requireSession } from '../auth/require.server'
import { loginPassword, newPassword, PASSWORD_HINT } from '../auth/rules'
import { endUserSessions } from '../auth/session.server'
import { Button, Field, Notice, Page } from '../components/ui'
import { fieldErrors } from '../utils/form'

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSession(request, context)
  return null
}

const schema = z
  .object({ current: loginPassword, password: newPassword, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords differ' })

export async function action({ request, context }: ActionFunctionArgs) {
  const s = await requireSession(request, context)
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()))
  if (!parsed.success) {
    return json({ errors: fieldErrors(parsed.error), done: false }, { status: 400 })
  }
  if (!(await passwordMatches(context.database, s.user.uid, parsed.data.current))) {
    return json({ errors: { current: 'The current password is not right' } as Record<string, string>, done: false }, { status: 400 })
  }
  await setPassword(context.database, s.user.uid, parsed.data.password)
  await endUserSessions(context.database, s.user.uid, 'password changed', s.id)
  return json({ errors: {} as Record<string, string>, done: true })
}

export default function ChangePassword() {
  const a = useActionData<typeof action>()
  return (
    <Page title="Change Password">
      {a?.done ? (
        <>
          <Notice tone="success">Your password has been changed. Other devices signed in as you have been logged out.</Notice>
          <Link to="/Welcome" className="text-canopy-400 underline">
            Back to the start page
          </Link>
        </>
      ) : (
        <Form method="post" className="flex flex-col gap-4">
          <Field label="Current password" name="current" type="password" autoComplete="current-password" error={a?.errors?.current} />
          <Field label="New password" name="password" type="password" autoComplete="new-password" hint={PASSWORD_HINT} error={a?.errors?.password} />
          <Field label="Repeat the new password" name="confirm" type="password" autoComplete="new-password" error={a?.errors?.confirm} />
          <div className="flex gap-3">
            <Button type="submit">Save</Button>
            <Link to="/Welcome" className="min-h-11 rounded-md border border-slate-600 px-4 py-2">
              Cancel
            </Link>
          </div>
        </Form>
      )}
    </Page>
  )
}
