/**
 * What the reconciliation screen (/MetrcDrift) shows: the facility's open drift, oldest first (at
 * most 200 at a time, with how many there are), the latest decisions, and when each compared table
 * was last checked. Only this organisation's rows, always.
 */
import type { Database } from '../../db/index.server'
import { syncStatus } from '../sync/run.server'
import { DRIFT_TABLES, driftTable, sameValue } from './tables'

export interface DriftView {
  id: string
  table: string
  tag: string
  field: string
  canopy: string | null
  synced: string | null
  metrc: string | null
  /** which side moved away from the last agreed value */
  moved: 'canopy' | 'metrc' | 'both' | 'unknown'
  detectedAt: string
  status: 'open' | 'resolved' | 'cleared'
  side: 'canopy' | 'metrc' | null
  resolvedBy: string | null
  resolvedAt: string | null
  pushId: string | null
}

export interface DriftScreen {
  open: DriftView[]
  openTotal: number
  decided: DriftView[]
  checks: Array<{ table: string; checkedAt: string | null }>
}

const iso = (v: unknown) => (v === null || v === undefined ? null : (v instanceof Date ? v : new Date(String(v))).toISOString())

type Row = { id: string; tbl: string; tag: string; field: string; canopy_value: string | null; synced_value: string | null; metrc_value: string | null; status: DriftView['status']; side: DriftView['side']; detected_at: unknown; resolved_at: unknown; resolved_by: string | null; push_id: string | null }

function view(r: Row): DriftView {
  const t = driftTable(r.tbl)
  const moved = r.synced_value === null ? 'unknown' : sameValue(r.synced_value, r.canopy_value) ? 'metrc' : sameValue(r.synced_value, r.metrc_value) ? 'canopy' : 'both'
  return {
    id: r.id, table: t?.label ?? r.tbl, tag: r.tag, field: t?.fields.find((f) => f.key === r.field)?.label ?? r.field,
    canopy: r.canopy_value, synced: r.synced_value, metrc: r.metrc_value, moved,
    detectedAt: iso(r.detected_at)!, status: r.status, side: r.side, resolvedBy: r.resolved_by, resolvedAt: iso(r.resolved_at), pushId: r.push_id,
  }
}

export async function driftScreen(database: Database, org: string, limit = 200): Promise<DriftScreen> {
  const q = database.db
  const open = await q.query<Row>(`SELECT * FROM metrc_drift WHERE org = $1 AND status = 'open' ORDER BY detected_at, tbl, tag, field LIMIT $2`, [org, limit])
  const total = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM metrc_drift WHERE org = $1 AND status = 'open'`, [org])
  const decided = await q.query<Row>(`SELECT * FROM metrc_drift WHERE org = $1 AND status = 'resolved' ORDER BY resolved_at DESC LIMIT 20`, [org])
  const checks = await Promise.all(DRIFT_TABLES.map(async (t) => ({ table: t.label, checkedAt: (await syncStatus(database, org, t.metrc))?.okAt ?? null })))
  return { open: open.rows.map(view), openTotal: total.rows[0].n, decided: decided.rows.map(view), checks }
}
