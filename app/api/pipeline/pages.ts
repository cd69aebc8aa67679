/**
 * The table-page shape of SPEC §7: a pipeline ending in
 *   {$facet: {data: [..., {$skip}, {$limit: L}], total: [{$count: 'count'}]}}
 * answers [{data, total: [{count}], pages}]. Our reading: pages = ceil(count / L), where L is the
 * last $limit of the facet that has one (the `data` facet when there are several) and count is
 * the value of the facet that is exactly one $count stage. No pages when either is absent.
 * A caller's facet is never overwritten: when the pipeline names a facet `pages` itself (SPEC §7's
 * own table-page pipeline names its row facet so), the count goes under `pageCount` (or the first of
 * `pageCount2`, `pageCount3`, … the caller did not use).
 */
import { isPlainObject } from './limits'

export function withPages(pipeline: unknown[], out: unknown[]): unknown[] {
  const last = pipeline[pipeline.length - 1]
  const first = out[0]
  if (!isPlainObject(last) || !isPlainObject(last.$facet) || !isPlainObject(first)) return out
  const facets = Object.entries(last.$facet).filter(([, l]) => Array.isArray(l)) as Array<[string, unknown[]]>
  const limitOf = (l: unknown[]) => [...l].reverse().find((s) => isPlainObject(s) && typeof s.$limit === 'number') as { $limit: number } | undefined
  const withLimit = facets.find(([k, l]) => k === 'data' && limitOf(l)) ?? facets.find(([, l]) => limitOf(l))
  const counter = facets.find(([, l]) => l.length === 1 && isPlainObject(l[0]) && typeof l[0].$count === 'string')
  if (!withLimit || !counter) return out
  const limit = limitOf(withLimit[1])!.$limit
  const totals = first[counter[0]]
  const count = Array.isArray(totals) && isPlainObject(totals[0]) ? Number(totals[0][(counter[1][0] as { $count: string }).$count]) : 0
  return [{ ...first, [pageCountKey(Object.keys(last.$facet))]: Math.ceil(count / limit) }, ...out.slice(1)]
}

/** `pages` unless the caller named a facet so; then a name none of its facets uses. */
export function pageCountKey(used: string[]): string {
  const taken = new Set(used)
  if (!taken.has('pages')) return 'pages'
  if (!taken.has('pageCount')) return 'pageCount'
  let n = 2
  while (taken.has(`pageCount${n}`)) n++
  return `pageCount${n}`
}
