/** The policy pages: read and acknowledge, my policies, who signed (managers). */
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import { formatDateTime } from '../../format/format'
import { DocNav } from './doc-nav'
import type { Signature } from './policies.server'
import type { myPoliciesLoader, readLoader } from './policy-routes.server'
import { WaitingList } from './waiting-list'

export function PolicyReadPage() {
  const d = useLoaderData<typeof readLoader>()
  const r = useActionData<{ error?: string }>()
  return (
    <section className="print-area flex flex-col gap-4 p-4" aria-labelledby="policy-title">
      <p className="text-sm print:hidden">
        <Link to="/MyPolicies" className="text-canopy-300 underline">
          My policies
        </Link>
        {d.manager ? (
          <>
            {' · '}
            <Link to={`/PolDocs/${d.id}/signatures`} className="text-canopy-300 underline">
              Who signed
            </Link>
          </>
        ) : null}
      </p>
      <h1 id="policy-title" className="text-2xl font-semibold text-canopy-400">
        {d.title}
      </h1>
      <p className="text-sm text-slate-400">
        {d.docNo ? `${d.docNo} · ` : ''}
        {d.version ? `version ${d.version}` : 'not published yet'}
      </p>
      {d.done ? <Notice tone="success">Thank you: your acknowledgement of version {d.version} is recorded.</Notice> : null}
      {r?.error ? <Notice tone="error">{r.error}</Notice> : null}
      <article className="doc-content rounded-md bg-white p-4 text-slate-900" dangerouslySetInnerHTML={{ __html: d.html }} />
      {d.version && d.addressed ? (
        d.ackedAt ? (
          <Notice tone="success">You acknowledged version {d.version} on {formatDateTime(d.ackedAt)}.</Notice>
        ) : (
          <Form method="post" className="flex flex-col gap-3 rounded-md border border-amber-500 p-3 print:hidden">
            <input type="hidden" name="version" value={d.version} />
            <label className="flex min-h-11 items-center gap-3">
              <input type="checkbox" name="confirm" value="yes" required className="h-6 w-6" />
              <span>I have read and understood this policy (version {d.version}).</span>
            </label>
            <div>
              <Button type="submit" name="intent" value="acknowledge">
                Acknowledge
              </Button>
            </div>
          </Form>
        )
      ) : null}
    </section>
  )
}

export function MyPoliciesPage() {
  const d = useLoaderData<typeof myPoliciesLoader>()
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="mine-title">
      <h1 id="mine-title" className="text-2xl font-semibold text-canopy-400">
        My Policies
      </h1>
      <WaitingList items={d.waiting} empty="Nothing waits for you: every policy addressed to you is acknowledged." />
      {d.done.length ? (
        <section aria-labelledby="done-title">
          <h2 id="done-title" className="mb-2 font-semibold">
            Acknowledged
          </h2>
          <ul className="flex flex-col gap-1">
            {d.done.map((x) => (
              <li key={`${x.id}:${x.version}`}>
                <Link to={`/PolDocs/${x.id}/read`} className="flex min-h-11 items-center gap-2 text-canopy-300 underline">
                  {x.title}
                  <span className="text-xs text-slate-400">
                    version {x.version}, {formatDateTime(x.at)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  )
}

export function PolicySignaturesPage() {
  const d = useLoaderData() as { id: string; title: string; docNo: string; version: number; rows: Signature[] }
  const signed = d.rows.filter((r) => r.signedAt).length
  return (
    <section className="print-area flex flex-col gap-4 p-4" aria-labelledby="sig-title">
      <div className="print:hidden">
        <DocNav base="/PolDocs" id={d.id} current="signatures" noun="policy" />
      </div>
      <h1 id="sig-title" className="text-2xl font-semibold text-canopy-400">
        Who signed {d.title}
      </h1>
      <p className="text-slate-300">
        {d.version ? `Version ${d.version}: ${signed} of ${d.rows.length} acknowledged.` : 'This policy is not published yet: nobody has been asked to acknowledge it.'}{' '}
        <a href={`/PolDocs/${d.id}/signatures.csv`} className="text-canopy-300 underline print:hidden">
          Export CSV
        </a>
      </p>
      <table className="w-full text-left text-sm">
        <thead className="text-slate-400">
          <tr>
            <th className="p-2">Name</th>
            <th className="p-2">Email</th>
            <th className="p-2">Version {d.version}</th>
            <th className="p-2">Earlier</th>
          </tr>
        </thead>
        <tbody>
          {d.rows.map((r) => (
            <tr key={r.uid} className="border-t border-slate-800">
              <td className="p-2">{r.name}</td>
              <td className="p-2">{r.email}</td>
              <td className="p-2">{r.signedAt ? `Acknowledged ${formatDateTime(r.signedAt)}` : <span className="text-amber-300">Not yet</span>}</td>
              <td className="p-2 text-slate-400">{r.earlier ? `version ${r.earlier.version}, ${formatDateTime(r.earlier.at)}` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
