/**
 * Links of a table screen: a view (see ./table-query.ts) as a URL search string, and a view with
 * some settings changed. No zod here: the browser imports it with the table screen.
 */
import type { DateShortcut } from '../format/date-ranges'

export const PAGE_SIZES = [10, 20, 30, 40] as const
export const FONT_SIZES = [10, 12, 14] as const
export const DEFAULT_PAGE_SIZE = 20
export const DEFAULT_FONT_SIZE = 14
/** deepest page we serve: far past any real use, and it bounds the OFFSET a URL can ask for */
export const MAX_PAGE = 100_000

/** The settings of a list view, in the order they appear in a link. Each is optional: absent means the default. */
export const LIST_KEYS = ['page', 'after', 'before', 'size', 'sort', 'dir', 'col', 'q', 'eq', 'df', 'range', 'from', 'to', 'all', 'hide', 'hidden', 'font', 'open'] as const
export type ListKey = (typeof LIST_KEYS)[number]

export type ListQuery = Partial<{
  page: number
  /** the page starts after / ends before a row (opaque tokens of its sort value and id, decision 008) */
  after: string
  before: string
  size: (typeof PAGE_SIZES)[number]
  sort: string
  dir: 'asc' | 'desc'
  col: string
  q: string
  /** exact matches, `field:value` pairs joined by `;` (a dashboard's figure links here; see eqPairs) */
  eq: string
  df: string
  range: DateShortcut
  from: string
  to: string
  all: '1'
  hide: string[]
  hidden: '1'
  font: (typeof FONT_SIZES)[number]
  open: string[]
}>

/**
 * Parameters that belong to the page rather than the view (kept in links, never a notice).
 * `facility`: the facility a table's link is for (the guard switches a signed-in user to it, the
 * login keeps it; issue 32), so a shared link shows that facility's table.
 */
export const PAGE_PARAMS = ['name', 'kiosk', 'msg', 'lang', 'done', 'facility'] as const

/**
 * The side drawer's filter without JavaScript (`?menu=words`, components/side-drawer.tsx): the
 * shell's, not the view's; a table screen reads past it without a notice and keeps it out of its links.
 */
export const MENU_FILTER_PARAM = 'menu'

/**
 * A keyboard-wedge scan's search (`?col=tag&q=…&scan=1`, components/keyboard-shortcuts.tsx): the one
 * record it matches opens (screens/screen-data.server.ts), several show as the filtered table, which
 * reads past it without a notice and keeps it out of its links.
 */
export const SCAN_PARAM = 'scan'

/** The URL search string of a view (defaults left out, keys in one order), so equal views have equal links. */
export function listQueryToSearch(query: ListQuery, keep?: URLSearchParams): string {
  const out = new URLSearchParams()
  if (keep) for (const p of PAGE_PARAMS) if (keep.has(p) && p !== 'msg' && p !== 'done') out.set(p, keep.get(p)!)
  for (const k of LIST_KEYS) {
    const v = query[k]
    if (v === undefined || v === null || v === '') continue
    if (k === 'page' && v === 1) continue
    if (Array.isArray(v)) {
      if (v.length) out.set(k, v.join(','))
      continue
    }
    out.set(k, String(v))
  }
  const s = out.toString()
  return s ? `?${s}` : ''
}

/** A view with some settings changed; `undefined` removes a setting. Changing what is shown goes back to page 1. */
export function withQuery(query: ListQuery, change: ListQuery & Record<string, unknown>): ListQuery {
  const next: Record<string, unknown> = { ...query, ...change }
  for (const [k, v] of Object.entries(change)) if (v === undefined) delete next[k]
  const refilters = ['size', 'sort', 'dir', 'col', 'q', 'eq', 'df', 'range', 'from', 'to', 'all'].some((k) => k in change)
  if (refilters && !('page' in change)) delete next.page
  // a cursor belongs to the page it came with: another page or another view drops it
  if (refilters || 'page' in change) {
    if (!('after' in change)) delete next.after
    if (!('before' in change)) delete next.before
  }
  return next as ListQuery
}

/** The `eq` setting as [field, value] pairs: `phase:Flowering;room:abc` → [['phase','Flowering'],['room','abc']]. */
export function eqPairs(eq: string | undefined): Array<[string, string]> {
  if (!eq) return []
  return eq.split(';').filter(Boolean).map((p) => {
    const i = p.indexOf(':')
    return (i < 0 ? [p, ''] : [p.slice(0, i), p.slice(i + 1)]) as [string, string]
  })
}

/** Pairs back to an `eq` setting (values may not hold `;`). */
export function eqOf(pairs: Array<[string, string]>): string {
  return pairs.map(([k, v]) => `${k}:${v}`).join(';')
}

/**
 * What a saved view keeps (decision 073): the view's settings without where one is in it (page,
 * the page links' cursors, expanded rows) and without the page size the window picks with JavaScript.
 */
export const VIEW_KEYS = LIST_KEYS.filter((k) => !['page', 'after', 'before', 'size', 'open'].includes(k))

/**
 * A view's settings as the canonical query string (no `?`; VIEW_KEYS in their order, the first of a
 * repeated one): two addresses of the same view give the same string, so the drawer can tell
 * whether the page is a pinned view. Values as the table's own links write them.
 */
export function viewSearch(search: string | URLSearchParams): string {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search
  const out = new URLSearchParams()
  for (const k of VIEW_KEYS) {
    const v = params.get(k)
    if (v !== null && v !== '') out.set(k, v)
  }
  return out.toString()
}
