/** Links from a dashboard's figure to the table screen that lists its records, in the table's own URL format (screens/table-url.ts). */
import { eqOf, listQueryToSearch, type ListQuery } from '../../screens/table-url'

export interface TableFilter {
  /** exact matches (a reference: the id) */
  eq?: Array<[string, string]>
  /** the date field and inclusive days */
  df?: string
  from?: string
  to?: string
  /** archived records count too */
  all?: boolean
}

export function tableLink(path: string, f: TableFilter = {}): string {
  const q: ListQuery = {}
  if (f.eq?.length) q.eq = eqOf(f.eq)
  if (f.df && (f.from || f.to)) {
    q.df = f.df
    if (f.from) q.from = f.from
    if (f.to) q.to = f.to
  }
  if (f.all) q.all = '1'
  return `${path}${listQueryToSearch(q)}`
}
