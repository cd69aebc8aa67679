/** A team's members as checkboxes of the facility's people (a plain form: works without JavaScript). */
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import type { teamMembersAction, teamMembersLoader } from './team-members.server'

export function TeamMembersPage() {
  const d = useLoaderData<typeof teamMembersLoader>()
  const a = useActionData<typeof teamMembersAction>()
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-4 p-4" aria-labelledby="team-title">
      <Link to="/TeamGroups" className="text-sm underline">
        ← Teams
      </Link>
      <h1 id="team-title" className="text-2xl font-semibold text-canopy-400">
        {d.name}: members
      </h1>
      {d.saved ? <Notice tone="success">The members were saved.</Notice> : null}
      {a?.error ? <Notice tone="error">{a.error}</Notice> : null}
      <Form method="post" className="flex flex-col gap-3">
        <fieldset className="flex flex-col gap-1" disabled={!d.editable}>
          <legend className="mb-1 text-sm text-slate-300">People of this facility</legend>
          {d.users.map((u) => (
            <label key={u.uid} className="flex min-h-11 items-center gap-3 rounded-md border border-slate-700 px-3">
              <input type="checkbox" name="member" value={u.uid} defaultChecked={d.members.includes(u.uid)} className="h-5 w-5" />
              {u.name} <span className="text-slate-400">{u.email}</span>
            </label>
          ))}
        </fieldset>
        {d.editable ? <Button type="submit">Save members</Button> : null}
      </Form>
    </section>
  )
}
