/** The users list and the user form (rights grid, role, web access; disable, invitations). Plain forms: everything works without JavaScript. */
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Button, Field, Notice } from '../../components/ui'
import { RightsGrid } from './rights-grid'
import type { userEditAction, userEditLoader, usersListLoader } from './users-page.server'

const STATUS: Record<string, string> = { active: 'Active', invited: 'Invited', 'invite expired': 'Invitation expired', 'no password': 'No password yet', disabled: 'Disabled' }
const box = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100'

export function UsersListPage() {
  const d = useLoaderData<ReturnType<typeof usersListLoader>>()
  const names = new Map(d.facilities.map((f) => [f.org, f.fullName]))
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="users-title">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="users-title" className="mr-auto text-2xl font-semibold text-canopy-400">
          Users
        </h1>
        <Link to={`${d.base}/new`} className="flex min-h-11 items-center rounded-md bg-canopy-600 px-4 font-medium text-white hover:bg-canopy-500">
          Invite a user
        </Link>
      </div>
      {d.notice ? <Notice tone="success">{d.notice}</Notice> : null}
      <div className="overflow-x-auto">
        <table className="min-w-full text-left text-sm" aria-label="Users">
          <thead className="text-slate-400">
            <tr>
              <th className="p-2">Name</th>
              <th className="p-2">Email</th>
              <th className="p-2">Role</th>
              <th className="p-2">Facilities</th>
              <th className="p-2">Status</th>
              <th className="p-2">
                <span className="sr-only">Edit</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {d.rows.map((u) => (
              <tr key={u.uid} className="border-t border-slate-800">
                <td className="p-2">{u.name}</td>
                <td className="p-2">{u.email}</td>
                <td className="p-2">{u.role}</td>
                <td className="p-2">{u.facilities.map((f) => names.get(f) ?? f).join(', ')}</td>
                <td className="p-2" data-status={u.status}>
                  {STATUS[u.status]}
                  {u.web === 'no' ? ' · no web access' : ''}
                </td>
                <td className="p-2">
                  <Link to={`${d.base}/${encodeURIComponent(u.uid)}`} className="inline-flex min-h-11 items-center rounded-md border border-slate-600 px-3" aria-label={`Edit ${u.email}`}>
                    Edit
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

export function UserEditPage() {
  const d = useLoaderData<ReturnType<typeof userEditLoader>>()
  const a = useActionData<ReturnType<typeof userEditAction>>()
  const nav = useNavigation()
  const errors = (a?.errors ?? {}) as Record<string, string>
  const posted = (a?.values ?? {}) as Record<string, string | string[]>
  const val = (k: string, dflt: string) => (typeof posted[k] === 'string' ? (posted[k] as string) : dflt)
  const u = d.user
  const grid: Record<string, string[] | null> = a?.values && Object.keys(a.values).length
    ? Object.fromEntries(d.facilities.map((f) => [f.org, d.modules.map((m) => m.code).filter((c) => posted[`m:${f.org}:${c}`] === 'yes')]))
    : (u?.modules ?? {})
  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-4 p-4" aria-labelledby="user-title">
      <Link to={d.base} className="text-sm underline">
        ← Users
      </Link>
      <h1 id="user-title" className="text-2xl font-semibold text-canopy-400">
        {u ? `${u.firstname} ${u.lastname}`.trim() || u.email : 'Invite a user'}
      </h1>
      {d.notice ? <Notice tone="success">{d.notice}</Notice> : null}
      {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
      {u ? (
        <p className="text-slate-300" data-testid="user-status">
          {u.disabled ? 'Disabled: cannot sign in.' : u.password ? 'Active.' : u.invite === 'open' ? 'Invited: waiting for the password to be chosen.' : u.invite === 'expired' ? 'The invitation has expired.' : 'No password and no open invitation.'}
        </p>
      ) : null}
      <Form method="post" className="flex flex-col gap-4" aria-label="User" noValidate>
        <input type="hidden" name="intent" value="save" />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="First name" name="firstname" defaultValue={val('firstname', u?.firstname ?? '')} error={errors.firstname} />
          <Field label="Last name" name="lastname" defaultValue={val('lastname', u?.lastname ?? '')} error={errors.lastname} />
        </div>
        <Field label="Email" name="email" type="email" defaultValue={val('email', u?.email ?? '')} error={errors.email} autoComplete="off" />
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor="f-role" className="text-sm text-slate-300">
              Role
            </label>
            <select id="f-role" name="role" defaultValue={val('role', u?.role ?? 'user')} className={box} disabled={u?.self}>
              <option value="user">User</option>
              <option value="admin">Admin (manages the users of these facilities)</option>
            </select>
            {u?.self ? <input type="hidden" name="role" value={u.role} /> : null}
            {errors.role ? <p className="text-sm text-red-300">{errors.role}</p> : null}
          </div>
          <fieldset className="flex flex-col gap-1">
            <legend className="text-sm text-slate-300">Web access</legend>
            <div className="flex gap-2">
              {['yes', 'no'].map((w) => (
                <label key={w} className="flex min-h-11 flex-1 items-center gap-2 rounded-md border border-slate-700 px-3">
                  <input type="radio" name="web" value={w} defaultChecked={val('web', u?.web ?? 'yes') === w} className="h-5 w-5" />
                  {w === 'yes' ? 'Yes' : 'No (devices and API only)'}
                </label>
              ))}
            </div>
            {errors.web ? <p className="text-sm text-red-300">{errors.web}</p> : null}
          </fieldset>
        </div>
        <RightsGrid facilities={d.facilities} modules={d.modules} value={grid} error={errors.grid} />
        <Button type="submit" disabled={nav.state !== 'idle'}>
          {u ? 'Save' : 'Send invitation'}
        </Button>
      </Form>
      {u && !u.self ? (
        <div className="flex flex-wrap gap-3 border-t border-slate-800 pt-4">
          <Form method="post">
            <input type="hidden" name="intent" value={u.disabled ? 'enable' : 'disable'} />
            <Button type="submit" tone={u.disabled ? 'plain' : 'danger'}>
              {u.disabled ? 'Enable user' : 'Disable user'}
            </Button>
          </Form>
          {!u.password && !u.disabled ? (
            <Form method="post">
              <input type="hidden" name="intent" value="resend" />
              <Button type="submit" tone="plain">
                Resend invitation
              </Button>
            </Form>
          ) : null}
          {u.invite !== 'none' && !u.password ? (
            <Form method="post">
              <input type="hidden" name="intent" value="revoke" />
              <Button type="submit" tone="plain">
                Revoke invitation
              </Button>
            </Form>
          ) : null}
        </div>
      ) : null}
    </section>
  )
}
