/**
 * The file screens' page: upload (a plain multipart form; with JavaScript it is sent by XHR with a
 * progress bar), folders, tags and search as links and a GET form, the list with previews.
 */
import { useRef, useState } from 'react'
import { Form, Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import { formatDateTime } from '../../format/format'
import { acceptFor } from '../../files/rules'
import type { filesLoader } from './files.server'

const input = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 text-slate-100'

export function FilesPage() {
  const d = useLoaderData<ReturnType<typeof filesLoader>>()
  const reply = useActionData<{ error?: string }>()
  const [progress, setProgress] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const form = useRef<HTMLFormElement>(null)
  const revalidator = useRevalidator()
  const link = (p: Record<string, string>) => `?${new URLSearchParams(Object.entries({ q: d.q, folder: d.folder, tag: d.tag, ...p }).filter(([, v]) => v))}`
  // with JavaScript: the same post, by XHR, so the bar shows how far it is
  const upload = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const body = new FormData(e.currentTarget)
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${d.path}?_data=${encodeURIComponent(d.kind === 'facility' ? 'routes/DocFileUpload' : 'routes/SupFileUpload')}`)
    xhr.upload.onprogress = (ev) => ev.lengthComputable && setProgress(Math.round((ev.loaded / ev.total) * 100))
    xhr.onerror = () => {
      setProgress(null)
      setError('The upload did not reach the server. Check the connection and try again.')
    }
    xhr.onload = () => {
      setProgress(null)
      let msg: string | null = null
      try {
        msg = (JSON.parse(xhr.responseText) as { error?: string }).error ?? null
      } catch {
        // a redirect answer: the upload was taken
      }
      if (xhr.status >= 400 || msg) setError(msg ?? `The upload was refused (${xhr.status}).`)
      else {
        setError(null)
        setDone(String((body.get('file') as File | null)?.name ?? 'The file'))
        form.current?.reset()
        revalidator.revalidate()
      }
    }
    setError(null)
    setDone(null)
    setProgress(0)
    xhr.send(body)
  }
  const shownError = error ?? reply?.error ?? null
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="files-title">
      <h1 id="files-title" className="text-2xl font-semibold text-canopy-400">
        File Upload
      </h1>
      {d.uploaded || done ? <Notice tone="success">{done ?? d.uploaded} was uploaded.</Notice> : null}
      {shownError ? <Notice tone="error">{shownError}</Notice> : null}
      <Form ref={form} method="post" encType="multipart/form-data" onSubmit={upload} className="flex flex-wrap items-end gap-3 rounded-md border border-slate-700 p-3" aria-label="Upload a file">
        <label className="flex flex-col gap-1 text-sm text-slate-300">
          File (PNG, JPEG, WebP, PDF, CSV or TXT, up to {d.maxMb} MB)
          <input type="file" name="file" required accept={acceptFor(undefined)} className="min-h-11" />
        </label>
        {d.kind === 'facility' ? (
          <>
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              Folder
              <select name="category" defaultValue={d.folder} className={input}>
                <option value="">—</option>
                {d.categories.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              Tags (comma separated)
              <input name="tags" className={input} />
            </label>
          </>
        ) : (
          <>
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              Organisation
              <select name="org" className={input}>
                {d.orgs.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              Folder
              <input name="subdir" className={input} pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" />
            </label>
          </>
        )}
        <Button type="submit" disabled={progress !== null}>
          Upload
        </Button>
        {progress !== null ? (
          <label className="flex items-center gap-2 text-sm">
            Uploading
            <progress max={100} value={progress} className="w-40" />
            {progress}%
          </label>
        ) : null}
      </Form>
      <div className="flex flex-wrap items-end gap-3">
        <Form method="get" role="search" className="flex items-end gap-2">
          {d.folder ? <input type="hidden" name="folder" value={d.folder} /> : null}
          {d.tag ? <input type="hidden" name="tag" value={d.tag} /> : null}
          <label className="flex flex-col gap-1 text-sm text-slate-300">
            Search by name
            <input name="q" defaultValue={d.q} className={input} />
          </label>
          <Button type="submit" tone="plain">
            Search
          </Button>
        </Form>
      </div>
      <nav aria-label="Folders" className="flex flex-wrap gap-1 text-sm">
        <Link to={link({ folder: '' })} className={`flex min-h-11 items-center rounded-md px-3 ${!d.folder ? 'bg-slate-800 font-semibold' : 'underline'}`}>
          All folders
        </Link>
        {d.folders.map((f) => (
          <Link key={f} to={link({ folder: f })} className={`flex min-h-11 items-center rounded-md px-3 ${d.folder === f ? 'bg-slate-800 font-semibold' : 'underline'}`}>
            {f}
          </Link>
        ))}
      </nav>
      {d.tags.length ? (
        <nav aria-label="Tags" className="flex flex-wrap gap-1 text-xs">
          {d.tag ? (
            <Link to={link({ tag: '' })} className="flex min-h-11 items-center rounded-md px-2 underline">
              Any tag
            </Link>
          ) : null}
          {d.tags.map((t) => (
            <Link key={t} to={link({ tag: t })} className={`flex min-h-11 items-center rounded-full border border-slate-700 px-3 ${d.tag === t ? 'bg-slate-800 font-semibold' : ''}`}>
              #{t}
            </Link>
          ))}
        </nav>
      ) : null}
      <p className="text-sm text-slate-400">
        {d.rows.length} of {d.total} files
      </p>
      <table className="w-full text-left text-sm">
        <thead className="text-slate-400">
          <tr>
            <th className="p-2">Preview</th>
            <th className="p-2">Name</th>
            <th className="p-2">Type</th>
            <th className="p-2">Size</th>
            <th className="p-2">Uploaded by</th>
            <th className="p-2">Date</th>
            <th className="p-2">Folder</th>
          </tr>
        </thead>
        <tbody>
          {d.rows.map((r) => (
            <tr key={r.id} className="border-t border-slate-800">
              <td className="p-2">
                {r.href && r.preview === 'image' ? (
                  <a href={r.href} target="_blank" rel="noreferrer">
                    <img src={r.href} alt={`Preview of ${r.name}`} loading="lazy" className="h-12 w-16 rounded object-cover" />
                  </a>
                ) : r.href && r.preview === 'pdf' ? (
                  <a href={r.href} target="_blank" rel="noreferrer" className="flex h-12 w-16 items-center justify-center rounded bg-red-900 text-xs font-bold" title={`Open ${r.name}`}>
                    PDF
                  </a>
                ) : null}
              </td>
              <td className="p-2">
                {r.href ? (
                  <a href={r.href} target="_blank" rel="noreferrer" className="flex min-h-11 items-center text-canopy-300 underline">
                    {r.name}
                  </a>
                ) : (
                  <span title="This record links to no stored file">{r.name}</span>
                )}
                {r.tags.length ? <span className="text-xs text-slate-400">{r.tags.map((t) => `#${t}`).join(' ')}</span> : null}
              </td>
              <td className="p-2">{r.type}</td>
              <td className="p-2">{r.size}</td>
              <td className="p-2">{r.uploader}</td>
              <td className="p-2">{r.uploaded ? formatDateTime(r.uploaded) : ''}</td>
              <td className="p-2">{r.folder}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
