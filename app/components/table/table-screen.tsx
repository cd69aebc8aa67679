/**
 * The generic table screen (SPEC §2.5), rendered on the server from the view in the URL.
 * Its column model is a plain list (decision 071: TanStack Table in manual mode did nothing else and
 * weighed 13 KB of gzipped JavaScript); sorting, paging and filtering happen in the loader. Header icons and the footer are links, so everything works without JavaScript.
 */
import { Link, useLocation, useNavigate, useNavigation, useRouteLoaderData } from '@remix-run/react'
import { Fragment, useEffect, useMemo, type ReactNode } from 'react'
import type { TableColumn, TableData, TableRow } from '../../screens/table-page.server'
import { listQueryToSearch, withQuery, type ListQuery } from '../../screens/table-url'
import { PLATFORM_ORG } from '../../route-map'
import { useT } from '../../i18n/t'
import { localizeColumns } from '../../i18n/schema-text'
import { RECORD_DIALOG_LINK, useRecordDialog } from '../form/record-dialog-links'
import { Cell, NestedRows, StatusDot, type CellContext } from './table-cells'
import { TableFooter } from './table-footer'
import { Toolbar, type Density } from './table-toolbar'
import { PageCheck, RowCheck, SelectionBar } from './row-selection'
import { CalendarIcon, DeleteIcon, EditIcon, HideIcon, OpenIcon, SearchIcon, TraceIcon } from '../icons'

/** A header or row icon: a 44 × 44 px touch target (the 16 px icon in the middle). */
/** a table's icon button (tailwind.css `.icon-btn`: 44 px, grey until hovered, both themes) */
const icon = 'icon-btn'

/** The window-height default of SPEC §2.5: below 400 px 10 rows, above 900 px 30, else 20. */
export function pageSizeFor(height: number): 10 | 20 | 30 {
  return height < 400 ? 10 : height > 900 ? 30 : 20
}

function Header({ col, data, to, t }: { col: TableColumn; data: TableData; to: (c: ListQuery & Record<string, unknown>) => string; t: (k: string) => string }) {
  const sorted = data.sort?.key === col.key ? data.sort.dir : null
  const next = sorted === 'asc' ? 'desc' : 'asc'
  return (
    <div className={`flex items-center ${col.align === 'right' ? 'justify-end' : col.align === 'center' ? 'justify-center' : ''}`}>
      <Link to={to({ sort: col.key, dir: next })} className="sort-link" title={`${t('Sort by')} ${col.label}`} preventScrollReset>
        {col.label}
        {sorted ? (
          <>
            <span aria-hidden className="ml-1 text-canopy-400">
              {sorted === 'asc' ? '▲' : '▼'}
            </span>
            <span className="sr-only">, {t(sorted === 'asc' ? 'sorted ascending' : 'sorted descending')}</span>
          </>
        ) : null}
      </Link>
      {col.searchable ? (
        <Link to={`${to({ col: col.key, q: data.query.col === col.key ? data.query.q : undefined })}#search`} className={`${icon} ${data.query.col === col.key && data.query.q ? 'text-canopy-400' : ''}`} aria-label={`${t('Search in')} ${col.label}`} title={`${t('Search in')} ${col.label}`}>
          <SearchIcon />
        </Link>
      ) : null}
      {col.isDate ? (
        <Link to={`${to({ df: col.key })}#dates`} className={`${icon} ${data.dateField === col.key && data.rangeLabel ? 'text-canopy-400' : ''}`} aria-label={`${t('Filter by date')}: ${col.label}`} title={`${t('Filter by date')}: ${col.label}`}>
          <CalendarIcon />
        </Link>
      ) : null}
      <Link to={to({ hide: [...(data.query.hide ?? []), col.key], hidden: undefined, page: data.query.page })} className={icon} aria-label={`${t('Hide column')} ${col.label}`} title={`${t('Hide column')} ${col.label}`} preventScrollReset>
        <HideIcon />
      </Link>
    </div>
  )
}

/** a row's icon links, each named with the row ("Edit 1A4…", WCAG 2.4.4: the link's purpose out of context) */
function Actions({ row, name, path, trace, t }: { row: TableRow; name: string; path: string; trace: boolean; t: (k: string) => string }) {
  const { search } = useLocation()
  return (
    <span className="flex">
      {/* the record's own page (issue 33 item 4) */}
      <Link to={`${path}/${encodeURIComponent(row.id)}`} className={icon} aria-label={`${t('Record page')} ${name}`} title={t('Record page')}>
        <OpenIcon />
      </Link>
      {trace ? (
        <Link to={`${path}/${encodeURIComponent(row.id)}/trace${search}`} className={icon} aria-label={`${t('Trace')} ${name}`} title={t('Trace')}>
          <TraceIcon />
        </Link>
      ) : null}
      {row.canEdit ? (
        <Link to={`${path}/${encodeURIComponent(row.id)}/edit${search}`} className={icon} aria-label={`${t('Edit')} ${name}`} title={t('Edit')} {...RECORD_DIALOG_LINK}>
          <EditIcon />
        </Link>
      ) : null}
      {row.canDelete ? (
        <Link to={`${path}/${encodeURIComponent(row.id)}/delete${search}`} className={`${icon} hover:text-red-300`} aria-label={`${t('Delete')} ${name}`} title={t('Delete')}>
          <DeleteIcon />
        </Link>
      ) : null}
    </span>
  )
}

/** The leading columns' fixed widths (a row box's 44 px target plus padding; the status dot), so the
 * first data column knows where to stick (decision 064); their classes in tailwind.css say the same. */
const LEAD_WIDTH: Record<string, string> = { _select: '3.75rem', _status: '2rem' }
const LEAD_CLASS: Record<string, string> = { _select: 'col-select', _status: 'col-status' }

/**
 * A column of the rendered table: its header and the cell it shows for a row. Both are called as
 * plain functions, never rendered as components: the columns are rebuilt with every loader answer,
 * and a new function as a component type would remount every cell on each revalidation (a check
 * toggle's fetcher lost the answer that opens the record's form; tests/e2e/floor-bugs.test.ts).
 */
interface ColumnDef {
  id: string
  header: () => ReactNode
  cell: (row: TableRow) => ReactNode
}

/** The user's saved density (set_preferences, read by the root loader; decision 064). */
export function useDensity(): Density {
  const root = useRouteLoaderData('root') as { density?: string } | undefined
  return root?.density === 'compact' ? 'compact' : 'comfortable'
}

export function TableScreen({ data: loaded, path, org }: { data: TableData; path: string; org: string }) {
  const t = useT()
  // headers, the search's column list, hidden columns and nested tables in the user's language (issue 32)
  const data = useMemo(() => ({ ...loaded, columns: localizeColumns(loaded.columns, t) }), [loaded, t])
  const { search } = useLocation()
  const navigate = useNavigate()
  const navigation = useNavigation()
  // the table's links name its facility, so one shared or bookmarked shows this facility's table (issue 32)
  const keep = useMemo(() => {
    const k = new URLSearchParams(search)
    if (!k.has('facility') && org && org !== PLATFORM_ORG) k.set('facility', org)
    return k
  }, [search, org])
  const to = (change: ListQuery & Record<string, unknown>) => `${path}${listQueryToSearch(withQuery(data.query, change), keep)}`
  const open = new Set(data.query.open ?? [])
  const toggleOpen = (id: string) => to({ open: open.has(id) ? [...open].filter((x) => x !== id) : [...open, id], page: data.query.page })
  const ctx: CellContext = { org, timeZone: data.timeZone, t, expandHref: toggleOpen, expanded: (id) => open.has(id) }
  const visible = data.columns.filter((c) => c.visible)
  const arrays = visible.filter((c) => c.format === 'array')
  const hasStatus = data.rows.some((r) => r.status !== undefined)
  // a row's name for its check box and scan-to-select: the first visible text column (a plant's tag)
  const first = visible.find((c) => c.searchable && !c.format.startsWith('id:'))
  const scanLabel = (r: TableRow) => (first && r.values[first.key] != null ? String(r.values[first.key]) : r.id)
  const done = new URLSearchParams(search).get('done')
  // with JavaScript the edit and add links open the form in a dialog over the table
  const recordDialog = useRecordDialog()

  // without a size in the URL, JavaScript picks one from the window height (no JS: 20)
  useEffect(() => {
    if (data.sizeGiven) return
    const size = pageSizeFor(window.innerHeight)
    if (size !== data.size) navigate(to({ size, page: undefined }), { replace: true, preventScrollReset: true })
    // once per screen
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path])

  const columns = useMemo<ColumnDef[]>(
    () => [
      ...(data.actions.length ? [{ id: '_select', header: () => <PageCheck t={t} />, cell: (row) => <RowCheck row={row} label={scanLabel(row)} /> } satisfies ColumnDef] : []),
      ...(hasStatus ? [{ id: '_status', header: () => <span className="sr-only">{t('Status')}</span>, cell: (row) => <StatusDot on={!!row.status} t={t} /> } satisfies ColumnDef] : []),
      ...visible.map((c) => ({ id: c.key, header: () => <Header col={c} data={data} to={to} t={t} />, cell: (row) => <Cell row={row} col={c} ctx={ctx} /> }) satisfies ColumnDef),
      // every row has its record page (issue 33 item 4), so every table has the Actions column
      { id: '_actions', header: () => t('Actions'), cell: (row) => <Actions row={row} name={scanLabel(row)} path={path} trace={data.trace} t={t} /> } satisfies ColumnDef,
    ],
    // the loader's data is the whole state: a new view is a new data object
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data, t],
  )
  const loading = navigation.state === 'loading' && navigation.location?.pathname === path
  const filtered = !!(data.query.q || data.query.range || data.query.from || data.query.to)
  const alignOf = (id: string) => data.columns.find((c) => c.key === id)?.align ?? 'left'
  const density = useDensity()
  // sticky cells (decision 064): the leading columns up to the first data column stick left, Actions right
  const ids = columns.map((c) => c.id)
  const firstData = ids.findIndex((id) => !id.startsWith('_'))
  const lead = firstData < 0 ? [] : ids.slice(0, firstData + 1)
  // each leading cell's offset is a class reading the table's own custom property (one style attribute
  // on the table instead of one per cell: issue 30 page weight); the fixed widths are classes too
  const leadLeft: Record<string, string> = {}
  lead.forEach((_, i) => {
    if (i > 0) leadLeft[`--lead-${i}`] = `calc(${lead.slice(0, i).map((x) => LEAD_WIDTH[x] ?? '0px').join(' + ')})`
  })
  const stick = (id: string): { className: string } => {
    const i = lead.indexOf(id)
    if (i >= 0) return { className: `stick-start lead-${i}${i === lead.length - 1 ? ' stick-last' : ''}${LEAD_CLASS[id] ? ` ${LEAD_CLASS[id]}` : ''}` }
    return id === '_actions' ? { className: 'stick-end' } : { className: '' }
  }

  return (
    <div className="flex flex-col gap-3" {...recordDialog.handlers}>
      {data.notices.length ? (
        <div role="status" className="rounded-md border border-amber-600 bg-amber-950 px-3 py-2 text-sm text-amber-100">
          {data.notices.map((n) => (
            <p key={n}>{n}</p>
          ))}
        </div>
      ) : null}
      {done ? (
        <p role="status" className="rounded-md border border-canopy-500 bg-canopy-900 px-3 py-2 text-canopy-50" data-testid="action-done">
          {done}
        </p>
      ) : null}
      <Toolbar data={data} path={path} to={to} t={t} density={density} />
      <SelectionBar data={data} path={path} t={t} />
      {data.query.hide?.length ? (
        <p className="text-sm text-slate-400">
          {t('Hidden columns')}:{' '}
          {data.query.hide.map((k) => (
            <Link key={k} to={to({ hide: data.query.hide!.filter((x) => x !== k), page: data.query.page })} className="mr-2 inline-flex min-h-11 items-center text-canopy-400 underline" aria-label={`${t('Show column')} ${data.columns.find((c) => c.key === k)?.label ?? k}`}>
              {data.columns.find((c) => c.key === k)?.label ?? k}
            </Link>
          ))}
        </p>
      ) : null}
      {data.total === 0 ? (
        <div className="rounded-md border border-slate-700 p-4 text-slate-300" role="status">
          {filtered || !data.query.all ? (
            <>
              <p>{t(filtered ? 'No records match this search or date filter.' : 'No active records here.')}</p>
              <p className="mt-2 flex flex-wrap gap-3">
                {filtered ? (
                  <Link to={to({ q: undefined, col: undefined, range: undefined, from: undefined, to: undefined })} className="inline-flex min-h-11 items-center text-canopy-400 underline">
                    {t('Clear the search and dates')}
                  </Link>
                ) : null}
                {!data.query.all ? (
                  <Link to={to({ all: '1' })} className="inline-flex min-h-11 items-center text-canopy-400 underline">
                    {t('Show all records, including inactive ones')}
                  </Link>
                ) : null}
              </p>
            </>
          ) : (
            <p>{t(data.editable ? 'Nothing here yet in this facility. Use Add Item to add the first record.' : 'Nothing here yet in this facility.')}</p>
          )}
        </div>
      ) : (
        <div className={`data-scroll relative rounded-md border border-slate-800 ${loading ? 'opacity-60' : ''}`} aria-busy={loading} data-testid="table-scroll">
          <table className="data-table min-w-full [&_td]:px-2 [&_td]:py-1.5 [&_td]:align-middle" data-density={density} style={{ fontSize: data.font, ...leadLeft } as React.CSSProperties} aria-rowcount={data.exact ? data.total + 1 : -1}>
            <thead>
              <tr>
                {columns.map((col) => {
                  const sorted = data.sort?.key === col.id ? data.sort.dir : null
                  const st = stick(col.id)
                  return (
                    <th key={col.id} scope="col" aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined} className={`th-cell border-slate-700 text-${alignOf(col.id)} text-slate-200 ${st.className}`}>
                      {col.header()}
                    </th>
                  )
                })}
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <Fragment key={r.id}>
                  {/* data-id: ArrowDown/ArrowUp focus the row, Enter opens its record (components/keyboard-shortcuts.tsx); its hover and focus look: tailwind.css */}
                  <tr data-id={r.id}>
                    {columns.map((col) => {
                      const st = stick(col.id)
                      return (
                        <td key={col.id} className={`${alignOf(col.id) === 'left' ? '' : `text-${alignOf(col.id)}`} ${st.className}`.trim() || undefined}>
                          {col.cell(r)}
                        </td>
                      )
                    })}
                  </tr>
                  {open.has(r.id) && arrays.length ? (
                    <tr className="bg-slate-900/60">
                      <td colSpan={columns.length} className="px-6">
                        <NestedRows row={r} cols={arrays} ctx={ctx} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <TableFooter data={data} to={to} t={t} />
      {recordDialog.dialog}
    </div>
  )
}
