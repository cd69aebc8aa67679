/**
 * The generic table screen's data (SPEC §2.5): the view read from the URL, one page of the
 * collection in that view (referenced labels resolved in the same query), the columns from the
 * schema, and what this user may do with each row (SPEC §6 `ed`/`delete`). The CSV export and
 * the check-cell toggle use the same view, so they act on exactly what the screen shows.
 */
import type { AppLoadContext } from '@remix-run/node'
import qrcode from 'qrcode-generator'
import type { SessionUser } from '../auth/entitlements'
import type { Cursor, Page, PageQuery, RefColumn } from '../db/types'
import { customRange, shortcutRange, SHORTCUT_LABELS } from '../format/date-ranges'
import { isYes } from '../format/format'
import { isPlatformCollection, PLATFORM_ORG, type RouteEntry } from '../route-map'
import { formatOf, refOf, type FieldDef, type RowActionDecl, type TableSchema } from '../schemas/table-schema'
import { rowActionOf } from '../records/row-actions.server'
import { BULK_EDIT, bulkFields } from '../records/bulk-edit.server'
import { hasTrace } from '../records/trace.server'
import { timeZoneOf } from '../facilities/facts.server'
import { rowRights } from '../records/rights'
import { routeEditable } from '../records/access.server'
import { parseListQuery } from './table-query'
import type { SavedView } from './saved-views.server'
import { displayDelays, type DisplayDelays } from './display-settings.server'
import { DEFAULT_FONT_SIZE, DEFAULT_PAGE_SIZE, eqPairs, MAX_PAGE, type ListQuery } from './table-url'

/** a stored value a cell shows (not absent, null or ''; forms' `isBlank` also counts blank text and empty files) */
const filled = (v: unknown) => v !== undefined && v !== null && v !== ''

export interface TableColumn {
  key: string
  label: string
  /** display format: the column's own, else the one its type implies */
  format: string
  type: string
  align: 'left' | 'center' | 'right'
  /** the schema hides it (`show: no`); Show Hidden Columns shows it */
  schemaHidden: boolean
  /** shown in this view */
  visible: boolean
  /** the column search can use it */
  searchable: boolean
  isDate: boolean
  /** clicking a check cell toggles it (editable table, field not read-only) */
  toggles: boolean
  /** columns of an array field's nested table */
  sub?: Array<{ key: string; label: string; format: string; type?: string; align: 'left' | 'center' | 'right' }>
}

export interface TableRow {
  id: string
  ts: string
  values: Record<string, unknown>
  /** labels of referenced records, by column */
  labels: Record<string, string | null>
  /** labels of records referenced from nested rows: column → sub-column → id → label (expanded rows only) */
  subLabels?: Record<string, Record<string, Record<string, string>>>
  /** QR codes as SVG data URLs, by column */
  qr: Record<string, string>
  /** status dot: green (true) or red (false); absent when the table has no status field */
  status?: boolean
  canEdit: boolean
  canDelete: boolean
}

export interface TableData {
  collection: string
  /** organisation the rows (and their files) belong to */
  org: string
  columns: TableColumn[]
  rows: TableRow[]
  /** an estimate (shown as "about") when more rows match than we count exactly */
  total: number
  exact: boolean
  /** matches counted exactly up to here ("more than" past it) */
  countCap: number
  page: number
  pages: number
  size: number
  /** the URL named the page size (else the browser may pick one from the window height) */
  sizeGiven: boolean
  font: number
  query: ListQuery
  /** what was wrong with the URL, in words */
  notices: string[]
  /** the table shows Add, edit and delete (SPEC §2.5) */
  editable: boolean
  timeZone: string
  /** the column search's and the Refresh highlight's delays (system variables, display-settings.server.ts) */
  delays: DisplayDelays
  dateFields: Array<{ key: string; label: string }>
  /** the date field the range applies to */
  dateField: string
  /** the active date filter in words, e.g. "Last 7 days" or "03/01/2026 – 03/31/2026" */
  rangeLabel: string | null
  sort: { key: string; dir: 'asc' | 'desc' } | null
  /** the row actions the table's schema declares and an area does (decision 038): the selection bar */
  actions: RowActionDecl[]
  /** an area traces this table's records (records/trace.server.ts): each row links to /{screen}/{id}/trace */
  trace: boolean
  /** the exact matches of the view in words, e.g. "Growth Phase: Flowering · Room: Flower Room 1" */
  matchLabel?: string
  /** the screen's saved views this user sees (decision 073): the More menu lists them and saves this view */
  views?: SavedView[]
  /** page links that continue after the last row / before the first (decision 008) */
  next?: string
  prev?: string
}

/** Everything a view needs to query a collection: shared by the page, the export and the toggle. */
export interface TableView {
  route: RouteEntry
  schema: TableSchema | undefined
  org: string
  query: ListQuery
  notices: string[]
  columns: TableColumn[]
  pageQuery: Omit<PageQuery, 'offset' | 'limit'>
  timeZone: string
  dateField: string
  /** the columns the date filter can use (the table's dates and Created) */
  dateFields: Array<{ key: string; label: string }>
  rangeLabel: string | null
  editable: boolean
}

/** Matches are counted exactly up to here; past it the screen says "more than" (decision 007). */
export const COUNT_CAP = 1000

// a QR column is its text (a METRC tag): searched by that text (issue 32)
const NOT_SEARCHABLE = new Set(['image', 'array', 'check', 'status', 'pdf'])

const dateKinds = (f: FieldDef) => f.type === 'date' || f.format === 'date'

export async function readView(context: AppLoadContext, route: RouteEntry, facility: string, url: URL, user?: SessionUser): Promise<TableView> {
  const schema = route.collection ? await context.database.schemas.get(route.collection) : undefined
  const { query, notices } = parseListQuery(url.searchParams)
  const fields = schema?.fields ?? []
  const has = (k: string) => k === 'cts' || k === 'ts' || fields.some((f) => f.key === k)
  const drop = (k: keyof ListQuery, why: string) => {
    notices.push(why)
    delete query[k]
  }
  if (query.sort && !has(query.sort)) drop('sort', `Ignored sort="${query.sort}": this table has no such column.`)
  if (query.col && !fields.some((f) => f.key === query.col && !NOT_SEARCHABLE.has(formatOf(f)) && f.type !== 'array')) drop('col', `Ignored col="${query.col}": that column cannot be searched.`)
  const equals = eqPairs(query.eq).map(([key, value]) => ({ key, value }))
  const bad = equals.find((e) => !fields.some((f) => f.key === e.key && f.type !== 'array'))
  if (bad) {
    drop('eq', `Ignored eq: this table has no column "${bad.key}" to match.`)
    equals.length = 0
  }
  if (query.q && !query.col) {
    const first = fields.find((f) => f.filter) ?? fields.find((f) => f.show && !NOT_SEARCHABLE.has(formatOf(f)) && f.type !== 'array')
    if (first) query.col = first.key
    else drop('q', 'Ignored the search: this table has no searchable column.')
  }
  const dateFields = [...fields.filter(dateKinds).map((f) => ({ key: f.key, label: f.label })), { key: 'cts', label: 'Record Created' }]
  if (query.df && !dateFields.some((d) => d.key === query.df)) drop('df', `Ignored df="${query.df}": that is not a date column of this table.`)
  if (query.hide) {
    // a saved view or an old link may hide a column the table no longer has: say which (decision 073)
    const gone = query.hide.filter((k) => !fields.some((f) => f.key === k))
    if (gone.length) notices.push(`Ignored hide="${gone.join(',')}": this table has no such column${gone.length > 1 ? 's' : ''}.`)
    query.hide = query.hide.filter((k) => fields.some((f) => f.key === k))
    if (!query.hide.length) delete query.hide
  }
  if (query.page && query.page > MAX_PAGE) query.page = MAX_PAGE

  const timeZone = await timeZoneOf(context, facility)
  const dateField = query.df ?? schema?.dateField ?? 'cts'
  let range: { from?: string; to?: string } | undefined
  let rangeLabel: string | null = null
  if (query.range) {
    range = shortcutRange(query.range, new Date(), timeZone)
    rangeLabel = SHORTCUT_LABELS[query.range]
  } else if (query.from || query.to) {
    range = customRange(query.from, query.to, timeZone)
    rangeLabel = `${query.from ? usDate(query.from) : '…'} – ${query.to ? usDate(query.to) : '…'}`
  }

  const editable = routeEditable(route, schema, user)
  const hidden = new Set(query.hide ?? [])
  const columns: TableColumn[] = fields
    .filter((f) => f.type !== 'code')
    .map((f) => {
      const format = formatOf(f)
      return {
        key: f.key,
        label: f.label,
        format,
        type: f.type,
        align: f.align,
        schemaHidden: !f.show,
        visible: query.hidden === '1' || (f.show && !hidden.has(f.key)),
        searchable: !NOT_SEARCHABLE.has(format) && f.type !== 'array',
        isDate: dateKinds(f),
        toggles: editable && format === 'check' && !f.ro,
        ...(f.array?.length ? { sub: f.array.map((a) => ({ key: a.key, label: a.label, format: formatOf(a), type: a.type, align: a.align })) } : {}),
      }
    })
  const refs: RefColumn[] = []
  for (const c of columns) {
    const r = refOf(c.format)
    if (r && (await context.database.schemas.hasCollection(r.collection))) refs.push({ key: c.key, ...r, org: isPlatformCollection(r.collection) ? PLATFORM_ORG : facility })
  }
  const pageQuery: TableView['pageQuery'] = {
    activeOnly: query.all !== '1',
    ...(query.sort ? { sort: { key: query.sort, dir: query.dir ?? 'asc' } } : {}),
    ...(query.q && query.col ? { search: { key: query.col, text: query.q } } : {}),
    ...(equals.length ? { equals } : {}),
    ...(range ? { range: { key: dateField, ...range } } : {}),
    ...(refs.length ? { refs } : {}),
  }
  return { route, schema, org: route.platform ? PLATFORM_ORG : facility, query, notices, columns, pageQuery, timeZone, dateField, dateFields, rangeLabel, editable }
}

export async function tablePage(context: AppLoadContext, user: SessionUser, route: RouteEntry, facility: string, url: URL): Promise<TableData> {
  const view = await readView(context, route, facility, url, user)
  const size = view.query.size ?? DEFAULT_PAGE_SIZE
  let page = view.query.page ?? 1
  const sortOf = view.pageQuery.sort ?? view.schema?.defaultSort ?? { key: 'cts', dir: 'desc' as const }
  // Next/Previous links carry the row they continue from; a link made for another sort, or a forged one, is dropped
  let cursor: { after?: Cursor; before?: Cursor } = {}
  for (const k of ['after', 'before'] as const) {
    const token = view.query[k]
    if (!token) continue
    const c = page > 1 ? readCursor(token, sortOf) : null
    if (c && !cursor.after) cursor = { [k]: c }
    else {
      if (!c) view.notices.push('Ignored the page link: it was made for another view. This page was counted from the start.')
      delete view.query[k]
    }
  }
  const load = (p: number, countCap: number | undefined = COUNT_CAP, at: typeof cursor = {}) =>
    view.schema ? context.database.store.page(view.org, route.collection!, { ...view.pageQuery, offset: at.after || at.before ? 0 : (p - 1) * size, limit: size, countCap, ...at }) : Promise.resolve({ rows: [], total: 0, exact: true } as Page)
  let result = await load(page, COUNT_CAP, cursor).catch((e) => {
    if (!cursor.after && !cursor.before) throw e
    view.notices.push('Ignored the page link: it does not fit this view. This page was counted from the start.')
    delete view.query.after
    delete view.query.before
    cursor = {}
    return load(page)
  })
  // Previous from a page whose earlier rows were deleted can come back short: the first page, counted
  if (cursor.before && result.rows.length < size) {
    page = 1
    delete view.query.before
    result = await load(1)
  }
  if (!result.rows.length && page > 1) {
    // a shared link to a page that no longer exists shows the last one, and says so
    const exact = result.exact ? result : await load(1, undefined)
    const last = Math.max(1, Math.ceil(exact.total / size))
    if (page > last) {
      view.notices.push(`Page ${page} does not exist any more; this is the last page, ${last}.`)
      page = last
      result = await load(page)
    }
  }
  const pages = Math.max(1, Math.ceil(result.total / size))
  const qrCols = view.columns.filter((c) => c.format === 'qrcode' && c.visible)
  const statusField = view.schema?.statusField
  const rows: TableRow[] = result.rows.map((d) => {
    const values: Record<string, unknown> = {}
    // an empty value is left out: every cell shows a missing value as it shows '' or null (issue 30: the page's data)
    for (const c of view.columns) if (c.visible && filled(d[c.key])) values[c.key] = d[c.key]
    const qr: Record<string, string> = {}
    for (const c of qrCols) if (filled(d[c.key])) qr[c.key] = qrDataUrl(String(d[c.key]))
    return { id: d._id, ts: d.ts, values, labels: d._labels ?? {}, qr, ...(statusField ? { status: isYes(d[statusField]) } : {}), ...rowRights(view, user, d) }
  })
  await resolveNestedRefs(context, view, rows, new Set(view.query.open ?? []), facility)
  const matchLabel = await matchWords(context, view, facility)
  const sort = view.pageQuery.sort ?? view.schema?.defaultSort ?? null
  return {
    collection: route.collection ?? '',
    org: view.org,
    columns: view.columns,
    rows,
    total: result.total,
    exact: result.exact,
    countCap: COUNT_CAP,
    page,
    pages,
    size,
    sizeGiven: view.query.size !== undefined,
    font: view.query.font ?? DEFAULT_FONT_SIZE,
    query: page === (view.query.page ?? 1) ? view.query : { ...view.query, page },
    notices: view.notices,
    editable: view.editable,
    timeZone: view.timeZone,
    delays: await displayDelays(context.database),
    dateFields: view.dateFields,
    dateField: view.dateField,
    rangeLabel: view.rangeLabel,
    sort,
    // the schema's actions an area does, and bulk edit, which every editable table offers (decision 072)
    actions: view.editable && route.collection ? [...(view.schema?.actions ?? []).filter((a) => rowActionOf(route.collection!, a.key)), ...(view.schema && bulkFields(view.schema).length ? [BULK_EDIT] : [])] : [],
    trace: hasTrace(route.collection),
    ...(matchLabel ? { matchLabel } : {}),
    ...(result.last && rows.length === size ? { next: cursorToken(result.last, sortOf) } : {}),
    ...(result.first && page > 1 ? { prev: cursorToken(result.first, sortOf) } : {}),
  }
}

/** The view's exact matches in words: each column's label and the value (a reference's label). */
async function matchWords(context: AppLoadContext, view: TableView, facility: string): Promise<string | undefined> {
  const equals = view.pageQuery.equals ?? []
  if (!equals.length) return undefined
  const words: string[] = []
  for (const e of equals) {
    const col = view.columns.find((c) => c.key === e.key)
    const ref = col ? refOf(col.format) : null
    let value = e.value === '' ? '(none)' : e.value
    if (ref && e.value && (await context.database.schemas.hasCollection(ref.collection))) {
      const labels = await context.database.store.labelsOf(isPlatformCollection(ref.collection) ? PLATFORM_ORG : facility, ref.collection, ref.labelField, [e.value])
      value = labels.get(e.value) ?? value
    }
    words.push(`${col?.label ?? e.key}: ${value}`)
  }
  return words.join(' · ')
}

/** A row's position as a URL-safe token, bound to the sort it was made for. */
export function cursorToken(c: Cursor, sort: { key: string; dir: string }): string {
  return Buffer.from(JSON.stringify([sort.key, sort.dir, c.v, c.id])).toString('base64url')
}

/** The position a token names, or null when it is not one of ours or was made for another sort. */
export function readCursor(token: string, sort: { key: string; dir: string }): Cursor | null {
  try {
    const x = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown
    if (!Array.isArray(x) || x.length !== 4 || x[0] !== sort.key || x[1] !== sort.dir) return null
    const [, , v, id] = x as unknown[]
    if ((v !== null && typeof v !== 'string') || typeof id !== 'string' || !id) return null
    return { v, id }
  } catch {
    return null
  }
}

/** References inside the nested rows of expanded rows: one query per referenced table. */
async function resolveNestedRefs(context: AppLoadContext, view: TableView, rows: TableRow[], open: Set<string>, facility: string) {
  const expanded = rows.filter((r) => open.has(r.id))
  if (!expanded.length) return
  for (const col of view.columns.filter((c) => c.visible && c.sub)) {
    for (const sub of col.sub!) {
      const ref = refOf(sub.format)
      if (!ref || !(await context.database.schemas.hasCollection(ref.collection))) continue
      const ids = expanded.flatMap((r) => (Array.isArray(r.values[col.key]) ? (r.values[col.key] as Array<Record<string, unknown>>) : []).map((x) => x?.[sub.key]).filter((v): v is string => typeof v === 'string' && v !== ''))
      const labels = await context.database.store.labelsOf(isPlatformCollection(ref.collection) ? PLATFORM_ORG : facility, ref.collection, ref.labelField, ids)
      for (const r of expanded) {
        r.subLabels ??= {}
        r.subLabels[col.key] ??= {}
        r.subLabels[col.key][sub.key] = Object.fromEntries(labels)
      }
    }
  }
}

/** A QR code (error level L) as an SVG data URL; the screen shows it at 125 px (SPEC §2.5). */
export function qrDataUrl(text: string): string {
  const q = qrcode(0, 'L')
  q.addData(text.slice(0, 1000), 'Byte')
  q.make()
  const svg = q.createSvgTag({ cellSize: 4, margin: 0, scalable: true })
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

function usDate(iso: string): string {
  const [y, m, d] = iso.split('-')
  return `${m}/${d}/${y}`
}
