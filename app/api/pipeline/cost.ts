/**
 * The cost limit of a pipeline on the embedded database (issue 20 item 1, decision 035).
 *
 * PGlite runs in this process's WebAssembly: a statement cannot be cancelled and, while it runs,
 * nothing else in the process runs (pages, /readyz, the MQTT broker). So on PGlite a pipeline is
 * priced BEFORE it runs, from the real sizes of the tables it reads, and refused when the price
 * is above the budget. The price is an upper bound of the work the compiled SQL does:
 * - every stage visits each of its input rows once (1 unit per row);
 * - a $lookup compares each input row with every row of the looked-up table (the compiled join is
 *   a correlated subquery: rows × size pairs, each ~10× the cost of a row visit on PGlite);
 * - an $unwind multiplies the rows by the longest array it can meet: a $lookup's table size, the
 *   longest stored array of that field, or LIMITS.inList for an array the pipeline computes;
 * - $limit caps the rows, $count gives one, $facet adds its sub-pipelines and gives one.
 * Measured on PGlite (2 cores, loaded): ~100 µs per $lookup pair, ~10 µs per row visit.
 */
import { AppError } from '../../utils/errors'
import { LIMITS, isPlainObject } from './limits'

/** A $lookup pair costs this many row visits. */
export const LOOKUP_PAIR = 10

export interface Sizes {
  /** documents of the organisation in the pipeline's table */
  base: number
  /** documents of the organisation in each looked-up table (by collection name) */
  tables: Map<string, number>
  /** the longest stored array of each top-level field of the base table (absent: not an array) */
  arrays: Map<string, number>
}

/** The top-level fields a stage assigns (their arrays are no longer the stored ones). */
function assigned(name: string, spec: unknown): string[] {
  if (!isPlainObject(spec)) return []
  if (['$set', '$addFields', '$project', '$group'].includes(name)) return Object.keys(spec).map((k) => k.split('.')[0])
  return []
}

/** The price of `pipeline` in row visits, given the sizes it reads. */
export function pipelineCost(pipeline: unknown[], sizes: Sizes): number {
  return walk(pipeline, sizes.base, sizes, new Map(), new Set()).cost
}

function walk(list: unknown[], rows0: number, sizes: Sizes, lookups: Map<string, number>, computed: Set<string>): { rows: number; cost: number } {
  let rows = rows0
  let cost = 0
  for (const stage of list) {
    if (!isPlainObject(stage)) continue
    const [name, spec] = Object.entries(stage)[0] ?? []
    cost += rows
    switch (name) {
      case '$limit':
        rows = Math.min(rows, typeof spec === 'number' && spec >= 0 ? spec : rows)
        break
      case '$count':
        rows = 1
        break
      case '$lookup': {
        const from = isPlainObject(spec) && typeof spec.from === 'string' ? spec.from : ''
        const size = sizes.tables.get(from) ?? 0
        cost += rows * size * LOOKUP_PAIR
        if (isPlainObject(spec) && typeof spec.as === 'string') {
          lookups.set(spec.as, size)
          computed.delete(spec.as)
        }
        break
      }
      case '$unwind': {
        const path = typeof spec === 'string' ? spec : isPlainObject(spec) && typeof spec.path === 'string' ? spec.path : ''
        const top = path.replace(/^\$/, '').split('.')[0]
        const longest = lookups.has(top) ? lookups.get(top)! : computed.has(top) ? LIMITS.inList : (sizes.arrays.get(top) ?? 1)
        rows *= Math.max(1, longest)
        break
      }
      case '$facet': {
        if (isPlainObject(spec)) for (const sub of Object.values(spec)) if (Array.isArray(sub)) cost += walk(sub, rows, sizes, new Map(lookups), new Set(computed)).cost
        rows = 1
        break
      }
      default:
        break
    }
    for (const f of assigned(name ?? '', spec)) {
      computed.add(f)
      lookups.delete(f)
    }
  }
  return { rows, cost: cost + rows }
}

/** The 400 of a pipeline priced over the budget: says what to change. */
export function tooCostly(cost: number, budget: number): AppError {
  return new AppError(
    'BAD_INPUT',
    `the pipeline would take too long on this server's embedded database (estimated ${Math.round(cost).toLocaleString('en-US')} row visits; at most ${budget.toLocaleString('en-US')}) and was not run; narrow it with $match or $limit before $lookup and $unwind`,
  )
}

/** The collections a pipeline's $lookup stages read (inside $facet too), the names they give, and the top-level fields it $unwinds. */
export function pipelineReads(v: unknown, out = { froms: new Set<string>(), unwinds: new Set<string>(), lookedUpAs: new Set<string>() }, depth = 0) {
  if (depth > 20 || !v || typeof v !== 'object') return out
  if (Array.isArray(v)) {
    for (const x of v) pipelineReads(x, out, depth + 1)
    return out
  }
  for (const [k, x] of Object.entries(v)) {
    if (k === '$lookup' && isPlainObject(x) && typeof x.from === 'string') {
      out.froms.add(x.from)
      if (typeof x.as === 'string') out.lookedUpAs.add(x.as)
    }
    else if (k === '$unwind') {
      const path = typeof x === 'string' ? x : isPlainObject(x) && typeof x.path === 'string' ? x.path : ''
      if (path.startsWith('$')) out.unwinds.add(path.slice(1).split('.')[0])
    } else pipelineReads(x, out, depth + 1)
  }
  return out
}
