/**
 * The whole view of a table screen lives in its URL (issue 5): page, page size, sort, search,
 * date filter, active/all, hidden columns, font size, expanded rows. One zod schema reads it;
 * the table screen's loader and the JSON API's list queries both use it. Parsing is lenient per
 * parameter: a bad or unknown one is dropped with a notice that says so, never a crash.
 * Shared by server and browser: no server imports.
 */
import { z } from 'zod'
import { DATE_SHORTCUTS, isIsoDate } from '../format/date-ranges'
import { issueMessage } from '../utils/zod-messages'
import { eqPairs, MENU_FILTER_PARAM, SCAN_PARAM, FONT_SIZES, LIST_KEYS, MAX_PAGE, PAGE_PARAMS, PAGE_SIZES, type ListKey, type ListQuery } from './table-url'

export type { ListQuery }

const fieldKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'is not a column name')
const keyList = z
  .string()
  .max(2000)
  .transform((s) => s.split(',').filter(Boolean))
  .pipe(z.array(fieldKey).max(100))
const idList = z
  .string()
  .max(2000)
  .transform((s) => s.split(',').filter(Boolean))
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'is not a record id')).max(40))
const oneOf = <T extends readonly number[]>(values: T, what: string) =>
  z.coerce.number().refine((n): n is T[number] => (values as readonly number[]).includes(n), `${what} must be one of ${values.join(', ')}`)
const cursorToken = z.string().max(1400, 'is not a page link').regex(/^[A-Za-z0-9_-]+$/, 'is not a page link')
const isoDate = z.string().refine(isIsoDate, 'is not a date (YYYY-MM-DD)')

/** Every parameter of a list view (./table-url.ts names them and builds links). */
export const listQuerySchema = z.object({
  page: z.coerce.number().int('is not a page number').min(1, 'is not a page number').max(MAX_PAGE, `is past the last page we serve (${MAX_PAGE})`),
  /** Next/Previous links start after (or end before) a row: opaque tokens the screen made (decision 008) */
  after: cursorToken,
  before: cursorToken,
  size: oneOf(PAGE_SIZES, 'rows per page'),
  sort: fieldKey,
  dir: z.enum(['asc', 'desc']),
  /** the column searched (chosen through its filter icon) and the text */
  col: fieldKey,
  q: z.string().max(200, 'search text is limited to 200 characters'),
  /** exact matches on fields, `field:value;field:value` (at most 6; a value holds no `;`) */
  eq: z
    .string()
    .max(800, 'is too long')
    .refine((s) => {
      const pairs = eqPairs(s)
      return pairs.length > 0 && pairs.length <= 6 && pairs.every(([k, v]) => /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(k) && v.length <= 120)
    }, 'is not a list of field:value matches'),
  /** the date field filtered, a named shortcut or a custom from/to (inclusive days) */
  df: fieldKey,
  range: z.enum(DATE_SHORTCUTS),
  from: isoDate,
  to: isoDate,
  /** all=1 shows all records; the default shows active ones only */
  all: z.enum(['1']),
  /** columns the user hid */
  hide: keyList,
  /** hidden=1 shows every column, including those the schema hides */
  hidden: z.enum(['1']),
  font: oneOf(FONT_SIZES, 'font size'),
  /** rows expanded to show their nested table */
  open: idList,
})

const KEYS = LIST_KEYS

/** Reads a list view from URL parameters: good ones kept, bad or unknown ones named in `notices`. */
export function parseListQuery(params: URLSearchParams): { query: ListQuery; notices: string[] } {
  const query: Record<string, unknown> = {}
  const notices: string[] = []
  for (const [name, value] of params) {
    if ((PAGE_PARAMS as readonly string[]).includes(name) || name === MENU_FILTER_PARAM || name === SCAN_PARAM) continue
    if (!(KEYS as readonly string[]).includes(name)) {
      notices.push(`Ignored "${clip(name)}": this screen has no such setting.`)
      continue
    }
    if (name in query) continue // the first of a repeated parameter counts
    if (value === '' && name !== 'q') continue
    const r = listQuerySchema.shape[name as ListKey].safeParse(value)
    if (r.success) query[name] = r.data
    else notices.push(`Ignored ${name}="${clip(value)}": ${r.error.issues[0] ? issueMessage(r.error.issues[0]) : 'not understood'}.`)
  }
  if (query.q === '') delete query.q
  if (query.from && query.to && String(query.from) > String(query.to)) {
    notices.push(`Ignored the date range: ${query.from} is after ${query.to}.`)
    delete query.from
    delete query.to
  }
  if (query.range && (query.from || query.to)) {
    notices.push('Used the date shortcut and ignored the custom dates given with it.')
    delete query.from
    delete query.to
  }
  return { query: query as ListQuery, notices }
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s
}
