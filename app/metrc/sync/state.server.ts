/** The sync state of each (organisation, Metrc collection): private table `metrc_sync_state` (migration 006). */
import type { Database } from '../../db/index.server'

export interface SyncState {
  collection: string
  status: 'idle' | 'running' | 'ok' | 'error'
  startedAt: string | null
  finishedAt: string | null
  okAt: string | null
  highWater: string | null
  rowsSeen: number
  rowsChanged: number
  requests: number
  error: string | null
  errorSince: string | null
}

type Row = { collection: string; status: SyncState['status']; started_at: Date | string | null; finished_at: Date | string | null; ok_at: Date | string | null; high_water: Date | string | null; rows_seen: number; rows_changed: number; requests: number; error: string | null; error_since: Date | string | null }
const iso = (v: Date | string | null) => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString())
const toState = (r: Row): SyncState => ({ collection: r.collection, status: r.status, startedAt: iso(r.started_at), finishedAt: iso(r.finished_at), okAt: iso(r.ok_at), highWater: iso(r.high_water), rowsSeen: r.rows_seen, rowsChanged: r.rows_changed, requests: r.requests, error: r.error, errorSince: iso(r.error_since) })

export async function syncStates(database: Database, org: string): Promise<Map<string, SyncState>> {
  const r = await database.db.query<Row>('SELECT * FROM metrc_sync_state WHERE org = $1', [org])
  return new Map(r.rows.map((x) => [x.collection, toState(x)]))
}

export async function syncState(database: Database, org: string, collection: string): Promise<SyncState | null> {
  const r = await database.db.query<Row>('SELECT * FROM metrc_sync_state WHERE org = $1 AND collection = $2', [org, collection])
  return r.rows[0] ? toState(r.rows[0]) : null
}

export async function markStarted(database: Database, org: string, collection: string): Promise<void> {
  await database.db.query(
    `INSERT INTO metrc_sync_state (org, collection, status, started_at) VALUES ($1, $2, 'running', now())
     ON CONFLICT (org, collection) DO UPDATE SET status = 'running', started_at = now()`,
    [org, collection],
  )
}

export async function markDone(database: Database, org: string, collection: string, r: { highWater: Date | null; rowsSeen: number; rowsChanged: number; requests: number }): Promise<void> {
  await database.db.query(
    `UPDATE metrc_sync_state SET status = 'ok', finished_at = now(), ok_at = now(), high_water = coalesce($3, high_water), rows_seen = $4, rows_changed = $5, requests = $6, error = NULL, error_since = NULL
     WHERE org = $1 AND collection = $2`,
    [org, collection, r.highWater, r.rowsSeen, r.rowsChanged, r.requests],
  )
}

export async function markError(database: Database, org: string, collection: string, error: string, r: { rowsSeen: number; rowsChanged: number; requests: number }): Promise<void> {
  await database.db.query(
    `UPDATE metrc_sync_state SET status = 'error', finished_at = now(), error = $3, error_since = coalesce(error_since, now()), rows_seen = $4, rows_changed = $5, requests = $6
     WHERE org = $1 AND collection = $2`,
    [org, collection, error.slice(0, 500), r.rowsSeen, r.rowsChanged, r.requests],
  )
}

/** A run that never finished (the process stopped mid-sync) is not running any more. */
export async function clearStaleRuns(database: Database): Promise<void> {
  await database.db.query(`UPDATE metrc_sync_state SET status = CASE WHEN error IS NULL THEN 'idle' ELSE 'error' END WHERE status = 'running'`)
}
