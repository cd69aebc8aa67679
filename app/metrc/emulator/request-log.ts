/**
 * Every request the emulator answered (issue 9): method, path, query, license, status, time and, for a
 * write, its rows and body — so tests count requests and check that a write arrived exactly once.
 */
export interface LoggedRequest {
  method: string
  path: string
  /** the query string (lastModified windows, paging) */
  query: string
  license: string | null
  status: number
  /** when it arrived (ms since the epoch) */
  at: number
  /** how long the answer took */
  ms?: number
  /** rows of a write body */
  rows?: number
  body?: unknown
}

export class RequestLog {
  readonly entries: LoggedRequest[] = []
  constructor(private readonly max = 200_000) {}

  add(e: LoggedRequest) {
    this.entries.push(e)
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max)
    return e
  }

  /** empties the log in place (the array handed out stays the same object) */
  clear() {
    this.entries.length = 0
  }
}
