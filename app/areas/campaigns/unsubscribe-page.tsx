/** /Unsubscribe/{token}: the public page a campaign mail's link opens (no sign-in; works without JavaScript). */
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { Button, Notice, Page } from '../../components/ui'
import type { unsubscribeAction, unsubscribeLoader } from './unsubscribe.server'

export function UnsubscribePage() {
  const d = useLoaderData<typeof unsubscribeLoader>()
  const a = useActionData<typeof unsubscribeAction>()
  return (
    <Page title="Unsubscribe">
      {a?.done ? (
        <Notice tone="success">
          {a.email} is unsubscribed: {a.sender} will send it no more campaign mail.
        </Notice>
      ) : a?.problem || d.problem ? (
        <Notice tone="error">{a?.problem ?? d.problem}</Notice>
      ) : (
        <Form method="post" className="flex flex-col gap-3">
          <p className="text-slate-300">
            Stop campaign mail from {d.sender} to {d.email}?
          </p>
          <Button type="submit">Unsubscribe</Button>
        </Form>
      )}
    </Page>
  )
}
