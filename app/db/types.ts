/** Shapes the data layer takes and returns (shared, no server imports). */

/** Who does a thing: passed to every write so the audit trail can say who and on whose behalf. */
export interface Actor {
  uid: string
  /** the original user when impersonating; same as uid otherwise */
  origUid?: string
  role?: string
  requestId?: string
  /**
   * The browser session a form post came from (a hash, never the cookie's value): that session's
   * pages do not get the `table` event of their own write (decision 015). Unset for the API and jobs.
   */
  session?: string
}

/** A stored document as clients see it (SPEC §3 generic record). */
export interface Doc {
  _id: string
  cts: string
  ts: string
  octs?: string
  IsUsed?: string
  ed?: string
  delete?: string
  /** labels of referenced records, by column key (page queries with `refs`) */
  _labels?: Record<string, string | null>
  [field: string]: unknown
}

/** Where a page starts or ends: the sort value (as text, null when missing) and id of a row (decision 008). */
export interface Cursor {
  v: string | null
  id: string
}

export interface PageQuery {
  /** rows to skip; with a cursor, rows to skip after it (normally 0) */
  offset: number
  limit: number
  sort?: { key: string; dir: 'asc' | 'desc' }
  search?: { key: string; text: string }
  /** fields that must equal these values exactly (a reference field: the referenced id) */
  equals?: Array<{ key: string; value: string }>
  range?: { key: string; from?: string; to?: string }
  /** only records whose IsUsed is not 'no' */
  activeOnly?: boolean
  /**
   * Columns that hold the id of a record in another table (format `id:<table>:<field>`): the
   * referenced record's label comes back in the same query (`Doc._labels`), and sorting or
   * searching on such a column uses the label the user sees.
   */
  refs?: RefColumn[]
  /**
   * Count exactly up to this many matches; past it the total is the planner's estimate and
   * `Page.exact` is false (decision 007). Without it the count is always exact (the API's promise).
   */
  countCap?: number
  /** the page starts after this row (Next) */
  after?: Cursor
  /** the page ends before this row (Previous); ignored when `after` is given */
  before?: Cursor
}

export interface RefColumn {
  key: string
  collection: string
  labelField: string
  /** organisation the referenced table belongs to (the platform's for platform tables) */
  org: string
}

export interface Page {
  rows: Doc[]
  total: number
  /** false when `total` is an estimate (more matches than `countCap`) */
  exact: boolean
  /** the first and last rows' positions, for Previous and Next links */
  first?: Cursor
  last?: Cursor
}

export interface ChangeEvent {
  org: string
  collection: string
  id: string
  action: 'insert' | 'update' | 'delete'
  uid: string
  /** the writer's browser session (Actor.session), when the write came from a form */
  session?: string
}
