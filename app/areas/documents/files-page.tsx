/**
 * The file screens' page (/DocFileUpload, /DocList, /SupFileUpload): upload (a plain multipart form;
 * with JavaScript it is sent by XHR with a progress bar), folders, tags and search as links and a GET
 * form, the list with Open and Download links, thumbnails of images, and a preview (`?preview={id}`)
 * of an image or a PDF (the browser's own PDF viewer in a frame) that works without JavaScript.
 */
import { useRef, useState } from 'react'
import { Form, Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import { formatDate, formatDateTime } from '../../format/format'
import { acceptFor } from '../../files/rules'
import type { FileRow, filesLoader } from './files.server'

const input = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 text-slate-100'
const ROUTE_ID = { facility: 'routes/DocFileUpload', register: 'routes/DocList', platform: 'routes/SupFileUpload' } as const

/** 1234 → "1.2 KB": the stored file's size. */
export function formatBytes(n: number | null): string {
  if (n === null) return ''
  if (n < 1024) return `${n} B`
  if (n < 1_048_576) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1_048_576).toFixed(1)} MB`
}

function UploadFields({ kind, choices, folder }: { kind: 'facility' | 'register' | 'platform'; choices: string[]; folder: string }) {
  const label = 'flex flex-col gap-1 text-sm text-slate-300'
  if (kind === 'platform')
    return (
      <>
        <label className={label}>
          Organisation
          <select name="org" className={input}>
            {choices.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        <label className={label}>
          Folder
          <input name="subdir" className={input} pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" />
        </label>
      </>
    )
  return (
    <>
      {kind === 'register' ? (
        <>
          <label className={label}>
            Document title
            <input name="title" className={input} placeholder="from the file name when empty" />
          </label>
          <label className={label}>
            Doc #
            <input name="doc_no" className={`${input} w-32`} />
          </label>
        </>
      ) : null}
      <label className={label}>
        {kind === 'register' ? 'Type' : 'Folder'}
        <select name="folder" defaultValue={choices.includes(folder) ? folder : ''} className={input}>
          <option value="">—</option>
          {choices.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      {kind === 'register' ? (
        <label className={label}>
          Expires
          <input type="date" name="expires" className={input} />
        </label>
      ) : (
        <label className={label}>
          Tags (comma separated)
          <input name="tags" className={input} />
        </label>
      )}
    </>
  )
}

function Preview({ row, close }: { row: FileRow; close: string }) {
  return (
    <section aria-labelledby="preview-title" className="flex flex-col gap-2 rounded-md border border-slate-600 p-3">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="preview-title" className="font-semibold">
          Preview: {row.name}
        </h2>
        <a href={row.href!} target="_blank" rel="noreferrer" className="flex min-h-11 items-center text-canopy-300 underline">
          Open in a new tab
        </a>
        <a href={row.href!} download className="flex min-h-11 items-center text-canopy-300 underline">
          Download
        </a>
        <Link to={close} className="flex min-h-11 items-center text-canopy-300 underline" preventScrollReset>
          Close preview
        </Link>
      </div>
      {row.preview === 'image' ? (
        <img src={row.href!} alt={row.name} className="max-h-[70vh] max-w-full self-start rounded bg-white object-contain" />
      ) : (
        <iframe src={row.href!} title={`PDF preview of ${row.name}`} className="h-[70vh] w-full rounded bg-white" />
      )}
    </section>
  )
}

export function FilesPage() {
  const d = useLoaderData<ReturnType<typeof filesLoader>>()
  const reply = useActionData<{ error?: string }>()
  const [progress, setProgress] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const form = useRef<HTMLFormElement>(null)
  const revalidator = useRevalidator()
  const link = (p: Record<string, string>) => `?${new URLSearchParams(Object.entries({ q: d.q, folder: d.folder, tag: d.tag, ...p }).filter(([, v]) => v))}`
  const register = d.kind === 'register'
  // with JavaScript: the same post, by XHR, so the bar shows how far it is
  const upload = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const body = new FormData(e.currentTarget)
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${d.path}?_data=${encodeURIComponent(ROUTE_ID[d.kind])}`)
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
        const title = register ? String(body.get('title') ?? '').trim() : ''
        setDone(title || String((body.get('file') as File | null)?.name ?? 'The file'))
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
        {d.title}
      </h1>
      {d.uploaded || done ? <Notice tone="success">{done ?? d.uploaded} was uploaded.</Notice> : null}
      {shownError ? <Notice tone="error">{shownError}</Notice> : null}
      <Form ref={form} method="post" encType="multipart/form-data" onSubmit={upload} className="flex flex-wrap items-end gap-3 rounded-md border border-slate-700 p-3" aria-label={register ? 'Add a document' : 'Upload a file'}>
        <label className="flex flex-col gap-1 text-sm text-slate-300">
          {register ? `PDF, up to ${d.maxMb} MB` : `File (PNG, JPEG, WebP, PDF, CSV or TXT, up to ${d.maxMb} MB)`}
          <input type="file" name="file" required accept={acceptFor(register ? 'pdf' : undefined)} className="min-h-11" />
        </label>
        <UploadFields kind={d.kind} choices={d.choices} folder={d.folder} />
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
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
        {d.folder ? <input type="hidden" name="folder" value={d.folder} /> : null}
        {d.tag ? <input type="hidden" name="tag" value={d.tag} /> : null}
        <label className="flex flex-col gap-1 text-sm text-slate-300">
          Search by name
          <input name="q" type="search" defaultValue={d.q} className={input} />
        </label>
        <Button type="submit" tone="plain">
          Search
        </Button>
      </Form>
      <nav aria-label={register ? 'Document types' : 'Folders'} className="flex flex-wrap gap-1 text-sm">
        <Link to={link({ folder: '' })} className={`flex min-h-11 items-center rounded-md px-3 ${!d.folder ? 'bg-slate-800 font-semibold' : 'underline'}`}>
          {register ? 'All types' : 'All folders'}
        </Link>
        {d.folders.map((f) => (
          <Link key={f} to={link({ folder: f })} aria-current={d.folder === f ? 'page' : undefined} className={`flex min-h-11 items-center rounded-md px-3 ${d.folder === f ? 'bg-slate-800 font-semibold' : 'underline'}`}>
            {f}
          </Link>
        ))}
      </nav>
      {d.tags.length ? (
        <nav aria-label={register ? 'Status' : 'Tags'} className="flex flex-wrap gap-1 text-sm">
          {d.tag ? (
            <Link to={link({ tag: '' })} className="flex min-h-11 items-center rounded-md px-2 underline">
              {register ? 'Any status' : 'Any tag'}
            </Link>
          ) : null}
          {d.tags.map((t) => (
            <Link key={t} to={link({ tag: t })} aria-current={d.tag === t ? 'page' : undefined} className={`flex min-h-11 items-center rounded-full border border-slate-700 px-3 ${d.tag === t ? 'bg-slate-800 font-semibold' : ''}`}>
              #{t}
            </Link>
          ))}
        </nav>
      ) : null}
      {d.preview ? <Preview row={d.preview} close={link({})} /> : d.previewMissing ? <Notice tone="error">That file has no preview: only images and PDFs that are stored can be previewed.</Notice> : null}
      <p className="text-sm text-slate-400">
        {d.matching > d.rows.length ? `The newest ${d.rows.length} of ${d.matching} matching files; search to narrow them. ` : `${d.rows.length} of ${d.total} files`}
      </p>
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-slate-400">
            <tr>
              <th className="p-2">Preview</th>
              <th className="p-2">Name</th>
              {register ? <th className="p-2">Doc #</th> : null}
              <th className="p-2">Type</th>
              <th className="p-2">Size</th>
              <th className="p-2">{register ? 'Owner' : 'Uploaded by'}</th>
              <th className="p-2">{register ? 'Updated' : 'Date'}</th>
              {register ? <th className="p-2">Expires</th> : null}
              <th className="p-2">{register ? 'Type of document' : 'Folder'}</th>
              <th className="p-2">
                <span className="sr-only">Links</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {d.rows.map((r) => (
              <tr key={r.id} className="border-t border-slate-800">
                <td className="p-2">
                  {r.preview === 'image' ? (
                    <Link to={link({ preview: r.id })} preventScrollReset aria-label={`Preview ${r.name}`}>
                      <img src={r.href!} alt="" loading="lazy" className="h-12 w-16 rounded object-cover" />
                    </Link>
                  ) : r.preview === 'pdf' ? (
                    <Link to={link({ preview: r.id })} preventScrollReset className="flex h-12 w-16 items-center justify-center rounded bg-red-900 text-xs font-bold text-white">
                      <span aria-hidden>PDF</span>
                      <span className="sr-only">{`Preview ${r.name}`}</span>
                    </Link>
                  ) : null}
                </td>
                <td className="p-2">
                  {r.href && !r.missing ? (
                    <a href={r.href} target="_blank" rel="noreferrer" className="flex min-h-11 items-center text-canopy-300 underline">
                      {r.name}
                    </a>
                  ) : (
                    <span className="flex min-h-11 items-center">{r.name}</span>
                  )}
                  {r.missing ? <span className="text-xs text-amber-300">The stored file is missing.</span> : !r.href ? <span className="text-xs text-slate-400">No stored file.</span> : null}
                  {r.tags.length && !register ? <span className="block text-xs text-slate-400">{r.tags.map((t) => `#${t}`).join(' ')}</span> : null}
                  {register && r.status ? <span className={`block text-xs ${r.status === 'Expired' ? 'text-red-300' : r.status === 'Expiring Soon' ? 'text-amber-300' : 'text-slate-400'}`}>{r.status}</span> : null}
                </td>
                {register ? <td className="whitespace-nowrap p-2">{r.docNo}</td> : null}
                <td className="p-2">{r.type}</td>
                <td className="whitespace-nowrap p-2">{formatBytes(r.size)}</td>
                <td className="p-2">{r.uploader}</td>
                <td className="whitespace-nowrap p-2">{r.uploaded ? (register ? formatDate(r.uploaded) : formatDateTime(r.uploaded)) : ''}</td>
                {register ? <td className="whitespace-nowrap p-2">{r.expires ? formatDate(r.expires) : ''}</td> : null}
                <td className="p-2">{r.folder}</td>
                <td className="p-2">
                  {r.href && !r.missing ? (
                    <span className="flex flex-wrap gap-2">
                      {r.preview ? (
                        <Link to={link({ preview: r.id })} preventScrollReset className="flex min-h-11 items-center text-canopy-300 underline">
                          Preview<span className="sr-only"> {r.name}</span>
                        </Link>
                      ) : null}
                      <a href={r.href} download className="flex min-h-11 items-center text-canopy-300 underline">
                        Download<span className="sr-only"> {r.name}</span>
                      </a>
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!d.rows.length ? <p className="text-slate-300">{d.q || d.folder || d.tag ? 'Nothing matches.' : 'No files yet.'}</p> : null}
    </section>
  )
}
