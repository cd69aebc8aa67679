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
import { Params, rowDoc } from './sql-parts'
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
  const where = [`t.org = ${p.org}`]
  let rest = pipeline
  while (rest.length && isPlainObject(rest[0]) && Object.keys(rest[0]).length === 1 && '$match' in rest[0] && storedOnly(rest[0].$match)) {
    if (++stages > LIMITS.stages) throw refuse(`the pipeline has more than ${LIMITS.stages} stages`)
    where.push(compileMatch(rest[0].$match, 't.doc', p))
    rest = rest.slice(1)
  }
  // NOT MATERIALIZED: each reader gets the table read inlined, so one that needs no document (a
  // count) builds none
  const base = `s${ctes.length}`
  ctes.push(`${base} AS NOT MATERIALIZED (SELECT t.id COLLATE "C" AS n, ${rowDoc('t')} AS d FROM ${table} t WHERE ${where.join(' AND ')})`)
  const last = run(base, rest, false)
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
