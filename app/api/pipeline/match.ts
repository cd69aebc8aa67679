/**
 * $match: a MongoDB query document as a SQL condition on the document `d`.
 *
 * A dotted path yields candidate values the way MongoDB's does: through arrays along the way, and a
 * final array stands for itself and each of its elements (`jsonPath(…, each)`). A condition holds
 * when some candidate satisfies it. Comparisons are type-bracketed: a number never equals or
 * orders against a string. `{a: null}` matches a missing `a` or a null one.
 *
 * Refused (rather than answered differently): object or array operands for equality and $in,
 * range operators on anything but numbers and strings, operators outside the list below.
 */
import { LIMITS, isPlainObject, isScalar, pathSegments, refuse, show } from './limits'
import { translateRegex } from './regex'
import { jsonPath, lit, type Params } from './sql-parts'

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
      const pattern = p.text(re.pattern)
      const op = re.caseless ? '~*' : '~'
      parts.push(some(segs, d, (v) => `jsonb_typeof(${v}) = 'string' AND (${v} #>> '{}') ${op} ${pattern}`, (s) => `${s} ${op} ${pattern}`))
    } else if (op === '$not') {
      if (!isPlainObject(arg) || !Object.keys(arg).length || !Object.keys(arg).every((k) => k.startsWith('$'))) throw refuse(`${name} $not: expects an operator object like {$gt: 5}`)
      parts.push(`(NOT ${operators(segs, arg, d, p)})`)
    }
    // $options is read with $regex
  }
  return `(${parts.join(' AND ') || 'TRUE'})`
}

/** Some candidate equals the scalar `v`; for null also a missing value. */
function eq(segs: string[], v: unknown, d: string, p: Params, where: string): string {
  if (!isScalar(v)) throw refuse(`${where}: expects a number, string, boolean or null`)
  const x = p.json(v)
  const any = some(segs, d, (c) => `${c} = ${x}`)
  return v === null ? `(NOT ${exists(segs, d)} OR ${any})` : any
}

/** AND does not order evaluation in SQL: the cast to numeric waits behind a CASE. */
function range(segs: string[], op: string, v: unknown, d: string, p: Params): string {
  if (typeof v === 'number' && Number.isFinite(v)) {
    const x = p.json(v)
    return some(segs, d, (c) => `CASE WHEN jsonb_typeof(${c}) = 'number' THEN (${c})::numeric ${RANGE[op]} ${x}::numeric ELSE false END`)
  }
  if (typeof v === 'string') {
    const x = p.text(v)
    return some(segs, d, (c) => `jsonb_typeof(${c}) = 'string' AND (${c} #>> '{}') COLLATE "C" ${RANGE[op]} ${x} COLLATE "C"`, (s) => `${s} COLLATE "C" ${RANGE[op]} ${x} COLLATE "C"`)
  }
  throw refuse(`${segs.join('.')} ${op}: compares numbers or strings (dates as ISO strings) only`)
}

function inList(segs: string[], list: unknown, d: string, p: Params, op: string): string {
  const name = segs.join('.')
  if (!Array.isArray(list)) throw refuse(`${name} ${op}: expects an array`)
  if (list.length > LIMITS.inList) throw refuse(`${name} ${op}: more than ${LIMITS.inList} values`)
  for (const x of list) if (!isScalar(x)) throw refuse(`${name} ${op}: values must be numbers, strings, booleans or null`)
  if (!list.length) return 'FALSE'
  const x = p.json(list)
  const any = some(segs, d, (c) => `${c} IN (SELECT jsonb_array_elements(${x}))`)
  return list.includes(null) ? `(NOT ${exists(segs, d)} OR ${any})` : any
}

/**
 * Some candidate value at the path satisfies `pred` (a condition on a jsonb expression that is
 * true or false for any non-NULL value). A top-level field's candidates are its value, or its
 * elements when it is an array — what the lax path `$.k[*]` yields — written without the path
 * function, so the common case (not an array) is a plain expression on the field. `onString`,
 * for a condition that only strings can meet, is `pred` on a string value given as text.
 */
function some(segs: string[], d: string, pred: (v: string) => string, onString?: (s: string) => string): string {
  if (segs.length === 1) {
    const x = `(${d} -> ${lit(segs[0])})`
    const elements = `EXISTS (SELECT 1 FROM jsonb_array_elements(${x}) AS c(v) WHERE ${pred('c.v')})`
    // pred of a missing value (SQL NULL) is NULL or false: coalesce makes it false, as no candidate
    if (!onString) return `(CASE jsonb_typeof(${x}) WHEN 'array' THEN ${elements} ELSE coalesce(${pred(x)}, false) END)`
    return `(CASE jsonb_typeof(${x}) WHEN 'array' THEN ${elements} WHEN 'string' THEN ${onString(`(${d} ->> ${lit(segs[0])})`)} ELSE false END)`
  }
  return `EXISTS (SELECT 1 FROM jsonb_path_query(${d}, ${jsonPath(segs, true)}) AS c(v) WHERE ${pred('c.v')})`
}

/** The path leads to a value (JSON null too). */
const exists = (segs: string[], d: string) => (segs.length === 1 ? `(${d} -> ${lit(segs[0])} IS NOT NULL)` : `jsonb_path_exists(${d}, ${jsonPath(segs, false)})`)
