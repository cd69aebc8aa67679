/**
 * Limits and input checks of the pipeline compiler: how big a pipeline may be, what a field path
 * is, how deep a value may nest. Everything a pipeline names ends up in SQL text only after
 * passing these checks; values never do (they are bound parameters).
 */
import { AppError } from '../../utils/errors'

export const LIMITS = {
  /** stages in the whole pipeline, $facet sub-pipelines included */
  stages: 40,
  /** nesting of any value inside the pipeline */
  depth: 12,
  /** segments of a dotted field path, and its length */
  pathSegments: 6,
  /** operators inside operators in one expression ({$add: [{$ifNull: …}]} is 2) */
  exprDepth: 4,
  /** characters of the compiled SQL: a last guard against a pipeline that compiles into a monster */
  sqlLength: 400_000,
  pathLength: 200,
  /** elements of an $in/$nin list, keys of a $sort, facets of a $facet */
  inList: 1000,
  sortKeys: 16,
  facets: 10,
  /** characters of a $regex pattern */
  regex: 200,
} as const

/** A plain field path: letters, digits and underscores, dotted (also _id, cts, ts). */
export const PATH_RE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/
/** A name a stage creates at the top level ($count, $facet, accumulators): one segment. */
export const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/

export const refuse = (message: string) => new AppError('BAD_INPUT', message)

const show = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s)

/** The segments of a field path, or a 400 naming where it was used. */
export function pathSegments(path: unknown, where: string): string[] {
  if (typeof path !== 'string' || path.length > LIMITS.pathLength || !PATH_RE.test(path)) {
    throw refuse(`${where}: ${typeof path === 'string' ? show(path) : typeof path} is not a plain field path (letters, digits, _ and dots)`)
  }
  const segs = path.split('.')
  if (segs.length > LIMITS.pathSegments) throw refuse(`${where}: ${show(path)} has more than ${LIMITS.pathSegments} parts`)
  return segs
}

export function checkName(name: unknown, where: string): string {
  if (typeof name !== 'string' || name.length > 64 || !NAME_RE.test(name)) {
    throw refuse(`${where}: ${typeof name === 'string' ? show(name) : typeof name} is not a plain field name`)
  }
  return name
}

/** Refuses values nested deeper than LIMITS.depth (before anything else looks at them). */
export function checkDepth(v: unknown, depth = 0): void {
  if (depth > LIMITS.depth) throw refuse(`the pipeline nests values more than ${LIMITS.depth} levels deep`)
  if (Array.isArray(v)) for (const x of v) checkDepth(x, depth + 1)
  else if (v && typeof v === 'object') for (const x of Object.values(v)) checkDepth(x, depth + 1)
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** A JSON scalar a comparison may take: number, string, boolean or null. */
export const isScalar = (v: unknown): v is number | string | boolean | null =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))

/** The one operator key of an operator object like {$add: [...]}, or undefined. */
export function operatorOf(v: unknown): string | undefined {
  if (!isPlainObject(v)) return undefined
  const keys = Object.keys(v)
  return keys.length === 1 && keys[0].startsWith('$') ? keys[0] : undefined
}

export { show }
