/** /ReleaseNotes: every published release note, newest version first (app/areas/release-notes). */
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { Notice } from '../../components/ui'
import { formatDate } from '../../format/format'
import type { releaseNotesAction, releaseNotesLoader } from './routes.server'

export function ReleaseNotesPage() {
  const d = useLoaderData<typeof releaseNotesLoader>()
  const err = useActionData<typeof releaseNotesAction>()
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold text-canopy-400">Release notes</h1>
        {d.canWrite ? (
          <Link to={`${d.writePath}/new`} className="flex min-h-11 items-center rounded-md bg-canopy-600 px-4 font-medium text-white">
            Write a release note
          </Link>
        ) : null}
      </div>
      {err && 'error' in err ? <Notice tone="error">{err.error}</Notice> : null}
      {d.versions.length ? (
        d.versions.map((v) => (
          <section key={v.version} aria-label={`Version ${v.version}`} className="rounded-md border border-slate-700 p-3">
            <h2 className="text-xl font-semibold">Version {v.version}</h2>
            <ul className="mt-2 flex flex-col gap-3">
              {v.notes.map((n) => (
                <li key={n.id}>
                  <h3 className="font-semibold">{n.title}</h3>
                  <p className="text-sm text-slate-400">{[n.released ? formatDate(n.released) : null, n.category, n.module].filter(Boolean).join(' · ')}</p>
                  <div className="release-note mt-1 [&_a]:underline [&_li]:ml-5 [&_ul]:list-disc" dangerouslySetInnerHTML={{ __html: n.html }} />
                </li>
              ))}
            </ul>
          </section>
        ))
      ) : (
        <p className="text-slate-400">No release notes have been published yet.</p>
      )}
    </main>
  )
}
