/**
 * List and multilist pickers (SPEC §2.6): a native select, options from another table or the
 * schema's list. A long list gets a search box once JavaScript runs: typing hides the options that
 * do not match (the chosen ones stay), Enter picks the first match instead of saving the form.
 * Without JavaScript it is the plain select.
 */
import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'

/** More options than this get a search box. */
export const SEARCH_FROM = 10

export function ListPicker({ meta, opts, multiple, label, className, t, needed }: { meta: FieldMetadata<string> | FieldMetadata<string[]>; opts: Array<{ value: string; label: string }>; multiple?: boolean; label: string; className: string; t: (k: string) => string; needed?: boolean }) {
  const [q, setQ] = useState('')
  const [live, setLive] = useState(false)
  const select = useRef<HTMLSelectElement>(null)
  useEffect(() => setLive(true), [])
  const needle = q.trim().toLowerCase()
  const shown = (o: { label: string }) => !needle || o.label.toLowerCase().includes(needle)
  const matches = needle ? opts.filter(shown) : opts
  const pickFirst = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return
    e.preventDefault()
    const el = select.current
    const first = matches[0]
    if (!el || !first) return
    if (multiple) [...el.options].forEach((o) => o.value === first.value && (o.selected = true))
    else el.value = first.value
    el.dispatchEvent(new Event('change', { bubbles: true }))
    el.focus()
  }
  const props = getSelectProps(meta as FieldMetadata<string>)
  return (
    <span className="flex flex-col gap-1">
      {live && opts.length > SEARCH_FROM ? (
        <input type="search" value={q} onChange={(e) => setQ(e.target.value)} onKeyDown={pickFirst} aria-label={`${t('Search')} ${label}`} placeholder={t('Search')} aria-controls={meta.id} className={className} />
      ) : null}
      <select ref={select} {...props} aria-required={needed || undefined} multiple={multiple} size={multiple ? Math.min(8, Math.max(3, opts.length)) : undefined} className={className}>
        {multiple ? null : <option value="">{t('Choose…')}</option>}
        {opts.map((o) => (
          <option key={o.value} value={o.value} hidden={!shown(o)}>
            {o.label}
          </option>
        ))}
      </select>
      {needle ? (
        <span aria-live="polite" className="text-xs text-slate-400">
          {matches.length} {t(matches.length === 1 ? 'match' : 'matches')}
        </span>
      ) : null}
    </span>
  )
}
