/**
 * $match: a MongoDB query document as a SQL condition on the document `d`.
 *
 * A dotted path yields candidate values the way MongoDB's does: through arrays along the way, and a
 * final array stands for itself and each of its elements. A condition holds when some candidate
 * satisfies it. Comparisons are type-bracketed: a number never equals or orders against a string.
 * `{a: null}` matches a missing `a` or a null one.
 *
 * Equality on a top-level field is jsonb containment. Ranges and $regex are written twice: in SQL
 * on one jsonb value, for a top-level field that is not an array (the common case, a plain
 * expression on the stored field), and as a SQL/JSON path filter on `@` for the candidates inside
 * arrays and along dotted paths ($in is the filter alone). The filter runs in `jsonb_path_exists`, a
 * plain function call: a subquery over the elements would make the whole table read
 * parallel-restricted in PostgreSQL 15 (decision 010).
 *
 * Refused (rather than answered differently): object or array operands for equality and $in,
 * range operators on anything but numbers and strings, operators outside the list below.
 */
import { LIMITS, isPlainObject, isScalar, pathSegments, refuse, show } from './limits'
import { translateRegex } from './regex'
import { jsonPath, jsonPathString, laxPath, lit, type Params } from './sql-parts'

const FIELD_OPS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options', '$not'])
const RANGE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }

export function compileMatch(q: unknown, d: string, p: Params): string {
  if (!isPlainObject(q)) throw refuse('$match: expects an object')
  const parts: string[] = []
  for (const [key, v] of Object.entries(q)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(v) || v.length === 0) throw refuse(`${key}: expects a non-empty array of conditions`)
      const subs = v.map((x) => compileMatch(x, d, p))
      const joined = `(${subs.join(key === '$and' ? ' AND ' : ' OR ')})`
      parts.push(key === '$nor' ? `(NOT ${joined})` : joined)
    } else if (key.startsWith('$')) {
      throw refuse(`$match: the operator ${show(key)} is not supported`)
    } else {
      parts.push(fieldCondition(pathSegments(key, '$match'), v, d, p))
    }
  }
  return parts.length ? `(${parts.join(' AND ')})` : 'TRUE'
}

function fieldCondition(segs: string[], v: unknown, d: string, p: Params): string {
  if (isPlainObject(v)) {
    const keys = Object.keys(v)
    if (keys.length && keys.every((k) => k.startsWith('$'))) return operators(segs, v, d, p)
    if (keys.some((k) => k.startsWith('$'))) throw refuse(`$match: ${segs.join('.')} mixes operators and fields`)
    throw refuse(`$match: ${segs.join('.')}: comparing with a whole object is not supported (match its fields with dotted paths)`)
  }
  if (Array.isArray(v)) throw refuse(`$match: ${segs.join('.')}: comparing with a whole array is not supported (use $in)`)
  return eq(segs, v, d, p, `$match ${segs.join('.')}`)
}

function operators(segs: string[], ops: Record<string, unknown>, d: string, p: Params): string {
  const name = segs.join('.')
  const parts: string[] = []
  if ('$options' in ops && !('$regex' in ops)) throw refuse(`${name}: $options needs $regex`)
  for (const [op, arg] of Object.entries(ops)) {
    if (!FIELD_OPS.has(op)) throw refuse(`${name}: the operator ${show(op)} is not supported`)
    if (op === '$eq') parts.push(eq(segs, arg, d, p, `${name} $eq`))
    else if (op === '$ne') parts.push(`(NOT ${eq(segs, arg, d, p, `${name} $ne`)})`)
    else if (op in RANGE) parts.push(range(segs, op, arg, d, p))
    else if (op === '$in') parts.push(inList(segs, arg, d, p, '$in'))
    else if (op === '$nin') parts.push(`(NOT ${inList(segs, arg, d, p, '$nin')})`)
    else if (op === '$exists') {
      if (typeof arg !== 'boolean' && arg !== 0 && arg !== 1) throw refuse(`${name} $exists: expects true or false`)
      parts.push(`(${arg ? '' : 'NOT '}${exists(segs, d)})`)
    } else if (op === '$regex') {
      const re = translateRegex(arg, ops.$options)
      const op = re.caseless ? '~*' : '~'
      // a pattern of plain ASCII letters, digits and spaces is a substring test: (I)LIKE '%…%' says
      // the same as the regex and costs a fraction of it per row (a table page's search box); on a
      // dotted path there is no field text to test, and the path filter reads the pattern as is
      const literal = typeof arg === 'string' && /^[A-Za-z0-9 ]{1,200}$/.test(arg)
      // like_regex with flag "s" compiles the pattern as `~` does (ARE, `.` matches a newline too)
      const path = `@ like_regex ${jsonPathString(re.pattern)} flag "${re.caseless ? 'is' : 's'}"`
      if (literal && segs.length === 1) {
        // on a top-level field, the substring test runs first on the field as text, `->>`: a string
        // itself, an array its JSON text, in which each element's letters, digits and spaces stand
        // as they are. A row failing it has no matching candidate and costs one read of the field;
        // the others are then checked by type (a string passed; an array's elements one by one).
        // One CASE, not `text AND …`: the planner would estimate the LIKE on its own and keep a
        // handful of rows where thousands pass, then sort them all for a table page instead of
        // reading the sort field's index (10× slower on the PGlite bench); it takes a CASE as a
        // whole, as it took the condition before this test was added
        const text = `(${d} ->> ${lit(segs[0])}) ${re.caseless ? 'ILIKE' : 'LIKE'} ${p.text(`%${arg}%`)}`
        parts.push(`(CASE WHEN ${text} THEN ${some(segs, d, p, { path, vars: {}, onString: () => 'true' })} ELSE false END)`)
      } else {
        // (a dotted path reads its candidates through the path filter alone)
        parts.push(some(segs, d, p, { path, vars: {}, onString: (s) => `${s} ${op} ${p.text(re.pattern)}` }))
      }
    } else if (op === '$not') {
      if (!isPlainObject(arg) || !Object.keys(arg).length || !Object.keys(arg).every((k) => k.startsWith('$'))) throw refuse(`${name} $not: expects an operator object like {$gt: 5}`)
      parts.push(`(NOT ${operators(segs, arg, d, p)})`)
    }
    // $options is read with $regex
  }
  return `(${parts.join(' AND ') || 'TRUE'})`
}

/**
 * Some candidate equals the scalar `v`; for null also a missing value. On a top-level field this is
 * jsonb containment: `{k: v}` holds when k is that scalar (numbers compare as numbers), `{k: [v]}`
 * when k is an array with that scalar among its own elements (not inside a nested array). Neither
 * reads the field out of the document, so this is the cheapest test per row (decision 010).
 */
function eq(segs: string[], v: unknown, d: string, p: Params, where: string): string {
  if (!isScalar(v)) throw refuse(`${where}: expects a number, string, boolean or null`)
  const [k] = segs
  const any = segs.length === 1 ? `(${d} @> ${p.json({ [k]: v })} OR ${d} @> ${p.json({ [k]: [v] })})` : some(segs, d, p, { path: '@ == $v', vars: { v } })
  return v === null ? `(NOT ${exists(segs, d)} OR ${any})` : any
}

/** AND does not order evaluation in SQL: the cast to numeric waits behind a CASE. */
function range(segs: string[], op: string, v: unknown, d: string, p: Params): string {
  if (typeof v === 'number' && Number.isFinite(v)) {
    // SQL/JSON compares numbers as numeric and a number with anything else as unknown (no match)
    return some(segs, d, p, { sql: (c) => `CASE WHEN jsonb_typeof(${c}) = 'number' THEN (${c})::numeric ${RANGE[op]} ${p.json(v)}::numeric ELSE false END`, path: `@ ${RANGE[op]} $v`, vars: { v } })
  }
  if (typeof v === 'string') {
    // SQL/JSON orders strings by code point in a UTF-8 database: COLLATE "C"
    return some(segs, d, p, { path: `@ ${RANGE[op]} $v`, vars: { v }, onString: (s) => `${s} COLLATE "C" ${RANGE[op]} ${p.text(v)} COLLATE "C"` })
  }
  throw refuse(`${segs.join('.')} ${op}: compares numbers or strings (dates as ISO strings) only`)
}

function inList(segs: string[], list: unknown, d: string, p: Params, op: string): string {
  const name = segs.join('.')
  if (!Array.isArray(list)) throw refuse(`${name} ${op}: expects an array`)
  if (list.length > LIMITS.inList) throw refuse(`${name} ${op}: more than ${LIMITS.inList} values`)
  for (const x of list) if (!isScalar(x)) throw refuse(`${name} ${op}: values must be numbers, strings, booleans or null`)
  if (!list.length) return 'FALSE'
  // lax: some pair of the candidate and a list value is equal (pairs of other types are unknown);
  // a path filter for every value, not `IN (SELECT jsonb_array_elements(…))`: that subquery would
  // make the table read parallel-restricted too
  const any = some(segs, d, p, { path: '@ == $l[*]', vars: { l: list } })
  return list.includes(null) ? `(NOT ${exists(segs, d)} OR ${any})` : any
}

/**
 * One condition on a candidate value. `sql`: on a jsonb expression, true or false for any non-NULL
 * value; `onString`, for a condition only strings can meet, on a string value given as text (either
 * may be left out when the other covers the case; both are called at most once and bind their
 * parameters only then, so a statement has no unused ones). `path`: the same condition as a
 * SQL/JSON filter predicate on `@`, with the variables `vars` (false or unknown for values of
 * other types).
 */
interface Cond {
  sql?: (v: string) => string
  onString?: (s: string) => string
  path: string
  vars: Record<string, unknown>
}

/**
 * Some candidate value at the path satisfies `cond`. A top-level field's candidates are its value,
 * or its elements when it is an array; for the common case (not an array) the condition is a plain
 * expression on the field when `cond` has one. Candidates inside arrays and along dotted paths (and
 * a top-level field's value for a condition without `sql`/`onString`) are read by a lax
 * SQL/JSON path whose filter holds the condition. A lax filter takes an array's elements, and a lax
 * comparison would unwrap an element that is itself an array: MongoDB compares such an element as a
 * whole (never equal to a scalar), hence `@.type() != "array"`.
 */
function some(segs: string[], d: string, p: Params, cond: Cond): string {
  const filter = `? (@.type() != "array" && (${cond.path}))`
  const vars = p.json(cond.vars)
  if (segs.length === 1 && (cond.sql || cond.onString)) {
    const x = `(${d} -> ${lit(segs[0])})`
    const elements = `jsonb_path_exists(${x}, ${p.text(`lax $ ${filter}`)}::jsonpath, ${vars})`
    // sql of a missing value (SQL NULL) is NULL or false: coalesce makes it false, as no candidate
    const scalar = cond.sql ? `coalesce(${cond.sql(x)}, false)` : 'false'
    const string = cond.onString ? ` WHEN 'string' THEN ${cond.onString(`(${d} ->> ${lit(segs[0])})`)}` : ''
    return `(CASE jsonb_typeof(${x}) WHEN 'array' THEN ${elements}${string} ELSE ${scalar} END)`
  }
  return `jsonb_path_exists(${d}, ${p.text(`${laxPath(segs)} ${filter}`)}::jsonpath, ${vars})`
}

/** The path leads to a value (JSON null too). */
const exists = (segs: string[], d: string) => (segs.length === 1 ? `(${d} -> ${lit(segs[0])} IS NOT NULL)` : `jsonb_path_exists(${d}, ${jsonPath(segs, false)})`)
