/** Shapes the data layer takes and returns (shared, no server imports). */

/** Who does a thing: passed to every write so the audit trail can say who and on whose behalf. */
export interface Actor {
  uid: string
  /** the original user when impersonating; same as uid otherwise */
  origUid?: string
  role?: string
  requestId?: string
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
  [field: string]: unknown
}

export interface PageQuery {
  offset: number
  limit: number
  sort?: { key: string; dir: 'asc' | 'desc' }
  search?: { key: string; text: string }
  range?: { key: string; from?: string; to?: string }
  /** only records whose IsUsed is not 'no' */
  activeOnly?: boolean
}

export interface Page {
  rows: Doc[]
  total: number
}

export interface ChangeEvent {
  org: string
  collection: string
  id: string
  action: 'insert' | 'update' | 'delete'
  uid: string
}
