/**
 * SQL fragments shared by the stages. A document in flight is one jsonb value `d` (its fields plus
 * _id, cts and ts as ISO strings, as clients see it); a missing value is SQL NULL, a JSON null is
 * 'null'::jsonb. Keys reach SQL text only after `pathSegments`/`checkName` (letters, digits, _),
 * so quoting them as literals is safe; every value goes through `Params`.
 */
export class Params {
  readonly values: unknown[]
  constructor(org: string) {
    this.values = [org]
  }
  /** the organisation: $1, in every table read */
  readonly org = '$1'
  json(v: unknown): string {
    this.values.push(JSON.stringify(v))
    return `$${this.values.length}::jsonb`
  }
  text(s: string): string {
    this.values.push(s)
    return `$${this.values.length}::text`
  }
  int(n: number): string {
    this.values.push(n)
    return `$${this.values.length}::bigint`
  }
}

/** A checked key as a SQL string literal. */
export const lit = (key: string) => `'${key}'`
/** Checked segments as a text[] literal for #> and jsonb_set. */
export const pathLit = (segs: string[]) => `'{${segs.join(',')}}'`

/** The value at a path without descending into arrays (NULL when missing). */
export const getPath = (d: string, segs: string[]) => (segs.length === 1 ? `(${d} -> ${lit(segs[0])})` : `(${d} #> ${pathLit(segs)})`)

/**
 * A lax SQL/JSON path: descends into arrays along the way like MongoDB's dotted paths (one level per
 * step); with `each`, a final array yields its elements (the values a query compares against).
 */
export const jsonPath = (segs: string[], each: boolean) => `'${laxPath(segs)}${each ? '[*]' : ''}'::jsonpath`
/** The lax SQL/JSON path of checked segments, as text (`lax $."a"."b"`). */
export const laxPath = (segs: string[]) => `lax $${segs.map((s) => `."${s}"`).join('')}`

/**
 * A string as a SQL/JSON path string literal: `\` and `"` escaped, everything outside printable
 * ASCII as \uXXXX (the path is a bound parameter, never SQL text).
 */
export const jsonPathString = (s: string) =>
  `"${s.replace(/[\\"]|[^\x20-\x7e]/g, (c) => (c === '\\' || c === '"' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`

/**
 * `d` with the value at a path set to `v` (jsonb; SQL NULL removes the field, unless `neverNull`
 * is known, which saves evaluating `v` twice). Along a dotted path, an object parent is descended
 * into, a missing or null one becomes an object, and any other value (a number, a string, an array)
 * is left as it is and nothing is set (decision 010).
 */
export function setPath(d: string, segs: string[], v: string, neverNull = false): string {
  const [k, ...rest] = segs
  if (!rest.length) {
    const set = `${d} || jsonb_build_object(${lit(k)}, ${v})`
    return neverNull ? `(${set})` : `(CASE WHEN ${v} IS NULL THEN ${d} - ${lit(k)} ELSE ${set} END)`
  }
  const parent = `(${d} -> ${lit(k)})`
  const create = `${d} || jsonb_build_object(${lit(k)}, ${setPath(`'{}'::jsonb`, rest, v, neverNull)})`
  return `(CASE WHEN jsonb_typeof(${parent}) = 'object' THEN ${d} || jsonb_build_object(${lit(k)}, ${setPath(parent, rest, v, neverNull)})
    WHEN ${isNullish(parent)} THEN ${neverNull ? create : `(CASE WHEN ${v} IS NULL THEN ${d} ELSE ${create} END)`}
    ELSE ${d} END)`
}

/** `d` without the value at a path (only through objects). */
export function delPath(d: string, segs: string[]): string {
  const [k, ...rest] = segs
  if (!rest.length) return `(${d} - ${lit(k)})`
  return `(CASE WHEN jsonb_typeof(${d} -> ${lit(k)}) = 'object' THEN jsonb_set(${d}, ${pathLit([k])}, ${delPath(`(${d} -> ${lit(k)})`, rest)}) ELSE ${d} END)`
}

/** Is this jsonb (or NULL) missing or JSON null? */
export const isNullish = (v: string) => `(${v} IS NULL OR jsonb_typeof(${v}) = 'null')`

/**
 * The ORDER BY columns of one value, MongoDB's order across types: missing/null < numbers < strings
 * < objects < arrays < booleans. Numbers compare as numbers, strings by code point (COLLATE "C").
 * Objects and arrays are ordered by jsonb's own rule inside their bracket (MongoDB compares them
 * field by field / by their smallest element: decision 010).
 */
export function sortColumns(v: string, dir: 'ASC' | 'DESC'): string[] {
  return [
    `(CASE jsonb_typeof(${v}) WHEN 'number' THEN 2 WHEN 'string' THEN 3 WHEN 'object' THEN 4 WHEN 'array' THEN 5 WHEN 'boolean' THEN 6 ELSE 1 END) ${dir}`,
    `(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric END) ${dir}`,
    `(CASE WHEN jsonb_typeof(${v}) = 'string' THEN (${v} #>> '{}') COLLATE "C" END) ${dir}`,
    `(CASE WHEN jsonb_typeof(${v}) IN ('object', 'array', 'boolean') THEN ${v} END) ${dir}`,
  ]
}

/**
 * A value that stops the statement with a clear message when `cond` holds at run time (MongoDB
 * raises an error there too, e.g. $concat of a number). The text is cast to int, which fails with
 * SQLSTATE 22P02 naming it; it depends on the row, so the planner cannot fold it early.
 */
export const failWhen = (v: string, message: string) => `(('${message.replace(/'/g, '')}: ' || jsonb_typeof(${v}))::int)`

/** The document of a stored row as clients see it. */
export const rowDoc = (alias: string) =>
  `(${alias}.doc || jsonb_build_object('_id', ${alias}.id, 'cts', to_char(${alias}.cts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'ts', to_char(${alias}.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))`
