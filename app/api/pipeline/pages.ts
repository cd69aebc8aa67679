/**
 * The table-page shape of SPEC §7: a pipeline ending in
 *   {$facet: {data: [..., {$skip}, {$limit: L}], total: [{$count: 'count'}]}}
 * answers [{data, total: [{count}], pages}]. Our reading: pages = ceil(count / L), where L is the
 * last $limit of the facet that has one (the `data` facet when there are several) and count is
 * the value of the facet that is exactly one $count stage. No pages when either is absent.
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
  return [{ ...first, pages: Math.ceil(count / limit) }, ...out.slice(1)]
}
