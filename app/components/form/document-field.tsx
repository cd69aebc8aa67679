/**
 * A `document` field in the record form (SPEC §2.6): the document's HTML in a text area beside how it
 * reads, in a preview frame with no scripts, forms or same-origin rights (`sandbox=""`), so nothing
 * typed can act on the page. Without JavaScript the preview shows the document as stored (the
 * documents area's sanitiser cleaned it on save); with JavaScript it follows the text as it is typed.
 * The documents screens keep their own rich editor (decision 044); this is the generic form's widget.
 */
import { getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { useEffect, useState } from 'react'
import type { FieldDef } from '../../schemas/table-schema'

const PREVIEW_STYLE = '<style>body{font-family:system-ui,sans-serif;margin:8px;color:#0f172a;background:#fff;line-height:1.4}img{max-width:100%}table{border-collapse:collapse}td,th{border:1px solid #cbd5e1;padding:4px}</style>'

export function DocumentField({ f, meta, className, t, needed }: { f: FieldDef; meta: FieldMetadata<string>; className: string; t: (s: string) => string; needed?: boolean }) {
  const first = Array.isArray(meta.initialValue) ? meta.initialValue.at(-1) : meta.initialValue
  const [html, setHtml] = useState(typeof first === 'string' ? first : '')
  const [shown, setShown] = useState(html)
  useEffect(() => {
    const id = setTimeout(() => setShown(html), 300)
    return () => clearTimeout(id)
  }, [html])
  return (
    <span className="flex flex-col gap-2">
      <textarea {...getTextareaProps(meta)} aria-required={needed || undefined} rows={8} onInput={(e) => setHtml(e.currentTarget.value)} className={`${className} font-mono text-sm`} />
      <iframe title={`${f.label}: ${t('Preview')}`} sandbox="" srcDoc={`${PREVIEW_STYLE}${shown}`} className="h-48 w-full rounded-md border border-slate-600 bg-white" />
    </span>
  )
}
