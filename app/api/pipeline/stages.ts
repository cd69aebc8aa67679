/**
 * One SELECT per stage. Each reads the previous stage's rows `(n, d)` — `n` orders them, `d` is the
 * document — and yields rows of the same shape. Order is always defined: stored documents come in
 * `_id` order, $sort is stable (ties keep the order they came in), $unwind keeps an array's
 * order, $group yields groups in order of their first document.
 */
import { compileExpr, isComputed } from './expressions'
import { LIMITS, checkName, isPlainObject, operatorOf, pathSegments, refuse, show } from './limits'
import { compileMatch } from './match'
import { delPath, getPath, isNullish, jsonPath, lit, rowDoc, setPath, sortColumns, type Params } from './sql-parts'

export interface StageContext {
  p: Params
  /** adds a CTE and returns its name */
  cte(sql: string): string
  /** the physical table of another collection of the organisation (refuses unknown ones) */
  tableFor(collection: string): string
}

export const matchStage = (src: string, q: unknown, c: StageContext) => `SELECT n, d FROM ${src} WHERE ${compileMatch(q, 'd', c.p)}`

export function sortStage(src: string, spec: unknown): string {
  return `SELECT row_number() OVER (ORDER BY ${sortKeyColumns(spec, 'd').join(', ')}, n) AS n, d FROM ${src}`
}

/** The ORDER BY columns of a $sort spec over the document `d` (refuses a bad spec). */
export function sortKeyColumns(spec: unknown, d: string): string[] {
  if (!isPlainObject(spec) || !Object.keys(spec).length) throw refuse('$sort: expects an object of field: 1 or -1')
  if (Object.keys(spec).length > LIMITS.sortKeys) throw refuse(`$sort: more than ${LIMITS.sortKeys} keys`)
  const cols: string[] = []
  for (const [k, dir] of Object.entries(spec)) {
    const segs = pathSegments(k, '$sort')
    if (dir !== 1 && dir !== -1) throw refuse(`$sort: ${show(k)} must be 1 or -1`)
    cols.push(...sortColumns(getPath(d, segs), dir === 1 ? 'ASC' : 'DESC'))
  }
  return cols
}

function count(v: unknown, stage: string, min: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw refuse(`${stage}: expects a whole number of at least ${min}`)
  return v
}

export const skipStage = (src: string, v: unknown, c: StageContext) => `SELECT n, d FROM ${src} ORDER BY n OFFSET ${c.p.int(count(v, '$skip', 0))}`
export const limitStage = (src: string, v: unknown, c: StageContext) => `SELECT n, d FROM ${src} ORDER BY n LIMIT ${c.p.int(count(v, '$limit', 1))}`

/** $count: one document with the number of input documents (0 too: decision 010). */
export const countStage = (src: string, name: unknown) => `SELECT 1::bigint AS n, jsonb_build_object(${lit(checkName(name, '$count'))}, (SELECT count(*) FROM ${src})) AS d`

export function addFieldsStage(src: string, spec: unknown, c: StageContext, stage: string): string {
  if (!isPlainObject(spec) || !Object.keys(spec).length) throw refuse(`${stage}: expects an object of field: expression`)
  const seen: string[][] = []
  const steps: Array<[string[], string]> = []
  for (const [k, e] of Object.entries(spec)) {
    const segs = pathSegments(k, stage)
    collide(seen, segs, stage)
    if (isPlainObject(e) && !operatorOf(e)) throw refuse(`${stage}: ${k}: nested objects are not supported (use dotted names)`)
    steps.push([segs, compileExpr(e, 's.d', c.p, `${stage} ${k}`)])
  }
  return fenced(src, 's.d', steps)
}

/**
 * Sets computed values one after another. Each value and each intermediate document is its own
 * LATERAL subquery with OFFSET 0 (which the planner does not flatten), so a later step refers to
 * it by name instead of repeating its expression: the SQL grows linearly with the stages, never
 * exponentially (a path is read several times by `setPath`).
 */
function fenced(src: string, start: string, steps: Array<[string[], string]>, neverNull = false): string {
  const joins: string[] = []
  let cur = start
  steps.forEach(([segs, v], i) => {
    joins.push(`CROSS JOIN LATERAL (SELECT ${v} AS v OFFSET 0) AS v${i}`)
    joins.push(`CROSS JOIN LATERAL (SELECT ${setPath(cur, segs, `v${i}.v`, neverNull)} AS d OFFSET 0) AS x${i}`)
    cur = `x${i}.d`
  })
  return `SELECT s.n, ${cur} AS d FROM ${src} s ${joins.join(' ')}`
}

/** MongoDB refuses a path and its own parent in one stage ("path collision"). */
function collide(seen: string[][], segs: string[], stage: string) {
  for (const s of seen) {
    const n = Math.min(s.length, segs.length)
    if (s.slice(0, n).join('.') === segs.slice(0, n).join('.')) throw refuse(`${stage}: ${segs.join('.')} collides with ${s.join('.')}`)
  }
  seen.push(segs)
}

type Tree = Map<string, Tree | true>

export function projectStage(src: string, spec: unknown, c: StageContext): string {
  if (!isPlainObject(spec) || !Object.keys(spec).length) throw refuse('$project: expects an object of field: 1, 0 or an expression')
  const include: string[][] = []
  const exclude: string[][] = []
  const computed: Array<[string[], unknown]> = []
  let idOff = false
  const seen: string[][] = []
  for (const [k, v] of Object.entries(spec)) {
    const segs = pathSegments(k, '$project')
    collide(seen, segs, '$project')
    if (isComputed(v)) computed.push([segs, v])
    else if (v === 1 || v === true) include.push(segs)
    else if (v === 0 || v === false) {
      if (k === '_id') idOff = true
      else exclude.push(segs)
    } else throw refuse(`$project: ${k}: expects 1, 0, a field reference or an expression`)
  }
  if (exclude.length && (include.length || computed.length)) throw refuse('$project: cannot mix excluding fields with including or computing them (only _id: 0 may be mixed)')
  if (exclude.length || (!include.length && !computed.length)) {
    let out = 'd'
    for (const segs of idOff ? [...exclude, ['_id']] : exclude) out = delPath(out, segs)
    return `SELECT n, ${out} AS d FROM ${src}`
  }
  const tree: Tree = new Map()
  for (const segs of idOff ? include : [['_id'], ...include.filter((s) => s.join('.') !== '_id')]) {
    let t = tree
    segs.forEach((s, i) => {
      if (i === segs.length - 1) t.set(s, true)
      else {
        if (!(t.get(s) instanceof Map)) t.set(s, new Map())
        t = t.get(s) as Tree
      }
    })
  }
  // computed values read the input document (o), and land in the picked one (d)
  const steps = computed.map(([segs, e]): [string[], string] => [segs, compileExpr(e, 's.o', c.p, `$project ${segs.join('.')}`)])
  return fenced(`(SELECT s.n, s.d AS o, ${pick('s.d', tree)} AS d FROM ${src} s OFFSET 0)`, 's.d', steps)
}

/**
 * The included parts of an object: a leaf if present; a subtree where the value is an object, or
 * in each object of an array (other elements are dropped, as MongoDB does); nothing otherwise.
 */
function pick(src: string, tree: Tree, depth = 0): string {
  const parts = [...tree].map(([k, sub]) => {
    const v = `(${src} -> ${lit(k)})`
    if (sub === true) return `(CASE WHEN ${v} IS NULL THEN '{}'::jsonb ELSE jsonb_build_object(${lit(k)}, ${v}) END)`
    const e = `e${depth}`
    const each = `coalesce((SELECT jsonb_agg(${pick(`${e}.x`, sub, depth + 1)} ORDER BY ${e}.i) FROM jsonb_array_elements(${v}) WITH ORDINALITY AS ${e}(x, i) WHERE jsonb_typeof(${e}.x) = 'object'), '[]'::jsonb)`
    return `(CASE jsonb_typeof(${v}) WHEN 'object' THEN jsonb_build_object(${lit(k)}, ${pick(v, sub, depth + 1)}) WHEN 'array' THEN jsonb_build_object(${lit(k)}, ${each}) ELSE '{}'::jsonb END)`
  })
  return `('{}'::jsonb || ${parts.join(' || ')})`
}

const ACCUMULATORS = new Set(['$sum', '$avg', '$min', '$max', '$count'])

export function groupStage(src: string, spec: unknown, c: StageContext): string {
  if (!isPlainObject(spec) || !('_id' in spec)) throw refuse('$group: expects an object with _id')
  const key = groupKey(spec._id, c)
  const inner: string[] = [`${key} AS k`]
  const outs: string[] = [`'_id', k`]
  let i = 0
  for (const [name, acc] of Object.entries(spec)) {
    if (name === '_id') continue
    checkName(name, '$group')
    const op = operatorOf(acc)
    if (!op || !ACCUMULATORS.has(op)) throw refuse(`$group ${name}: ${op ? `the accumulator ${show(op)} is not supported` : 'expects {$sum|$avg|$min|$max|$count: …}'}`)
    const arg = (acc as Record<string, unknown>)[op]
    const a = `a${i++}`
    let agg: string
    if (op === '$count') {
      if (!isPlainObject(arg) || Object.keys(arg).length) throw refuse(`$group ${name} $count: expects {}`)
      agg = `to_jsonb(count(*))`
    } else {
      inner.push(`${compileExpr(arg, 'd', c.p, `$group ${name} ${op}`)} AS ${a}`)
      const num = `(CASE WHEN jsonb_typeof(${a}) = 'number' THEN (${a})::float8 END)`
      if (op === '$sum') agg = `to_jsonb(coalesce(sum(${num}), 0))` // non-numbers are ignored
      else if (op === '$avg') agg = `coalesce(to_jsonb(avg(${num})), 'null'::jsonb)`
      else {
        // the smallest / largest value in MongoDB's order across types; null and missing are ignored
        const cols = sortColumns(a, op === '$min' ? 'ASC' : 'DESC')
        agg = `coalesce((array_agg(${a} ORDER BY ${cols.join(', ')}, n) FILTER (WHERE NOT ${isNullish(a)}))[1], 'null'::jsonb)`
      }
    }
    outs.push(`${lit(name)}, ${agg}`)
  }
  return `SELECT row_number() OVER (ORDER BY min(n)) AS n, jsonb_build_object(${outs.join(', ')}) AS d FROM (SELECT n, ${inner.join(', ')} FROM ${src}) g GROUP BY k`
}

/** _id: null, a constant, an expression (missing → null), or an object of expressions (missing ones left out). */
function groupKey(id: unknown, c: StageContext): string {
  if (isPlainObject(id) && !operatorOf(id)) {
    const keys = Object.entries(id)
    if (!keys.length) return `'{}'::jsonb`
    return `(${keys
      .map(([k, e]) => {
        const v = compileExpr(e, 'd', c.p, `$group _id.${checkName(k, '$group _id')}`)
        return `(CASE WHEN ${v} IS NULL THEN '{}'::jsonb ELSE jsonb_build_object(${lit(k)}, ${v}) END)`
      })
      .join(' || ')})`
  }
  return `coalesce(${compileExpr(id, 'd', c.p, '$group _id')}, 'null'::jsonb)`
}

export function unwindStage(src: string, spec: unknown): string {
  const o = typeof spec === 'string' ? { path: spec } : spec
  if (!isPlainObject(o) || typeof o.path !== 'string' || !o.path.startsWith('$')) throw refuse('$unwind: expects "$field" or {path: "$field", preserveNullAndEmptyArrays}')
  for (const k of Object.keys(o)) if (k !== 'path' && k !== 'preserveNullAndEmptyArrays') throw refuse(`$unwind: the option ${show(k)} is not supported`)
  const keep = o.preserveNullAndEmptyArrays ?? false
  if (typeof keep !== 'boolean') throw refuse('$unwind: preserveNullAndEmptyArrays must be true or false')
  const segs = pathSegments(o.path.slice(1), '$unwind')
  const v = getPath('s.d', segs)
  const rows = [
    // each element of an array in its place
    `SELECT e.i, ${setPath('s.d', segs, 'e.x', true)} AS d FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${v}) = 'array' THEN ${v} END) WITH ORDINALITY AS e(x, i)`,
    // a value that is not an array stands for a one-element array
    `SELECT 0, s.d WHERE jsonb_typeof(${v}) NOT IN ('array', 'null')`,
  ]
  if (keep) {
    rows.push(`SELECT 0, s.d WHERE ${isNullish(v)}`)
    rows.push(`SELECT 0, ${delPath('s.d', segs)} WHERE ${v} = '[]'::jsonb`)
  }
  return `SELECT row_number() OVER (ORDER BY s.n, u.i) AS n, u.d FROM ${src} s CROSS JOIN LATERAL (${rows.join(' UNION ALL ')}) AS u(i, d)`
}

/**
 * $lookup {from, localField, foreignField, as}: the documents of another collection of the SAME
 * organisation (its rows are read with org = $1 like the base table) whose foreignField equals the
 * localField — either side may be an array (any element), and a missing or null local value
 * matches a missing or null foreign one.
 */
export function lookupStage(src: string, spec: unknown, c: StageContext): string {
  if (!isPlainObject(spec)) throw refuse('$lookup: expects {from, localField, foreignField, as}')
  for (const k of Object.keys(spec)) if (!['from', 'localField', 'foreignField', 'as'].includes(k)) throw refuse(`$lookup: the option ${show(k)} is not supported (only from, localField, foreignField, as)`)
  if (typeof spec.from !== 'string') throw refuse('$lookup: from must be a collection name')
  const table = c.tableFor(spec.from)
  const local = pathSegments(spec.localField, '$lookup localField')
  const foreign = pathSegments(spec.foreignField, '$lookup foreignField')
  // a plain name: where a dotted `as` would land differs between implementations
  const as = [checkName(spec.as, '$lookup as')]
  const f = c.cte(`SELECT t.id COLLATE "C" AS n, ${rowDoc('t')} AS d FROM ${table} t WHERE t.org = ${c.p.org}`)
  const values = (d: string, segs: string[]) =>
    `(SELECT v FROM jsonb_path_query(${d}, ${jsonPath(segs, true)}) AS c(v) UNION ALL SELECT 'null'::jsonb WHERE NOT jsonb_path_exists(${d}, ${jsonPath(segs, false)}))`
  const joined = `(SELECT coalesce(jsonb_agg(f.d ORDER BY f.n), '[]'::jsonb) FROM ${f} f WHERE EXISTS (SELECT 1 FROM ${values('s.d', local)} AS l(v), ${values('f.d', foreign)} AS r(v) WHERE l.v = r.v))`
  return fenced(src, 's.d', [[as, joined]], true)
}
