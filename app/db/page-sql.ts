/**
 * The SQL of one page of a collection (Store.page): filters, sort, references, and the order in
 * which the rows come, as one or two "segments" run one after the other (decision 008).
 *
 * Every sort orders by (value, id) with missing values at the high end (ASC NULLS LAST, DESC NULLS
 * FIRST), so a row's position is its (value, id) and a page can start after a row (a keyset cursor)
 * instead of skipping rows (OFFSET). Where a missing value cannot be found through the same index as
 * the present ones, the rows with a value and the rows without are two segments, each an index walk
 * that stops as soon as the page is full:
 * - a keyset page on a nullable field: `value IS NOT NULL AND (value, id) > cursor`, then `value IS NULL`;
 * - a sort on a referenced record's label: the referenced records in label order, each one's rows
 *   through the reference index (a nested loop the LIMIT stops early, with an Incremental Sort on
 *   id within a label), then the rows without a label (no reference, a dangling one, or a blank label).
 * An OFFSET page on a field of the record itself stays one query (`all`): its index has the nulls too.
 */
import type { TableSchema } from '../schemas/table-schema'
import { badInput } from '../utils/errors'
import { containsPattern, isFieldKey, keyLit, kindOf, searchExpr, sortExpr, type ExprKind } from './sql'
import type { Cursor, PageQuery } from './types'

export type SegmentKind = 'all' | 'value' | 'missing'

export interface Segment {
  kind: SegmentKind
  /** the rows of the segment in order; its last two parameters are LIMIT and OFFSET (appended by the caller) */
  sql: string
  params: unknown[]
  /**
   * The same rows for an OFFSET past 0 (a page opened by number), as a deferred join: the skipped rows
   * are walked for their ids alone (index-only where the index covers the view), and only the page's
   * rows are read back by primary key. Same parameters, same rows, same order as `sql`.
   */
  deepSql: string
  /** how many rows the segment holds (only needed to page by OFFSET past its end); takes `params` */
  countSql: string
  /** parameters after LIMIT and OFFSET: the organisations of the label lookups */
  labelParams: unknown[]
}

export interface PagePlan {
  segments: Segment[]
  /** the rows come in the reverse of the view's order (a `before` cursor): the caller reverses them */
  reversed: boolean
  countSql: string
  countParams: unknown[]
  estimateSql: string
}

interface RefSql {
  alias: string
  key: string
  labelField: string
  table: string
  org: string
  join: (paramNo: number) => string
}

const CAST: Record<ExprKind, string> = { column: 'timestamptz', number: 'numeric', measure: 'numeric', date: 'text', text: 'text' }
/** what a cursor's value must look like for the sort's kind (forged or stale links are refused, not run) */
const VALUE_RE: Record<ExprKind, RegExp> = {
  column: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/,
  number: /^-?\d{1,40}(\.\d{1,40})?$/,
  measure: /^-?\d{1,40}(\.\d{1,40})?$/,
  date: /^[\s\S]{0,200}$/,
  text: /^[\s\S]{0,1000}$/,
}

/**
 * Builds the segments of a page query. `tableFor` names the physical table of a collection (and
 * refuses unknown ones); `schema` is the collection's schema, if it has one.
 */
export async function pagePlan(t: string, schema: TableSchema | undefined, q: PageQuery, tableFor: (collection: string) => Promise<string>, org: string): Promise<PagePlan> {
  const known = (k: string) => k === 'cts' || k === 'ts' || !schema || schema.fields.some((f) => f.key === k)
  const params: unknown[] = [org]
  const where = ['t.org = $1']
  const refs: RefSql[] = []
  for (const [i, ref] of (q.refs ?? []).entries()) {
    if (!isFieldKey(ref.key) || !isFieldKey(ref.labelField)) throw badInput(`bad reference column "${ref.key.slice(0, 40)}"`)
    const table = await tableFor(ref.collection)
    const alias = `ref${i}`
    const join = (n: number) => `LEFT JOIN LATERAL (SELECT r.doc ->> ${keyLit(ref.labelField)} AS label FROM ${table} r WHERE r.org = $${n} AND r.id = t.doc ->> ${keyLit(ref.key)}) ${alias} ON true`
    refs.push({ alias, key: ref.key, labelField: ref.labelField, table, org: ref.org, join })
  }
  const refOf = (key: string) => refs.find((r) => r.key === key)

  if (q.activeOnly) where.push(`(t.doc ->> 'IsUsed') IS DISTINCT FROM 'no'`)
  for (const e of q.equals ?? []) {
    if (!isFieldKey(e.key) || !known(e.key)) throw badInput(`unknown field "${e.key.slice(0, 40)}"`)
    // an empty value matches a record without one
    if (e.value === '') where.push(`COALESCE(t.doc ->> ${keyLit(e.key)}, '') = ''`)
    else where.push(`(t.doc ->> ${keyLit(e.key)}) = $${params.push(e.value)}`)
  }
  if (q.range && (q.range.from || q.range.to)) {
    if (!isFieldKey(q.range.key) || !known(q.range.key)) throw badInput(`unknown date field "${q.range.key.slice(0, 40)}"`)
    const e = sortExpr(schema, q.range.key)
    const col = q.range.key === 'cts' || q.range.key === 'ts'
    for (const [op, v] of [['>=', q.range.from], ['<', q.range.to]] as const) {
      if (!v) continue
      const d = new Date(v)
      if (Number.isNaN(d.getTime())) throw badInput(`"${String(v).slice(0, 40)}" is not a date`)
      params.push(col ? d : d.toISOString())
      where.push(`${e} ${op} $${params.length}${col ? '::timestamptz' : ''}`)
    }
  }

  const sort = q.sort ?? schema?.defaultSort ?? { key: 'cts', dir: 'desc' as const }
  if (!isFieldKey(sort.key) || !known(sort.key)) throw badInput(`unknown sort field "${sort.key.slice(0, 40)}"`)
  const sortRef = refOf(sort.key)
  const kind: ExprKind = sortRef ? 'text' : kindOf(schema?.fields.find((f) => f.key === sort.key), sort.key)
  const nullable = kind !== 'column'

  // the search: on a referenced column it filters the label (joined), else the field itself
  let searchParam = 0
  let searchRef: RefSql | undefined
  if (q.search && q.search.text !== '') {
    if (!isFieldKey(q.search.key) || !known(q.search.key)) throw badInput(`unknown search field "${q.search.key.slice(0, 40)}"`)
    params.push(containsPattern(q.search.text))
    searchParam = params.length
    searchRef = refOf(q.search.key)
    if (!searchRef) where.push(`${searchExpr(q.search.key)} ILIKE $${searchParam} ESCAPE '\\'`)
  }

  // the count: every filter, the search's join if it needs one
  const countParams = [...params]
  const countJoin = searchRef ? (countParams.push(searchRef.org), searchRef.join(countParams.length)) : ''
  const countWhere = [...where, ...(searchRef ? [`${searchRef.alias}.label ILIKE $${searchParam} ESCAPE '\\'`] : [])].join(' AND ')
  const countFrom = `FROM ${t} t ${countJoin} WHERE ${countWhere}`

  // the order the rows come in: the view's, or its reverse for a `before` cursor
  const cursor = q.after ?? q.before
  const reversed = !q.after && !!q.before
  const viewAsc = sort.dir !== 'desc'
  const asc = reversed ? !viewAsc : viewAsc
  const dir = asc ? 'ASC' : 'DESC'
  const cmp = asc ? '>' : '<'
  if (cursor) checkCursor(cursor, kind)

  // segments in the order they are read: missing values are at the high end of either direction
  let kinds: SegmentKind[] = sortRef || (cursor && nullable) ? (asc ? ['value', 'missing'] : ['missing', 'value']) : ['all']
  // a search on the sorted reference's label never matches a record without one
  if (sortRef && searchRef === sortRef) kinds = kinds.filter((k) => k !== 'missing')
  if (cursor && kinds.length > 1) {
    const from = kinds.indexOf(cursor.v === null ? 'missing' : 'value')
    kinds = from < 0 ? [] : kinds.slice(from)
  }

  const expr = sortExpr(schema, sort.key)
  /** the key a row is found again by: text that casts back to the sort expression's type exactly */
  const keyOf = (e: string) => (kind === 'column' ? `to_char(${e} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` : `(${e})::text`)

  const segments = kinds.map((k, i): Segment => {
    const p = [...params]
    const w = [...where]
    const at = i === 0 && cursor ? cursor : undefined
    const joins: string[] = []
    // a search on a reference that is not (or not here) the sorted one: its join, filtered
    const searchJoined = searchRef && !(sortRef === searchRef && k === 'value')
    if (searchJoined) {
      p.push(searchRef!.org)
      joins.push(searchRef!.join(p.length))
      w.push(`${searchRef!.alias}.label ILIKE $${searchParam} ESCAPE '\\'`)
    }
    let from: string
    let select: string
    let order: string
    let outerOrder: string
    /** the deferred join: what the id walk selects, what the page's rows select once read back by id, their order */
    let idSelect = 't.id'
    let backSelect: string
    let backOrder: string
    if (sortRef && k === 'value') {
      // referenced records in label order, each one's rows by id
      p.push(sortRef.org)
      const refOrg = p.length
      const label = `(s.label)`
      const sw = [`r.org = $${refOrg}`, `r.doc ->> ${keyLit(sortRef.labelField)} IS NOT NULL`]
      if (searchRef === sortRef) sw.push(`r.doc ->> ${keyLit(sortRef.labelField)} ILIKE $${searchParam} ESCAPE '\\'`)
      const outer: string[] = []
      if (at) {
        p.push(at.v, at.id)
        sw.push(`(lower(r.doc ->> ${keyLit(sortRef.labelField)}) COLLATE "C") ${cmp}= $${p.length - 1}`)
        outer.push(`((lower(${label}) COLLATE "C"), t.id) ${cmp} ($${p.length - 1}, $${p.length})`)
      }
      w.push(`t.doc ->> ${keyLit(sortRef.key)} = s.rid`)
      from = `FROM (SELECT r.id AS rid, r.doc ->> ${keyLit(sortRef.labelField)} AS label FROM ${sortRef.table} r WHERE ${sw.join(' AND ')}) s
        CROSS JOIN LATERAL (SELECT t.id, t.doc, t.cts, t.ts FROM ${t} t ${joins.join(' ')} WHERE ${w.join(' AND ')}) t${outer.length ? ` WHERE ${outer.join(' AND ')}` : ''}`
      select = `t.id, t.doc, t.cts, t.ts, lower(${label}) AS sort_k`
      order = `(lower(${label}) COLLATE "C") ${dir}, t.id ${dir}`
      outerOrder = `(p.sort_k COLLATE "C") ${dir}, p.id ${dir}`
      idSelect = `t.id, lower(${label}) AS sort_k`
      backSelect = 't.id, t.doc, t.cts, t.ts, d.sort_k'
      backOrder = `(d.sort_k COLLATE "C") ${dir}, t.id ${dir}`
    } else if (sortRef) {
      // no label: no reference, one to a record that is gone, or a record without the label
      p.push(sortRef.org)
      w.push(`NOT EXISTS (SELECT 1 FROM ${sortRef.table} r WHERE r.org = $${p.length} AND r.id = t.doc ->> ${keyLit(sortRef.key)} AND r.doc ->> ${keyLit(sortRef.labelField)} IS NOT NULL)`)
      if (at) {
        p.push(at.id)
        w.push(`t.id ${cmp} $${p.length}`)
      }
      from = `FROM ${t} t ${joins.join(' ')} WHERE ${w.join(' AND ')}`
      select = 't.id, t.doc, t.cts, t.ts, NULL::text AS sort_k'
      order = `t.id ${dir}`
      outerOrder = `p.id ${dir}`
      backSelect = select
      backOrder = order
    } else {
      if (k === 'value') w.push(`${expr} IS NOT NULL`)
      if (k === 'missing') w.push(`${expr} IS NULL`)
      if (at && k === 'missing') {
        p.push(at.id)
        w.push(`t.id ${cmp} $${p.length}`)
      } else if (at) {
        p.push(at.v, at.id)
        w.push(`(${expr}, t.id) ${cmp} ($${p.length - 1}::${CAST[kind]}, $${p.length})`)
      }
      from = `FROM ${t} t ${joins.join(' ')} WHERE ${w.join(' AND ')}`
      select = `t.id, t.doc, t.cts, t.ts, ${k === 'missing' ? 'NULL::text' : keyOf(expr)} AS sort_k`
      order = k === 'missing' ? `t.id ${dir}` : `${expr} ${dir}, t.id ${dir}`
      // the same order over the page's rows (sortExpr reads `doc`, which is p.doc here)
      outerOrder = k === 'missing' ? `p.id ${dir}` : `${expr} ${dir}, p.id ${dir}`
      // read back by id, the sort expression reads the joined row's `doc` (the id walk `d` has only `id`)
      backSelect = select
      backOrder = order
    }
    const countSql = `SELECT count(*)::int AS n ${from}`
    const limits = `LIMIT $${p.length + 1} OFFSET $${p.length + 2}`
    let sql = `SELECT ${select} ${from} ORDER BY ${order} ${limits}`
    // the deferred join: the OFFSET walks ids in the view's order, the page's rows come back by primary key
    let deepSql = `SELECT ${backSelect} FROM (SELECT ${idSelect} ${from} ORDER BY ${order} ${limits}) d JOIN ${t} t ON t.org = $1 AND t.id = d.id ORDER BY ${backOrder}`
    // labels of every reference column: looked up by primary key for the page's rows alone
    if (refs.length) {
      const labels = refs.map((r) => `${keyLit(r.key)}, (SELECT x.doc ->> ${keyLit(r.labelField)} FROM ${r.table} x WHERE x.org = $${p.length + 3 + refs.indexOf(r)} AND x.id = p.doc ->> ${keyLit(r.key)})`)
      const withLabels = (rows: string) => `SELECT p.id, p.doc, p.cts, p.ts, p.sort_k, jsonb_build_object(${labels.join(', ')}) AS labels FROM (${rows}) p ORDER BY ${outerOrder}`
      sql = withLabels(sql)
      deepSql = withLabels(deepSql)
    }
    return { kind: k, sql, deepSql, params: p, countSql, labelParams: refs.map((r) => r.org) }
  })

  return {
    segments,
    reversed,
    countSql: q.countCap ? `SELECT count(*)::int AS n FROM (SELECT 1 ${countFrom} LIMIT ${Math.max(1, Math.floor(q.countCap)) + 1}) capped` : `SELECT count(*)::int AS n ${countFrom}`,
    countParams,
    estimateSql: `EXPLAIN (FORMAT JSON) SELECT 1 ${countFrom}`,
  }
}

/** The parameters of a segment's rows query for a LIMIT and an OFFSET. */
export function segmentParams(s: Segment, limit: number, offset: number): unknown[] {
  return [...s.params, Math.max(0, Math.min(limit, 1000)), Math.max(0, offset), ...s.labelParams]
}

function checkCursor(c: Cursor, kind: ExprKind) {
  if (typeof c.id !== 'string' || c.id.length > 200 || (c.v !== null && (typeof c.v !== 'string' || !VALUE_RE[kind].test(c.v)))) {
    throw badInput('the page link is not valid for this sort; open the first page')
  }
}
