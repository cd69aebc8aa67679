/**
 * compilePipeline: a MongoDB-style aggregation pipeline over one collection as ONE SQL statement.
 *
 *   WITH s0 AS (the organisation's documents), s1 AS (stage 1), …  SELECT d FROM sN ORDER BY n
 *
 * Every table read — the collection itself and any $lookup — carries `org = $1`, written here,
 * not taken from the pipeline, so no pipeline can reach another organisation's rows. Values are
 * bound parameters; names are checked (./limits.ts) before they reach SQL text. The statement
 * returns one row per output document, `d jsonb`, in order, at most `maxRows + 1` (the caller
 * refuses an answer that long). Decision 009 lists what is supported and what is refused.
 */
import { LIMITS, checkDepth, checkName, isPlainObject, refuse, show } from './limits'
import { compileMatch } from './match'
import { Params, lit, rowDoc } from './sql-parts'
import * as S from './stages'

export interface CompileOptions {
  /** the physical table of another collection of the organisation; throws for unknown ones */
  tableFor: (collection: string) => string
  /** the most documents (and facet entries) an answer may hold */
  maxRows: number
}

export interface CompiledPipeline {
  sql: string
  params: unknown[]
}

const REFUSED_STAGES = new Set(['$where', '$function', '$accumulator', '$out', '$merge', '$expr'])

export function compilePipeline(table: string, org: string, pipeline: unknown, opts: CompileOptions): CompiledPipeline {
  if (!Array.isArray(pipeline)) throw refuse('the pipeline must be an array of stages')
  checkDepth(pipeline)
  const p = new Params(org)
  const ctes: string[] = []
  const c: S.StageContext = {
    p,
    cte(sql) {
      const name = `s${ctes.length}`
      ctes.push(`${name} AS (${sql})`)
      return name
    },
    tableFor: opts.tableFor,
  }
  let stages = 0
  const run = (src: string, list: unknown[], inFacet: boolean): string => {
    let cur = src
    for (const stage of list) {
      if (++stages > LIMITS.stages) throw refuse(`the pipeline has more than ${LIMITS.stages} stages`)
      cur = c.cte(compileStage(cur, stage, c, inFacet, (s, l) => run(s, l, true), opts.maxRows))
    }
    return cur
  }
  // a facet holds at most maxRows + 1 documents (so an answer can be refused as too long); a stage
  // after it would see that cut silently, so $facet must come last
  const facetAt = pipeline.findIndex((st) => isPlainObject(st) && '$facet' in st)
  if (facetAt >= 0 && facetAt !== pipeline.length - 1) throw refuse('$facet must be the last stage')
  // leading $match stages on stored fields only: the same condition on the stored `doc` (which is
  // the document but for _id, cts and ts), evaluated in the table read before any document is built
  const baseWhere = [`t.org = ${p.org}`]
  let rest = pipeline
  while (rest.length && isPlainObject(rest[0]) && Object.keys(rest[0]).length === 1 && '$match' in rest[0] && storedOnly(rest[0].$match)) {
    if (++stages > LIMITS.stages) throw refuse(`the pipeline has more than ${LIMITS.stages} stages`)
    baseWhere.push(compileMatch(rest[0].$match, 't.doc', p))
    rest = rest.slice(1)
  }
  // NOT MATERIALIZED: each reader gets the table read inlined, so one that needs no document (a
  // count) builds none
  const base = `s${ctes.length}`
  ctes.push(`${base} AS NOT MATERIALIZED (SELECT t.id COLLATE "C" AS n, ${rowDoc('t')} AS d FROM ${table} t WHERE ${baseWhere.join(' AND ')})`)
  const last = sortedRead(rest) ?? run(base, rest, false)

  /**
   * A $sort right after the table read (and its pushed $match), on one top-level stored field k
   * (other keys may follow), when what reads it needs only its first m rows (a run of $skip/$limit,
   * or a $facet whose facets are such runs or a lone $count). MongoDB orders k across types; when
   * every row read holds a string in k — counted in one pass over the rows, `agg`, which also gives
   * $count its number without building documents — that order is the order of
   * `(doc ->> k) COLLATE "C"`, which a B-tree index on that expression can give: the first branch
   * reads m rows in that order (ties sorted by the later keys and _id order). Otherwise the second
   * branch sorts every row as the $sort stage would. Either way the m rows are then numbered in the
   * $sort stage's own order, so the answer is the one the full sort gives.
   */
  function sortedRead(list: unknown[]): string | null {
    const [st, next] = list
    if (!isPlainObject(st) || Object.keys(st).length !== 1 || !('$sort' in st)) return null
    const spec = st.$sort
    const cols = S.sortKeyColumns(spec, 'd') // refuses a bad spec as the stage would
    const keys = Object.entries(spec as Record<string, 1 | -1>)
    const [k0, d0] = keys[0]
    if (k0.includes('.') || COMPUTED_FIELDS.has(k0)) return null
    const facet = list.length === 2 && isPlainObject(next) && Object.keys(next).length === 1 && '$facet' in next
    const need = facet ? null : rowsNeeded(list.slice(1))
    if (!facet && need === null) return null
    if (++stages > LIMITS.stages) throw refuse(`the pipeline has more than ${LIMITS.stages} stages`)
    const k = lit(k0)
    const where = baseWhere.join(' AND ')
    let agg = ''
    const aggCte = () => (agg ||= c.cte(`SELECT count(*) AS total, count(*) FILTER (WHERE jsonb_typeof(t.doc -> ${k}) IS DISTINCT FROM 'string') AS other FROM ${table} t WHERE ${where}`))
    let full = ''
    const fullSort = () => (full ||= c.cte(`SELECT row_number() OVER (ORDER BY ${cols.join(', ')}, n) AS n, d FROM ${base}`))
    const heads = new Map<number, string>()
    const head = (m: number) => {
      if (!heads.has(m)) {
        const a = aggCte()
        const lim = p.int(m)
        const dir = d0 === 1 ? 'ASC' : 'DESC'
        const later = keys.length > 1 ? S.sortKeyColumns(Object.fromEntries(keys.slice(1)), 'x.d') : []
        const strings = `SELECT x.n, x.d FROM (SELECT t.id COLLATE "C" AS n, ${rowDoc('t')} AS d, (t.doc ->> ${k}) COLLATE "C" AS k FROM ${table} t
          WHERE ${where} AND jsonb_typeof(t.doc -> ${k}) = 'string' AND (SELECT other FROM ${a}) = 0) x ORDER BY x.k ${dir}, ${[...later, 'x.n'].join(', ')} LIMIT ${lim}`
        // the full sort, read only when a row holds no string in k: MATERIALIZED, so that the gate
        // sits above the whole read and PostgreSQL does not start parallel workers for a branch
        // that reads nothing (~10 ms a page)
        const sorted = `s${ctes.length}`
        ctes.push(`${sorted} AS MATERIALIZED (SELECT n, d FROM ${base} ORDER BY ${cols.join(', ')}, n LIMIT ${lim})`)
        const any = `SELECT n, d FROM ${sorted} WHERE (SELECT other FROM ${a}) <> 0`
        heads.set(m, c.cte(`SELECT row_number() OVER (ORDER BY ${cols.join(', ')}, n) AS n, d FROM ((${strings}) UNION ALL (${any})) h`))
      }
      return heads.get(m)!
    }
    const reader = (l: unknown[], inFacet: boolean) => {
      const m = rowsNeeded(l)
      return run(m === null ? fullSort() : head(m), l, inFacet)
    }
    if (!facet) return reader(list.slice(1), false)
    if (++stages > LIMITS.stages) throw refuse(`the pipeline has more than ${LIMITS.stages} stages`)
    return c.cte(
      compileStage('', next, c, false, (_src, l) => {
        const only = l.length === 1 && isPlainObject(l[0]) && Object.keys(l[0]).length === 1 && '$count' in l[0] ? l[0].$count : undefined
        if (only === undefined) return reader(l, true)
        if (++stages > LIMITS.stages) throw refuse(`the pipeline has more than ${LIMITS.stages} stages`)
        // $count of the sorted rows: their number, without sorting or building them
        return c.cte(`SELECT 1::bigint AS n, jsonb_build_object(${lit(checkName(only, '$count'))}, (SELECT total FROM ${aggCte()})) AS d`)
      }, opts.maxRows),
    )
  }

  const sql = `WITH ${ctes.join(',\n')}\nSELECT d FROM ${last} ORDER BY n LIMIT ${p.int(opts.maxRows + 1)}`
  if (sql.length > LIMITS.sqlLength) throw refuse('the pipeline is too complex; split it or simplify its expressions')
  return { sql, params: p.values }
}

function compileStage(src: string, stage: unknown, c: S.StageContext, inFacet: boolean, sub: (src: string, list: unknown[]) => string, maxRows: number): string {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1) throw refuse('each stage must be an object with exactly one key, like {"$match": {…}}')
  const [name, arg] = Object.entries(stage)[0]
  switch (name) {
    case '$match':
      return S.matchStage(src, arg, c)
    case '$sort':
      return S.sortStage(src, arg)
    case '$skip':
      return S.skipStage(src, arg, c)
    case '$limit':
      return S.limitStage(src, arg, c)
    case '$count':
      return S.countStage(src, arg)
    case '$project':
      return S.projectStage(src, arg, c)
    case '$addFields':
    case '$set':
      return S.addFieldsStage(src, arg, c, name)
    case '$group':
      return S.groupStage(src, arg, c)
    case '$unwind':
      return S.unwindStage(src, arg)
    case '$lookup':
      return S.lookupStage(src, arg, c)
    case '$facet': {
      if (inFacet) throw refuse('$facet: a $facet inside a $facet is not supported')
      if (!isPlainObject(arg) || !Object.keys(arg).length) throw refuse('$facet: expects an object of name: [stages]')
      if (Object.keys(arg).length > LIMITS.facets) throw refuse(`$facet: more than ${LIMITS.facets} facets`)
      const parts = Object.entries(arg).map(([k, list]) => {
        checkName(k, '$facet')
        if (!Array.isArray(list)) throw refuse(`$facet ${k}: expects an array of stages`)
        const out = sub(src, list)
        // at most maxRows + 1 per facet: the caller refuses longer answers
        return `'${k}', (SELECT coalesce(jsonb_agg(z.d ORDER BY z.n), '[]'::jsonb) FROM (SELECT n, d FROM ${out} ORDER BY n LIMIT ${c.p.int(maxRows + 1)}) z)`
      })
      return `SELECT 1::bigint AS n, jsonb_build_object(${parts.join(', ')}) AS d`
    }
    default:
      throw refuse(REFUSED_STAGES.has(name) ? `the stage ${name} is not allowed` : `the stage ${show(name)} is not supported`)
  }
}

const COMPUTED_FIELDS = new Set(['_id', 'cts', 'ts'])

/**
 * Does a $match query read only fields kept in the stored `doc` (not _id, cts, ts, which the row's
 * columns supply)? Malformed queries answer false: the ordinary stage compiles (and refuses) them.
 */
function storedOnly(q: unknown): boolean {
  if (!isPlainObject(q)) return false
  return Object.entries(q).every(([k, v]) => {
    if (k === '$and' || k === '$or' || k === '$nor') return Array.isArray(v) && v.every(storedOnly)
    if (k.startsWith('$')) return false
    return !COMPUTED_FIELDS.has(k.split('.')[0])
  })
}

/**
 * How many rows from the start a run of $skip/$limit stages at the head of `list` can reach (null
 * when it has no $limit, or an argument the stage itself would refuse).
 */
function rowsNeeded(list: unknown[]): number | null {
  let skipped = 0
  let cap = Infinity
  for (const st of list) {
    if (!isPlainObject(st) || Object.keys(st).length !== 1) break
    const v = '$skip' in st ? st.$skip : '$limit' in st ? st.$limit : undefined
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) break
    if ('$skip' in st && v >= 0) {
      skipped += v
      cap = Math.max(0, cap - v)
    } else if ('$limit' in st && v >= 1) cap = Math.min(cap, v)
    else break
  }
  const m = skipped + cap
  return Number.isSafeInteger(m) ? m : null
}
