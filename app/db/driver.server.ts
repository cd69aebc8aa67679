/**
 * The one small query interface every part of Canopy uses. Two drivers implement it:
 * PGlite (embedded, default) and node-postgres (DATABASE_URL). Same SQL for both.
 */
import type { RunLocks } from './run-lock.server'

export interface QueryResult<T> {
  rows: T[]
  rowCount: number
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>
  /** Runs a script of several statements without parameters (DDL, migrations). */
  exec(sql: string): Promise<void>
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg'
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /** Runs fn while holding a session-level advisory lock (waits for it). */
  withAdvisoryLock<T>(key: number, fn: (conn: Queryable) => Promise<T>): Promise<T>
  /** "One run at a time" across every process on this database, never waiting (run-lock.server.ts; decision 069) */
  readonly runLocks: RunLocks
  /** Runs several read queries, concurrently where the driver can. */
  parallel<T extends unknown[]>(...qs: { [K in keyof T]: (q: Queryable) => Promise<T[K]> }): Promise<T>
  close(): Promise<void>
  /** PGlite only: its data folder as a gzipped tar, taken in one exclusive step (backups) */
  dumpDataDir?(): Promise<Blob>
}

/** A database error with its SQLSTATE, whichever driver raised it. */
export function sqlState(e: unknown): string | undefined {
  return (e as { code?: string })?.code
}
