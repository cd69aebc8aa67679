/** A document's versions: the list (author, time), one version shown, two compared, restore. Plain forms and links. */
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import { formatDateTime } from '../../format/format'
import { DocNav } from './doc-nav'
import type { versionsLoader } from './versions-route.server'

export function DocVersionsPage() {
  const data = useLoaderData<ReturnType<typeof versionsLoader>>()
  const done = useActionData<{ error?: string }>()
  const latest = data.versions[0]?.version ?? 0
  const older = data.versions[1]?.version ?? latest
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="versions-title">
      <DocNav base={data.base} id={data.id} current="versions" noun={data.noun} />
      <h1 id="versions-title" className="text-2xl font-semibold text-canopy-400">
        Versions of {data.title}
      </h1>
      {data.restored ? <Notice tone="success">Version {data.restored} was restored as version {latest}.</Notice> : null}
      {done?.error ? <Notice tone="error">{done.error}</Notice> : null}
      {data.versions.length ? (
        <>
          <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Compare two versions">
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              Compare version
              <select name="a" defaultValue={String(data.compare?.a ?? older)} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3">
                {data.versions.map((v) => (
                  <option key={v.version} value={v.version}>
                    {v.version}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              with version
              <select name="b" defaultValue={String(data.compare?.b ?? latest)} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3">
                {data.versions.map((v) => (
                  <option key={v.version} value={v.version}>
                    {v.version}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" tone="plain">
              Compare
            </Button>
          </Form>
          <table className="w-full text-left text-sm">
            <thead className="text-slate-400">
              <tr>
                <th className="p-2">Version</th>
                <th className="p-2">Saved by</th>
                <th className="p-2">When</th>
                <th className="p-2">Title</th>
                <th className="p-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.versions.map((v) => (
                <tr key={v.version} className="border-t border-slate-800">
                  <td className="p-2">
                    {v.version}
                    {v.version === data.publishedVersion ? <span className="ml-2 rounded bg-canopy-800 px-2 text-xs">published</span> : null}
                    {v.restoredFrom ? <span className="ml-2 text-xs text-slate-400">(restored from {v.restoredFrom})</span> : null}
                  </td>
                  <td className="p-2">{v.authorName}</td>
                  <td className="p-2">{formatDateTime(v.at)}</td>
                  <td className="p-2">{v.title}</td>
                  <td className="flex flex-wrap gap-2 p-2">
                    <Link to={`?v=${v.version}`} className="flex min-h-11 items-center text-canopy-300 underline">
                      View version {v.version}
                    </Link>
                    {v.version !== latest ? (
                      <Form method="post">
                        <input type="hidden" name="ts" value={data.ts} />
                        <input type="hidden" name="version" value={v.version} />
                        <Button type="submit" name="intent" value="restore" tone="plain">
                          Restore version {v.version}
                        </Button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p className="text-slate-300">No versions yet: the first save makes version 1.</p>
      )}
      {data.compare ? (
        <section aria-labelledby="compare-title" className="rounded-md border border-slate-700 p-3">
          <h2 id="compare-title" className="mb-2 font-semibold">
            Changes from version {data.compare.a} to version {data.compare.b}
          </h2>
          <p className="mb-2 text-sm text-slate-400">
            {data.compare.added} added, {data.compare.removed} removed, {data.compare.changed} changed lines
            {data.compare.titleA !== data.compare.titleB ? ` · title: “${data.compare.titleA}” → “${data.compare.titleB}”` : ''}
          </p>
          <div className="flex flex-col gap-1 font-mono text-sm" data-testid="diff">
            {data.compare.rows.map((r, i) =>
              r.kind === 'fold' ? (
                <p key={i} className="text-slate-500">
                  … {r.lines} unchanged lines …
                </p>
              ) : r.kind === 'changed' ? (
                <p key={i} className="rounded bg-slate-900 px-2">
                  {r.parts.map((p, j) =>
                    p.change === 'added' ? (
                      <ins key={j} className="bg-green-900 text-green-100 no-underline">
                        {p.text}
                      </ins>
                    ) : p.change === 'removed' ? (
                      <del key={j} className="bg-red-950 text-red-200">
                        {p.text}
                      </del>
                    ) : (
                      <span key={j}>{p.text}</span>
                    ),
                  )}
                </p>
              ) : (
                <p key={i} className={`px-2 ${r.kind === 'added' ? 'bg-green-950 text-green-100' : r.kind === 'removed' ? 'bg-red-950 text-red-200 line-through' : 'text-slate-300'}`}>
                  <span className="sr-only">{r.kind === 'added' ? 'Added: ' : r.kind === 'removed' ? 'Removed: ' : ''}</span>
                  {r.kind === 'added' ? '+ ' : r.kind === 'removed' ? '− ' : '  '}
                  {r.text}
                </p>
              ),
            )}
          </div>
        </section>
      ) : null}
      {data.shown ? (
        <section aria-labelledby="shown-title" className="rounded-md border border-slate-700 p-3">
          <h2 id="shown-title" className="mb-2 font-semibold">
            Version {data.shown.version}: {data.shown.title} ({data.shown.authorName}, {formatDateTime(data.shown.at)})
          </h2>
          <div className="doc-content" dangerouslySetInnerHTML={{ __html: data.shown.html }} />
        </section>
      ) : null}
    </section>
  )
}
