/** The visitor log's screens: staff view, the lobby kiosk's sign-in, the printable evacuation list. */
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import type { kioskAction, kioskLoader, onsiteLoader, visLogAction, visLogLoader } from './routes.server'

const input = 'min-h-12 w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-lg text-slate-100 focus:border-canopy-400 focus:outline-none'
const linkBtn = 'inline-flex min-h-11 items-center rounded-md border border-slate-600 px-4 hover:bg-slate-800'

function VisitTable({ caption, columns, rows, signOut }: { caption: string; columns: string[]; rows: Array<{ id: string; cells: string[]; out: boolean }>; signOut?: boolean }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll box must be reachable by keyboard (WCAG 2.1.1)
    <div className="overflow-x-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-canopy-400" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-700">
            {columns.map((c) => (
              <th key={c} scope="col" className="whitespace-nowrap px-2 py-1">
                {c}
              </th>
            ))}
            {signOut ? <th className="px-2 py-1">Action</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-b border-slate-800">
              {r.cells.map((c, i) => (
                <td key={i} className="whitespace-nowrap px-2 py-1">
                  {c}
                </td>
              ))}
              {signOut ? (
                <td className="flex gap-2 px-2 py-1">
                  <Form method="post">
                    <input type="hidden" name="id" value={r.id} />
                    <Button type="submit" name="intent" value="signout" aria-label={`Sign out ${r.cells[1]}`}>
                      Sign out
                    </Button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="id" value={r.id} />
                    <Button type="submit" tone="plain" name="intent" value="reprint" aria-label={`Reprint badge of ${r.cells[1]}`}>
                      Reprint badge
                    </Button>
                  </Form>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function VisLogPage() {
  const d = useLoaderData<typeof visLogLoader>()
  const err = useActionData<typeof visLogAction>()
  const q = new URLSearchParams({ from: d.from, to: d.to })
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold text-canopy-400">Visitor Log</h1>
        <Link to="/VisLog/kiosk" className="inline-flex min-h-11 items-center rounded-md bg-canopy-600 px-4 font-medium text-white">
          Kiosk sign-in
        </Link>
        <Link to="/VisLog/onsite" className={linkBtn}>
          Evacuation list
        </Link>
      </div>
      {d.notice ? <Notice tone="success">{d.notice}</Notice> : null}
      {err?.error ? <Notice tone="error">{err.error}</Notice> : null}
      <section aria-label="On site now" className="flex flex-col gap-2">
        <h2 className="text-xl font-semibold">On site now ({d.onSite.length})</h2>
        {d.onSite.length ? <VisitTable caption="On site now" columns={d.columns} rows={d.onSite} signOut /> : <p className="text-slate-400">No visitors on site.</p>}
      </section>
      <section aria-label="Visits" className="flex flex-col gap-2">
        <h2 className="text-xl font-semibold">Visits</h2>
        <Form method="get" className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col text-sm text-slate-300">
            From
            <input type="date" name="from" defaultValue={d.from} className={input} required />
          </label>
          <label className="flex flex-col text-sm text-slate-300">
            To
            <input type="date" name="to" defaultValue={d.to} className={input} required />
          </label>
          <Button type="submit" tone="plain">
            Show
          </Button>
        </Form>
        <p className="flex flex-wrap gap-2">
          <a href={`/VisLog/export?${q}&format=csv`} className={linkBtn} download>
            Export CSV
          </a>
          <a href={`/VisLog/export?${q}&format=pdf`} className={linkBtn} download>
            Export PDF
          </a>
        </p>
        {d.rangeError ? <Notice tone="error">{d.rangeError}</Notice> : d.visits.length ? <VisitTable caption="Visits" columns={d.columns} rows={d.visits} /> : <p className="text-slate-400">No visits in this range.</p>}
      </section>
    </main>
  )
}

export function KioskPage() {
  const d = useLoaderData<typeof kioskLoader>()
  const err = useActionData<typeof kioskAction>()
  const busy = useNavigation().state === 'submitting'
  const v: Partial<Record<string, string>> = err?.values ?? {}
  if (d.done)
    return (
      <main className="mx-auto flex max-w-xl flex-col gap-4 p-6 text-lg">
        <h1 className="text-3xl font-semibold text-canopy-400">Welcome, {d.done.visitor}</h1>
        <p role="status">
          You are signed in. Your badge number is <strong>{d.done.badge}</strong>.
        </p>
        {d.printed ? <Notice tone="success">Your badge is printing at {d.printed}.</Notice> : <Notice tone="error">The badge was not printed: {d.printError}. Please ask the front desk.</Notice>}
        {d.done.host ? <p>{d.done.host} has been told you are here. Please wait in the lobby.</p> : null}
        <Link to="/VisLog/kiosk" className="inline-flex min-h-14 items-center justify-center rounded-md bg-canopy-600 px-6 text-xl font-medium text-white">
          Next visitor
        </Link>
      </main>
    )
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-3 p-6 text-lg">
      <h1 className="text-3xl font-semibold text-canopy-400">Visitor sign-in</h1>
      <p className="text-slate-300">Welcome to {d.facility}. Please fill in this form; a member of staff will check your ID.</p>
      {err?.error ? <Notice tone="error">{err.error}</Notice> : null}
      <Form method="post" className="flex flex-col gap-3" aria-label="Visitor sign-in">
        <label htmlFor="v-name">Your name</label>
        <input id="v-name" name="visitor" required defaultValue={v.visitor} autoComplete="name" className={input} />
        <label htmlFor="v-company">Company</label>
        <input id="v-company" name="company" defaultValue={v.company} autoComplete="organization" className={input} />
        <label htmlFor="v-host">Whom are you visiting?</label>
        <select id="v-host" name="host_uid" required defaultValue={v.host_uid ?? ''} className={input}>
          <option value="">Choose your host…</option>
          {d.hosts.map((h) => (
            <option key={h.value} value={h.value}>
              {h.label}
            </option>
          ))}
        </select>
        <label htmlFor="v-purpose">Purpose of the visit</label>
        <select id="v-purpose" name="purpose" required defaultValue={v.purpose ?? ''} className={input}>
          <option value="">Choose…</option>
          {d.purposes.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
        <label htmlFor="v-plate">Vehicle plate (optional)</label>
        <input id="v-plate" name="vehicle_plate" defaultValue={v.vehicle_plate} className={input} />
        <fieldset className="flex flex-col gap-2 rounded-md border border-slate-700 p-3">
          <legend className="px-1">Visitor agreement</legend>
          <p className="text-base text-slate-300">{d.agreement}</p>
          <label className="flex min-h-12 items-center gap-3">
            <input type="checkbox" name="nda_signed" value="yes" defaultChecked={v.nda_signed === 'yes'} className="h-7 w-7" /> I have read and accept the visitor agreement
          </label>
        </fieldset>
        <fieldset className="flex flex-col gap-2 rounded-md border border-amber-700 p-3">
          <legend className="px-1">For staff</legend>
          <label htmlFor="v-idtype">ID type</label>
          <select id="v-idtype" name="id_type" defaultValue={v.id_type ?? ''} className={input}>
            <option value="">Choose…</option>
            {d.idTypes.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <label className="flex min-h-12 items-center gap-3">
            <input type="checkbox" name="id_checked" value="yes" defaultChecked={v.id_checked === 'yes'} className="h-7 w-7" /> ID checked by staff
          </label>
        </fieldset>
        <button type="submit" disabled={busy} className="min-h-14 rounded-md bg-canopy-600 px-6 text-xl font-medium text-white disabled:bg-slate-700">
          Sign in
        </button>
      </Form>
    </main>
  )
}

export function OnSitePage() {
  const d = useLoaderData<typeof onsiteLoader>()
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-3 p-4 print:text-black">
      <h1 className="text-2xl font-semibold">On site now — {d.facility}</h1>
      <p>
        Evacuation list, {d.at}: {d.rows.length} visitor{d.rows.length === 1 ? '' : 's'}.
      </p>
      <p className="flex gap-2 print:hidden">
        <a href="/VisLog/export?onsite=1" className={linkBtn} download>
          PDF
        </a>
        <Link to="/VisLog" className={linkBtn}>
          Back to the visitor log
        </Link>
      </p>
      <VisitTable caption="On site now" columns={d.columns} rows={d.rows} />
    </main>
  )
}
