/** A documents screen's list: search by title, New, each document's pages; what waits for the user. */
import { Form, Link, useLoaderData } from '@remix-run/react'
import { formatDateTime } from '../../format/format'
import type { listLoader } from './list.server'
import { WaitingList } from './waiting-list'

// the route map's titles (the shell and its tests name a screen by them)
const TITLES: Record<string, string> = { doc: 'HTML Editor', page: 'HTML Editor', policy: 'Policies' }

export function DocListPage() {
  const data = useLoaderData<ReturnType<typeof listLoader>>()
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="list-title">
      <h1 id="list-title" className="text-2xl font-semibold text-canopy-400">
        {TITLES[data.kind]}
      </h1>
      {data.kind === 'page' ? <p className="text-sm text-slate-400">The platform&rsquo;s own pages (help, notices) that /DisplayHTML shows to every organisation.</p> : null}
      <WaitingList items={data.waiting} />
      <div className="flex flex-wrap items-end gap-3">
        <Form method="get" className="flex items-end gap-2" role="search">
          <label className="flex flex-col gap-1 text-sm text-slate-300">
            Search by title
            <input name="q" defaultValue={data.q} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 text-slate-100" />
          </label>
          <button type="submit" className="min-h-11 rounded-md border border-slate-600 px-4">
            Search
          </button>
        </Form>
        <Link to={`${data.base}/new`} className="flex min-h-11 items-center rounded-md bg-canopy-600 px-4 font-medium text-white hover:bg-canopy-500">
          New {data.noun}
        </Link>
      </div>
      {data.rows.length ? (
        <table className="w-full text-left text-sm">
          <thead className="text-slate-400">
            <tr>
              <th className="p-2">Title</th>
              <th className="p-2">Changed</th>
              <th className="p-2">Versions</th>
              <th className="p-2">{data.kind === 'policy' ? 'Published' : 'Published'}</th>
              {data.kind === 'policy' ? <th className="p-2">Acknowledged</th> : null}
            </tr>
          </thead>
          <tbody>
            {data.rows.map((r) => (
              <tr key={r.id} className="border-t border-slate-800">
                <td className="p-2">
                  <Link to={`${data.base}/${r.id}`} className="flex min-h-11 flex-col justify-center text-canopy-300 underline">
                    {r.title}
                  </Link>
                  {r.sub ? <span className="text-xs text-slate-400">{r.sub}</span> : null}
                </td>
                <td className="p-2">{formatDateTime(r.updated)}</td>
                <td className="p-2">
                  <Link to={`${data.base}/${r.id}/versions`} className="text-canopy-300 underline">
                    {r.version || '—'}
                  </Link>
                </td>
                <td className="p-2">{r.published}</td>
                {data.kind === 'policy' ? (
                  <td className="p-2">
                    {r.signed ? (
                      <Link to={`${data.base}/${r.id}/signatures`} className="text-canopy-300 underline">
                        {r.signed.done} of {r.signed.of}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-slate-300">{data.q ? 'Nothing matches that title.' : `No ${data.noun} yet.`}</p>
      )}
    </section>
  )
}
