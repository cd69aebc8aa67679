/**
 * Row selection on a table screen (decision 038): a check box per row (`sel`, in the form
 * `#rowsel` by its form attribute, so the table needs no form around it), "Select all N rows that
 * match this view" (`pick=all` with the view's own parameters), and the actions the table's schema
 * declares as submit buttons: each opens /{screen}/act/{key}, its confirm page. A plain GET form,
 * so it works without JavaScript; with it, the count of selected rows shows, the header box ticks
 * the page, and scanning a tag into the scan box ticks its row (kiosk: scan-first).
 */
import { useLocation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { TableData, TableRow } from '../../screens/table-page.server'

export const SELECTION_FORM = 'rowsel'
const big = 'inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-md border px-3'

const boxes = () => [...document.querySelectorAll<HTMLInputElement>(`input[form="${SELECTION_FORM}"][name="sel"]`)]

/** The row's check box, in a 44 px target (`check-target`, `check-box`: tailwind.css, one short class per row). */
export function RowCheck({ row, label }: { row: TableRow; label: string }) {
  return (
    <label className="check-target" title={`Select ${label}`}>
      <input type="checkbox" form={SELECTION_FORM} name="sel" value={row.id} data-scan={label} aria-label={`Select ${label}`} className="check-box" />
    </label>
  )
}

/** The header box: ticks every row of this page (JavaScript only). */
export function PageCheck({ t }: { t: (k: string) => string }) {
  const hydrated = useHydrated()
  // the column's name, the same before and after hydration (a page read before its script ran says the same)
  const name = <span className="sr-only">{t('Select')}</span>
  if (!hydrated) return name
  return (
    <>
    {name}
    <label className="inline-flex h-11 w-11 cursor-pointer items-center justify-center">
      <input
        type="checkbox"
        aria-label={t('Select every row of this page')}
        className="h-6 w-6 accent-canopy-500"
        onChange={(e) => {
          for (const b of boxes()) b.checked = e.target.checked
          b2()
        }}
      />
    </label>
    </>
  )
}

/** Tells the bar that the ticked rows changed (a box's own change event bubbles there too). */
const b2 = () => document.getElementById(SELECTION_FORM)?.dispatchEvent(new Event('change', { bubbles: true }))

export function SelectionBar({ data, path, t }: { data: TableData; path: string; t: (k: string) => string }) {
  const { search } = useLocation()
  const hydrated = useHydrated()
  const [count, setCount] = useState(0)
  const [all, setAll] = useState(false)
  const [scan, setScan] = useState('')
  const [scanMsg, setScanMsg] = useState('')
  useEffect(() => {
    // the row boxes sit outside the form element (form attribute): count them on any change
    const on = () => setCount(boxes().filter((b) => b.checked).length)
    document.addEventListener('change', on)
    return () => document.removeEventListener('change', on)
  }, [])
  if (!data.actions.length) return null
  const keep = [...new URLSearchParams(search)].filter(([k]) => !['msg', 'done', '_data', 'sel', 'pick'].includes(k))
  const total = data.exact ? String(data.total) : `${data.total}+`
  function onScan(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key !== 'Enter') return
    e.preventDefault()
    const code = scan.trim()
    if (!code) return
    const box = boxes().find((b) => b.dataset.scan === code)
    if (box) {
      box.checked = true
      setScanMsg(`${t('Selected')} ${code}`)
      b2()
    } else setScanMsg(`${code}: ${t('not on this page. Search for it, then scan again.')}`)
    setScan('')
  }
  return (
    <form
      id={SELECTION_FORM}
      method="get"
      action={`${path}/act/${data.actions[0].key}`}
      className="flex flex-wrap items-center gap-2 rounded-md border border-slate-700 bg-slate-900/60 p-2"
      aria-label={t('Selected rows')}
    >
      {keep.map(([k, v]) => (
        <input key={`${k}=${v}`} type="hidden" name={k} value={v} />
      ))}
      <label className={`${big} border-slate-600 ${all ? 'bg-canopy-900' : ''}`}>
        <input type="checkbox" name="pick" value="all" className="h-6 w-6 accent-canopy-500" onChange={(e) => setAll(e.target.checked)} />
        {t('Select all')} {total} {t('rows that match this view')}
      </label>
      {hydrated ? (
        <span role="status" className="px-2 text-lg tabular-nums" data-testid="selected-count">
          {all ? `${total} ${t('selected')}` : `${count} ${t('selected')}`}
        </span>
      ) : null}
      {data.actions.map((a) => (
        <button key={a.key} type="submit" formAction={`${path}/act/${a.key}`} className={`${big} border-canopy-500 text-slate-100 hover:bg-canopy-900`}>
          {t(a.label)}
        </button>
      ))}
      {hydrated ? (
        <label className="ml-auto flex items-center gap-2">
          <span className="sr-only">{t('Scan a tag to select its row')}</span>
          <input value={scan} onChange={(e) => setScan(e.target.value)} onKeyDown={onScan} placeholder={t('Scan a tag to select')} aria-label={t('Scan a tag to select its row')} className="min-h-11 w-56 rounded-md border border-slate-600 bg-slate-950 px-3" autoComplete="off" />
          {scanMsg ? (
            <span role="status" className="text-sm text-slate-300">
              {scanMsg}
            </span>
          ) : null}
        </label>
      ) : null}
    </form>
  )
}
