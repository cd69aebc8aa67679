/** The invitation page: choose a first password, with SPEC §5's rules as a live checklist (JavaScript) or named by the server. */
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { Button, Field, Notice, Page } from '../../components/ui'
import type { invitationAction, invitationLoader } from './invitation.server'
import { PasswordChecklist } from './password-checklist'

export function InvitationPage() {
  const d = useLoaderData<typeof invitationLoader>()
  const a = useActionData<typeof invitationAction>()
  const nav = useNavigation()
  const [live, setLive] = useState(false)
  const [pw, setPw] = useState('')
  useEffect(() => setLive(true), [])
  const problem = a?.problem ?? d.problem
  return (
    <Page title="Welcome to Canopy">
      {problem ? (
        <Notice tone="error">{problem}</Notice>
      ) : (
        <Form method="post" className="flex flex-col gap-4" aria-label="Choose your password">
          <p className="text-slate-300">
            Choose the password for <strong>{d.email}</strong>. Then login with this address.
          </p>
          {a?.errors?.password ? <Notice tone="error">{a.errors.password}</Notice> : null}
          <Field label="New password" name="password" type="password" autoComplete="new-password" aria-describedby="password-rules" onChange={(e) => setPw(e.currentTarget.value)} />
          <PasswordChecklist value={pw} live={live} failed={a?.failed} />
          <Field label="Repeat the new password" name="confirm" type="password" autoComplete="new-password" error={a?.errors?.confirm} />
          <Button type="submit" disabled={nav.state !== 'idle'}>
            Set password
          </Button>
        </Form>
      )}
    </Page>
  )
}
