/**
 * The table screen's toolbar (SPEC §2.5). On one line at 1280 px (decision 064): the column search,
 * the date filter with its shortcuts and a custom range, Refresh, a More menu and Add Item. The menu
 * (a <details>, so it opens without JavaScript) holds Active/All records, Show Hidden Columns, the
 * row density (saved per user through /Preferences), font sizes, Export and the saved views (decision 073). Every control is a link
 * or a form, so it works without JavaScript; with it the search runs 1 s after typing stops and
 * Refresh lights up when the table changed on the server.
 */
import { Form, Link, useLocation, useSubmit } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { DATE_SHORTCUTS, SHORTCUT_LABELS } from '../../format/date-ranges'
import type { TableData } from '../../screens/table-page.server'
import { FONT_SIZES, LIST_KEYS, PAGE_PARAMS, type ListKey, type ListQuery } from '../../screens/table-url'
import { TABLE_EVENT } from '../connection'
import { RECORD_DIALOG_LINK } from '../form/record-dialog-links'
import { SavedViewsSection } from './saved-views-menu'
import { CalendarIcon, CloseIcon, DownloadIcon, PlusIcon, RefreshIcon } from '../icons'

/** A toolbar or pager button: a 44 × 44 px touch target at least (WCAG 2.5.5; the kiosk is used with gloves). */
export const btn = 'btn border-slate-600 hover:bg-slate-800'
export const btnOn = 'btn border-canopy-500 bg-canopy-900 text-canopy-50'

/** A table's rows: comfortable keeps every row control a 44 px target, compact is 32 px (decision 064). */
export type Density = 'comfortable' | 'compact'

/** The view's other settings as hidden fields, so a GET form changes only its own. */
export function HiddenState({ query, except }: { query: ListQuery; except: ListKey[] }) {
  const { search } = useLocation()
  const keep = new URLSearchParams(search)
  return (
    <>
      {/* a message and a confirmation belong to the page they came with (as in listQueryToSearch's links) */}
      {PAGE_PARAMS.filter((p) => p !== 'msg' && p !== 'done' && keep.has(p)).map((p) => (
        <input key={p} type="hidden" name={p} value={keep.get(p)!} />
      ))}
      {LIST_KEYS.filter((k) => !except.includes(k) && k !== 'page' && query[k] !== undefined).map((k) => {
        const v = query[k]
        return <input key={k} type="hidden" name={k} value={Array.isArray(v) ? v.join(',') : String(v)} />
      })}
    </>
  )
}

/** Refresh is highlighted once the server reports a change to this table (debounced TABLE_REFRESH_DEBOUNCE_MS, 0.5 s by default; SPEC §9). */
function useStale(collection: string, delayMs: number): boolean {
  const [stale, setStale] = useState(false)
  const { key } = useLocation()
  useEffect(() => setStale(false), [key])
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const on = (e: Event) => {
      if ((e as CustomEvent<{ collection?: string }>).detail?.collection !== collection) return
      clearTimeout(timer)
      timer = setTimeout(() => setStale(true), delayMs)
    }
    window.addEventListener(TABLE_EVENT, on)
    return () => {
      clearTimeout(timer)
      window.removeEventListener(TABLE_EVENT, on)
    }
  }, [collection, delayMs])
  return stale
}

function SearchForm({ data, t }: { data: TableData; t: (k: string) => string }) {
  const submit = useSubmit()
  const timer = useRef<ReturnType<typeof setTimeout>>()
  const cols = data.columns.filter((c) => c.searchable)
  if (!cols.length) return null
  const later = (form: HTMLFormElement | null) => {
    clearTimeout(timer.current)
    // SEARCH_DEBOUNCE_MS (1 s by default; SPEC §9)
    timer.current = setTimeout(() => form && submit(form, { replace: true, preventScrollReset: true }), data.delays.searchMs)
  }
  return (
    <Form method="get" role="search" id="search" className="flex items-center gap-1" onSubmit={() => clearTimeout(timer.current)}>
      <HiddenState query={data.query} except={['col', 'q']} />
      <label htmlFor="table-search-col" className="sr-only">
        {t('Search column')}
      </label>
      <select id="table-search-col" name="col" defaultValue={data.query.col ?? cols[0].key} key={data.query.col} className="min-h-11 max-w-40 rounded-md border border-slate-600 bg-slate-900 px-2 text-sm">
        {cols.map((c) => (
          <option key={c.key} value={c.key}>
            {c.label}
          </option>
        ))}
      </select>
      <label htmlFor="table-search" className="sr-only">
        {t('Search text')}
      </label>
      <input
        id="table-search"
        type="search"
        name="q"
        defaultValue={data.query.q ?? ''}
        key={data.query.q ?? ''}
        placeholder={t('Search')}
        maxLength={200}
        onChange={(e) => later(e.currentTarget.form)}
        className="min-h-11 w-44 rounded-md border border-slate-600 bg-slate-900 px-2 text-sm"
      />
      <button type="submit" className={btn}>
        {t('Search')}
      </button>
    </Form>
  )
}

function DateFilter({ data, to, t }: { data: TableData; to: (c: ListQuery & Record<string, unknown>) => string; t: (k: string) => string }) {
  const q = data.query
  const active = !!(q.range || q.from || q.to)
  const { search } = useLocation()
  // a new view closes the panel, as a page load does without JavaScript
  return (
    <details id="dates" className="relative" key={search}>
      <summary className={`${active ? btnOn : btn} cursor-pointer list-none`} aria-label={`${t('Date filter')}: ${active ? t(data.rangeLabel ?? '') : t('Any date')}`}>
        <CalendarIcon /> {active ? t(data.rangeLabel ?? '') : t('Any date')}
      </summary>
      <div className="absolute z-20 mt-1 flex w-80 flex-col gap-2 rounded-md border border-slate-600 bg-slate-900 p-3 shadow-xl">
        <Form method="get" className="flex flex-col gap-2">
          <HiddenState query={q} except={['df', 'range', 'from', 'to']} />
          <label className="flex flex-col gap-1 text-sm">
            {t('Date field')}
            <select name="df" defaultValue={data.dateField} className="min-h-9 rounded-md border border-slate-600 bg-slate-950 px-2">
              {data.dateFields.map((d) => (
                <option key={d.key} value={d.key}>
                  {t(d.label)}
                </option>
              ))}
            </select>
          </label>
          <div className="grid grid-cols-2 gap-2">
            <label className="flex flex-col gap-1 text-sm">
              {t('From')}
              <input type="date" name="from" defaultValue={q.from ?? ''} className="min-h-9 rounded-md border border-slate-600 bg-slate-950 px-2" />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              {t('To')}
              <input type="date" name="to" defaultValue={q.to ?? ''} className="min-h-9 rounded-md border border-slate-600 bg-slate-950 px-2" />
            </label>
          </div>
          <button type="submit" className={btn}>
            {t('Apply dates')}
          </button>
        </Form>
        <nav aria-label={t('Date shortcuts')} className="grid grid-cols-2 gap-1">
          {DATE_SHORTCUTS.map((s) => (
            <Link key={s} to={to({ range: s, from: undefined, to: undefined, df: data.dateField })} className={q.range === s ? btnOn : btn} aria-current={q.range === s ? 'true' : undefined}>
              {t(SHORTCUT_LABELS[s])}
            </Link>
          ))}
        </nav>
        {active ? (
          <Link to={to({ range: undefined, from: undefined, to: undefined })} className={btn}>
            {t('Clear dates')}
          </Link>
        ) : null}
      </div>
    </details>
  )
}

/** The toolbar's menu of the less used controls (a <details>: no JavaScript needed); lit when one of them changes the view. */
function MoreMenu({ data, path, to, t, density }: { data: TableData; path: string; to: (c: ListQuery & Record<string, unknown>) => string; t: (k: string) => string; density: Density }) {
  const { search } = useLocation()
  const q = data.query
  const anyHidden = data.columns.some((c) => c.schemaHidden) || !!q.hide?.length
  const changed = !!(q.all || q.hidden) || data.font !== 14
  // a new view closes the menu, as a page load does without JavaScript
  return (
    <details className="toolbar-menu relative" key={search}>
      <summary className={`${changed ? btnOn : btn} cursor-pointer list-none`} aria-label={t('More table tools')}>
        {t('More')} <span aria-hidden>▾</span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 flex w-80 flex-col gap-2 rounded-md border border-slate-600 bg-slate-900 p-3 shadow-xl">
        <Link to={to({ all: q.all ? undefined : '1' })} className={q.all ? btnOn : btn} title={t(q.all ? 'Show active records only' : 'Show all records')}>
          {t(q.all ? 'Showing All Records' : 'Showing Active Records')}
        </Link>
        {anyHidden ? (
          <Link to={to(q.hidden ? { hidden: undefined } : { hidden: '1', hide: undefined })} className={q.hidden ? btnOn : btn}>
            {t(q.hidden ? 'Hide Hidden Columns' : 'Show Hidden Columns')}
          </Link>
        ) : null}
        {/* saved per user (set_preferences); a form post, so it works without JavaScript */}
        <Form method="post" action="/Preferences" preventScrollReset className="flex items-center gap-1" role="group" aria-label={t('Row density')}>
          <input type="hidden" name="intent" value="density" />
          <input type="hidden" name="back" value={`${path}${search}`} />
          <span className="mr-auto text-sm text-slate-400">{t('Row density')}</span>
          {(['comfortable', 'compact'] as const).map((d) => (
            <button key={d} type="submit" name="density" value={d} className={density === d ? btnOn : btn} aria-pressed={density === d}>
              {t(d === 'compact' ? 'Compact' : 'Comfortable')}
            </button>
          ))}
        </Form>
        <span className="flex items-center gap-1" role="group" aria-label={t('Font size')}>
          <span className="mr-auto text-sm text-slate-400">{t('Font size')}</span>
          {FONT_SIZES.map((f) => (
            <Link key={f} to={to({ font: f === 14 ? undefined : f, page: q.page })} className={data.font === f ? btnOn : btn} aria-current={data.font === f ? 'true' : undefined} title={`${t('Font size')} ${f} px`}>
              <span style={{ fontSize: f }} aria-hidden>A</span>
              <span className="sr-only">{`${t('Font size')} ${f} px`}</span>
            </Link>
          ))}
        </span>
        <a href={`/export${path}${search}`} download className={btn}>
          <DownloadIcon /> {t('Export CSV')}
        </a>
        {data.editable ? (
          <>
            <Link to={`${path}/import`} className={btn}>
              {t('Import CSV')}
            </Link>
            <a href={`/import-template${path}`} download className={btn}>
              <DownloadIcon /> {t('CSV template')}
            </a>
          </>
        ) : null}
        {data.views ? <SavedViewsSection views={data.views} path={path} t={t} btn={btn} btnOn={btnOn} /> : null}
      </div>
    </details>
  )
}

export function Toolbar({ data, path, to, t, density }: { data: TableData; path: string; to: (c: ListQuery & Record<string, unknown>) => string; t: (k: string) => string; density: Density }) {
  const stale = useStale(data.collection, data.delays.refreshMs)
  const { search } = useLocation()
  // the primary controls on one line (decision 064): it wraps only on a narrow screen
  return (
    <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t('Table tools')}>
      {data.matchLabel ? (
        <Link to={to({ eq: undefined })} className={btnOn} data-testid="eq-filter" title={t('Show every record again')}>
          {data.matchLabel} <CloseIcon />
        </Link>
      ) : null}
      <SearchForm data={data} t={t} />
      <DateFilter data={data} to={to} t={t} />
      <Link to={`${path}${search}`} className={stale ? `${btnOn} animate-pulse` : btn} aria-label={stale ? t('Refresh: this table has changed') : t('Refresh')} preventScrollReset>
        <RefreshIcon /> {t('Refresh')}
      </Link>
      <MoreMenu data={data} path={path} to={to} t={t} density={density} />
      {data.editable ? (
        <Link to={`${path}/new${search}`} className={btnOn} {...RECORD_DIALOG_LINK} data-shortcut="add" aria-keyshortcuts="n">
          <PlusIcon /> {t('Add Item')}
        </Link>
      ) : null}
    </div>
  )
}
