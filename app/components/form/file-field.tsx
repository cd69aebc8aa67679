/**
 * The fileDND field of the edit form (SPEC §2.6 file drop). The field's value is a stored file's
 * reference (/getfiles/{org}/{name}), kept in a hidden input so a save without a new file keeps it.
 *
 * With JavaScript: a drop zone (drag a file onto it, or tap it to choose one: a large target on a
 * tablet) that uploads at once to POST /files/{org} with XMLHttpRequest, showing the progress, then
 * puts the returned reference in the hidden input and shows the file (a preview for images).
 * Without JavaScript: a plain file input of the same name in the multipart form; the save stores
 * the file (app/files/form-uploads.server.ts). Refusals (too large, a type not accepted, the network)
 * show beside the field in words; the server checks everything again.
 */
import type { FieldMetadata } from '@conform-to/react'
import { useEffect, useState, type DragEvent } from 'react'
import { FILE_MSG, IMAGE_EXTS, acceptFor, extOf, refuseForField, refuseName } from '../../files/rules'
import { useT } from '../../i18n/t'
import type { EditData } from '../../screens/record-edit.server'
import type { FieldDef } from '../../schemas/table-schema'
import { fileHref } from '../table/table-cells'

/** Sends one file as files[0]; resolves with the stored reference, rejects with the server's message. */
function send(file: File, url: string, progress: (pct: number) => void): Promise<{ path: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url)
    xhr.responseType = 'json'
    xhr.upload.onprogress = (e) => e.lengthComputable && progress(Math.round((e.loaded / e.total) * 100))
    xhr.onload = () => {
      const body = xhr.response as { files?: Array<{ path: string }>; errors?: Array<{ message: string }> } | null
      if (xhr.status === 200 && body?.files?.[0]?.path) resolve(body.files[0])
      else reject(new Error(body?.errors?.[0]?.message ?? `${FILE_MSG.network} (${xhr.status})`))
    }
    xhr.onerror = () => reject(new Error(FILE_MSG.network))
    const fd = new FormData()
    fd.append('files[0]', file)
    xhr.send(fd)
  })
}

/** The name a stored reference shows: its file name, without the folder or query. */
const nameOf = (ref: string) => {
  const last = ref.split('?')[0].split('/').pop() ?? ref
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

export function FileField({ f, meta, data }: { f: FieldDef; meta: FieldMetadata<unknown>; data: EditData }) {
  const t = useT()
  const initial = typeof meta.initialValue === 'string' ? meta.initialValue : ''
  const [hydrated, setHydrated] = useState(false)
  const [value, setValue] = useState(initial)
  const [chosen, setChosen] = useState<string | null>(null)
  const [pct, setPct] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [over, setOver] = useState(false)
  useEffect(() => setHydrated(true), [])
  // a refused save (or another record) brings a new value from the server
  useEffect(() => setValue(initial), [initial])

  const { org, maxBytes } = data.files
  const href = fileHref(value, org)
  const image = IMAGE_EXTS.includes(extOf(value.split('?')[0]))
  const hint = `${meta.id}-file-state`
  const describedBy = [meta.errors?.length ? meta.errorId : '', hint].filter(Boolean).join(' ')

  async function choose(file: File | undefined) {
    if (!file || pct !== null) return
    setError(null)
    const refused = refuseName(file.name) ?? refuseForField(f.format, f.label, extOf(file.name)) ?? (file.size > maxBytes ? FILE_MSG.tooBig(file.name, maxBytes) : null)
    if (refused) return setError(refused)
    setPct(0)
    try {
      const out = await send(file, `/files/${encodeURIComponent(org)}`, setPct)
      setValue(out.path)
      setChosen(file.name)
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setPct(null)
    }
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setOver(false)
    void choose(e.dataTransfer.files[0])
  }

  const current = href ? (
    <span className="flex items-center gap-3">
      {image ? <img src={href} alt={`${f.label}: ${chosen ?? nameOf(value)}`} className="h-16 w-16 rounded object-cover" /> : null}
      <a href={href} target="_blank" rel="noreferrer" className="break-all text-canopy-400 underline">
        {chosen ?? nameOf(value)}
      </a>
    </span>
  ) : null

  return (
    <div className="flex flex-col gap-2">
      <input type="hidden" name={meta.name} value={value} />
      {hydrated ? (
        <label
          onDragOver={(e) => {
            e.preventDefault()
            setOver(true)
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
          className={`flex min-h-24 cursor-pointer flex-col items-center justify-center gap-2 rounded-md border-2 border-dashed p-4 text-center focus-within:ring-2 focus-within:ring-canopy-400 ${over ? 'border-canopy-400 bg-slate-800' : 'border-slate-600'}`}
        >
          <input
            type="file"
            id={meta.id}
            accept={acceptFor(f.format)}
            aria-invalid={meta.errors?.length || error ? true : undefined}
            aria-describedby={describedBy}
            disabled={pct !== null}
            onChange={(e) => {
              void choose(e.target.files?.[0])
              e.target.value = ''
            }}
            className="sr-only"
          />
          <span className="text-slate-200">{t('Drop a file here or tap to choose one')}</span>
          {pct !== null ? (
            <span className="flex items-center gap-2 text-sm">
              {t('Uploading…')}
              <progress max={100} value={pct} aria-label={t('Upload progress')} className="w-40" />
              <span>{pct}%</span>
            </span>
          ) : null}
        </label>
      ) : (
        // no JavaScript: the file goes with the form's own post
        <input type="file" id={meta.id} name={meta.name} accept={acceptFor(f.format)} aria-describedby={describedBy} className="min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100" />
      )}
      <span id={hint} className="flex flex-wrap items-center gap-3 text-sm text-slate-300">
        {current ? (
          <>
            <span>{t('Current file')}:</span>
            {current}
            {hydrated ? (
              <button type="button" onClick={() => (setValue(''), setChosen(null))} className="min-h-11 rounded-md border border-slate-600 px-3 hover:bg-slate-800">
                {t('Remove file')}
              </button>
            ) : null}
          </>
        ) : null}
      </span>
      {error ? (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  )
}
