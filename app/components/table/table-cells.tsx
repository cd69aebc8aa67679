/**
 * One cell of the table screen by its column's display format (SPEC §2.5): a referenced
 * record's label, date, currency, measure, tax state, image, pdf, check (a form that toggles it,
 * so it works without JavaScript), array (a count that expands the row), trim, qrcode, status.
 */
import { Link, useFetcher, useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import { formatCell, isYes, TRIM_LENGTH } from '../../format/format'
import { isListType, listText } from '../../i18n/schema-text'
import { readToggle, toggleValue } from '../../screens/table-toggle'
import { fileHref } from '../../utils/safe-url'
import type { TableColumn, TableRow } from '../../screens/table-page.server'

export interface CellContext {
  org: string
  timeZone: string
  t: (key: string) => string
  /** link that expands or folds this row */
  expandHref: (id: string) => string
  expanded: (id: string) => boolean
}

/** A stored file reference as a safe address (utils/safe-url.ts). */
export { fileHref }

/** A record's Active / Inactive: a green or red dot (`dot`: tailwind.css), its word for screen readers and as its title. */
export function StatusDot({ on, t }: { on: boolean; t: (k: string) => string }) {
  return (
    <span className={on ? 'dot dot-on' : 'dot dot-off'} title={on ? t('Active') : t('Inactive')}>
      <span className="sr-only">{on ? t('Active') : t('Inactive')}</span>
    </span>
  )
}

/**
 * A yes/no cell that flips with one tap: a form whose button carries the whole change in its value
 * (`toggleValue`, read back by the table's action), so a row pays one form and one button instead of
 * five hidden fields (issue 30 page weight). Without JavaScript the browser posts the button's value.
 */
function CheckToggle({ row, col, t }: { row: TableRow; col: TableColumn; t: (k: string) => string }) {
  const fetcher = useFetcher<{ error?: string; form?: string }>()
  const navigate = useNavigate()
  // the save rules need more than the tap: the record's form opens, the check already set there
  const form = fetcher.state === 'idle' ? fetcher.data?.form : undefined
  useEffect(() => {
    if (form) navigate(form)
  }, [form, navigate])
  const pending = fetcher.state !== 'idle' ? readToggle(String(fetcher.formData?.get('toggle') ?? ''))?.value : null
  const on = pending ? pending === 'yes' : isYes(row.values[col.key])
  return (
    <fetcher.Form method="post" className="inline">
      <button
        type="submit"
        name="toggle"
        value={toggleValue({ value: on ? 'no' : 'yes', id: row.id, ts: row.ts, field: col.key })}
        aria-pressed={on}
        aria-label={`${col.label}: ${on ? t('Yes') : t('No')}`}
        title={t('Click to change')}
        className={`chk-btn ${on ? 'border-green-600 bg-green-900 text-green-100' : 'border-slate-600 bg-slate-900 text-slate-300'}`}
      >
        {on ? t('Yes') : t('No')}
      </button>
      {fetcher.data?.error && !fetcher.data.form ? (
        <span role="alert" className="ml-2 text-xs text-red-300">
          {fetcher.data.error}
        </span>
      ) : null}
    </fetcher.Form>
  )
}

export function Cell({ row, col, ctx }: { row: TableRow; col: TableColumn; ctx: CellContext }) {
  const v = row.values[col.key]
  const kind = col.format.split(':')[0]
  const { t } = ctx
  if (kind === 'id') {
    const label = row.labels[col.key]
    if (v === undefined || v === null || v === '') return null
    return label ? <span>{label}</span> : <span className="text-slate-400" title={t('The referenced record was not found')}>{String(v)}</span>
  }
  if (kind === 'check') {
    if (col.toggles && row.canEdit) return <CheckToggle row={row} col={col} t={t} />
    return <span>{isYes(v) ? t('Yes') : t('No')}</span>
  }
  if (kind === 'status') return <StatusDot on={isYes(v)} t={t} />
  if (kind === 'image') {
    const src = fileHref(v, ctx.org)
    return src ? <img src={src} alt={`${col.label}`} loading="lazy" className="h-10 w-10 rounded object-cover" /> : null
  }
  if (kind === 'pdf') {
    const href = fileHref(v, ctx.org)
    return href ? (
      <a href={href} target="_blank" rel="noreferrer" className="inline-flex min-h-11 min-w-11 items-center text-canopy-400 underline">
        PDF<span className="sr-only"> ({t('opens in a new tab')})</span>
      </a>
    ) : null
  }
  if (kind === 'qrcode') {
    // the tag as text, to read and to search by; its QR code (125 px, SPEC §2.5) one tap away (a <details>: no JavaScript needed)
    const src = row.qr[col.key]
    if (v === undefined || v === null || v === '') return null
    return (
      <span className="inline-flex flex-wrap items-center gap-1">
        <span className="break-all font-mono text-sm">{String(v)}</span>
        {src ? (
          <details className="inline-block">
            <summary className="inline-flex min-h-11 min-w-11 cursor-pointer list-none items-center justify-center rounded border border-slate-600 px-1 text-xs text-slate-300 hover:bg-slate-800" aria-label={`${t('QR code')}: ${String(v)}`}>
              QR
            </summary>
            <img src={src} width={125} height={125} alt={`${t('QR code')}: ${String(v)}`} className="mt-1 bg-white p-1" />
          </details>
        ) : null}
      </span>
    )
  }
  if (kind === 'array') {
    const n = Array.isArray(v) ? v.length : 0
    if (!n) return <span className="text-slate-400">0</span>
    const open = ctx.expanded(row.id)
    return (
      <Link to={ctx.expandHref(row.id)} preventScrollReset replace aria-expanded={open} className="inline-flex min-h-11 items-center text-canopy-400 underline">
        {open ? '▾' : '▸'} {formatCell(v, 'array')}
      </Link>
    )
  }
  if (kind === 'trim') {
    const full = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)
    if (full.length <= TRIM_LENGTH) return <span>{full}</span>
    // the whole text one tap away (a <details>: touch screens show no `title` tooltip; no JavaScript needed)
    return (
      <details className="group max-w-xs">
        <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-2">
          <span className="group-open:hidden">{formatCell(v, 'trim')}</span>
          <span className="text-sm text-canopy-400 underline">
            <span className="group-open:hidden">{t('Show all')}</span>
            <span className="hidden group-open:inline">{t('Show less')}</span>
          </span>
        </summary>
        <p className="whitespace-pre-wrap break-words pb-1">{full}</p>
      </details>
    )
  }
  // a list value shows in the user's language; the stored (and searched) value stays the canonical one
  if (isListType(col.type) && !col.format) return <>{listText(v, t)}</>
  return <>{formatCell(v, col.format, { timeZone: ctx.timeZone })}</>
}

/** The key of a sub-row's own id (forms/row-ids.ts): shown as the line's number, from 1. */
const ROW_ID_KEY = 'id'

/** The nested table of an expanded row: one row per element of its array fields. */
export function NestedRows({ row, cols, ctx }: { row: TableRow; cols: TableColumn[]; ctx: CellContext }) {
  // a referenced record inside a nested row shows its label, like the main table
  const text = (col: string, it: unknown, key: string, format: string, type?: string) => {
    const v = (it as Record<string, unknown> | null)?.[key]
    if (isListType(type) && !format) return listText(v, ctx.t)
    const label = typeof v === 'string' && format.startsWith('id:') ? row.subLabels?.[col]?.[key]?.[v] : undefined
    return label ?? formatCell(v, format, { timeZone: ctx.timeZone })
  }
  return (
    <>
      {cols.map((c) => {
        const items = Array.isArray(row.values[c.key]) ? (row.values[c.key] as unknown[]) : []
        if (!items.length) return null
        const first = items.find((x) => x && typeof x === 'object') as Record<string, unknown> | undefined
        const sub = c.sub?.length ? c.sub : first ? Object.keys(first).map((k) => ({ key: k, label: k, format: '', type: undefined, align: 'left' as const })) : []
        return (
          <div key={c.key} className="py-2">
            <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-400">{c.label}</p>
            <table className="min-w-[50%] border-collapse text-[0.95em]" aria-label={`${c.label} (${items.length})`}>
              <thead>
                <tr>
                  {sub.length ? (
                    sub.map((s) => (
                      <th key={s.key} scope="col" className={`border-b border-slate-700 px-2 py-1 text-${s.align} font-medium text-slate-300`}>
                        {s.label}
                      </th>
                    ))
                  ) : (
                    <th scope="col" className="border-b border-slate-700 px-2 py-1 text-left font-medium text-slate-300">
                      {c.label}
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {items.map((it, i) => (
                  <tr key={i} className="border-b border-slate-800">
                    {sub.length ? (
                      sub.map((s) => (
                        <td key={s.key} className={`px-2 py-1 text-${s.align}`}>
                          {/* the sub-row id (forms/row-ids.ts) is no line number: lines count from 1 */}
                          {s.key === ROW_ID_KEY ? i + 1 : text(c.key, it, s.key, s.format, s.type)}
                        </td>
                      ))
                    ) : (
                      <td className="px-2 py-1">{formatCell(it, '', { timeZone: ctx.timeZone })}</td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      })}
    </>
  )
}
