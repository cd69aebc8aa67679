/**
 * Aggregation expressions ($addFields/$set, computed $project fields, $group keys and
 * accumulator arguments), a deliberately small set: field references `$a.b`, literals and
 * `$literal`, `$concat`, `$add/$subtract/$multiply/$divide`, `$toLower/$toUpper`, `$ifNull`.
 * The result is a jsonb SQL expression, NULL when the value is missing.
 *
 * MongoDB raises an error where an argument has the wrong type ($concat of a number, $add of a
 * string, division by zero); so does the SQL (SQLSTATE 22P02 / 22012 → 400).
 * Arithmetic is in double precision, as MongoDB's doubles are.
 */
import { LIMITS, isPlainObject, isScalar, operatorOf, pathSegments, refuse, show } from './limits'
import { failWhen, getPath, isNullish, type Params } from './sql-parts'

/** `depth`: operators around this one; an argument is read up to three times, so nesting is capped. */
export function compileExpr(e: unknown, d: string, p: Params, where: string, depth = 0): string {
  if (typeof e === 'string') {
    if (e.startsWith('$$')) throw refuse(`${where}: variables like ${show(e)} are not supported`)
    if (e.startsWith('$')) return getPath(d, pathSegments(e.slice(1), where))
    return p.json(e)
  }
  if (isScalar(e)) return p.json(e)
  const op = operatorOf(e)
  if (!op) throw refuse(`${where}: expects a field reference, a literal or one expression operator`)
  if (depth >= LIMITS.exprDepth) throw refuse(`${where}: expressions nest more than ${LIMITS.exprDepth} operators deep`)
  const arg = (e as Record<string, unknown>)[op]
  const args = (n?: number) => {
    const list = Array.isArray(arg) ? arg : [arg]
    if ((n !== undefined && list.length !== n) || !list.length) throw refuse(`${where} ${op}: expects ${n ?? 'one or more'} argument${n === 1 ? '' : 's'}`)
    return list.map((a) => compileExpr(a, d, p, `${where} ${op}`, depth + 1))
  }
  switch (op) {
    case '$literal':
      if (!isScalar(arg)) throw refuse(`${where} $literal: expects a number, string, boolean or null`)
      return p.json(arg)
    case '$concat': {
      const list = args()
      const parts = list.map((a) => `(CASE WHEN jsonb_typeof(${a}) = 'string' THEN ${a} #>> '{}' ELSE ${failWhen(a, '$concat needs strings, got')}::text END)`)
      return anyNull(list, `to_jsonb(${parts.join(' || ')})`)
    }
    case '$add':
    case '$multiply':
    case '$subtract':
    case '$divide': {
      const list = args(op === '$add' || op === '$multiply' ? undefined : 2)
      const nums = list.map((a) => `(CASE WHEN jsonb_typeof(${a}) = 'number' THEN (${a})::float8 ELSE ${failWhen(a, `${op} needs numbers, got`)}::float8 END)`)
      const sign = { $add: ' + ', $multiply: ' * ', $subtract: ' - ', $divide: ' / ' }[op]
      return anyNull(list, `to_jsonb(${nums.join(sign)})`)
    }
    case '$toLower':
    case '$toUpper': {
      const [a] = args(1)
      // MongoDB: null or missing gives "", and only ASCII letters change (lower/upper in the C collation)
      const fn = op === '$toLower' ? 'lower' : 'upper'
      return `(CASE WHEN ${isNullish(a)} THEN '""'::jsonb WHEN jsonb_typeof(${a}) = 'string' THEN to_jsonb(${fn}((${a} #>> '{}') COLLATE "C")) ELSE to_jsonb(${failWhen(a, `${op} needs a string, got`)}) END)`
    }
    case '$ifNull': {
      const [a, b] = args(2)
      return `(CASE WHEN ${isNullish(a)} THEN ${b} ELSE ${a} END)`
    }
    default:
      throw refuse(`${where}: the expression operator ${show(op)} is not supported`)
  }
}

/**
 * null when any argument is null or missing, checked before any type: MongoDB's own order depends on
 * the argument positions ([a string, a missing field] is an error there, null in mingo); answering
 * null for both is the reading we picked (decision 010).
 */
const anyNull = (args: string[], value: string) => `(CASE WHEN ${args.map(isNullish).join(' OR ')} THEN 'null'::jsonb ELSE ${value} END)`

/** Is this a value $project reads as "compute" (a reference, an operator or $literal) rather than 1/0? */
export const isComputed = (v: unknown) => (typeof v === 'string' && v.startsWith('$')) || (isPlainObject(v) && operatorOf(v) !== undefined)
