/**
 * The sensor time series (migration 005): write a batch of readings (raw rows, hourly rollups and
 * the latest value per code, in one statement: a reading seen twice counts once), read the latest
 * values, a day of history for the charts, and drop raw rows past their keeping time.
 */
import type { Queryable } from '../db/driver.server'

export interface ReadingRow {
  org: string
  deviceID: string
  code: string
  /** ISO time */
  at: string
  value: number
}

/** Stores readings; answers how many were new. */
export async function writeReadings(db: Queryable, rows: ReadingRow[]): Promise<number> {
  if (!rows.length) return 0
  const r = await db.query<{ n: number }>(
    `WITH input AS (
       SELECT DISTINCT ON (x.org, x.device_id, x.code, x.at) x.org, x.device_id, x.code, x.at, x.value
         FROM jsonb_to_recordset($1::jsonb) AS x(org text, device_id text, code text, at timestamptz, value double precision)
         ORDER BY x.org, x.device_id, x.code, x.at),
     ins AS (
       INSERT INTO sensor_readings (org, device_id, code, at, value) SELECT org, device_id, code, at, value FROM input
       ON CONFLICT DO NOTHING RETURNING org, device_id, code, at, value),
     hourly AS (
       INSERT INTO sensor_hourly (org, device_id, code, hour, n, sum, min, max)
       SELECT org, device_id, code, date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*), sum(value), min(value), max(value)
         FROM ins GROUP BY 1, 2, 3, 4
       ON CONFLICT (org, device_id, code, hour) DO UPDATE SET n = sensor_hourly.n + EXCLUDED.n, sum = sensor_hourly.sum + EXCLUDED.sum,
         min = least(sensor_hourly.min, EXCLUDED.min), max = greatest(sensor_hourly.max, EXCLUDED.max)
       RETURNING 1),
     latest AS (
       INSERT INTO sensor_latest (org, device_id, code, at, value)
       SELECT DISTINCT ON (org, device_id, code) org, device_id, code, at, value FROM ins ORDER BY org, device_id, code, at DESC
       ON CONFLICT (org, device_id, code) DO UPDATE SET at = EXCLUDED.at, value = EXCLUDED.value WHERE EXCLUDED.at >= sensor_latest.at
       RETURNING 1)
     SELECT (SELECT count(*) FROM ins)::int AS n, (SELECT count(*) FROM hourly) AS h, (SELECT count(*) FROM latest) AS l`,
    [JSON.stringify(rows.map((x) => ({ org: x.org, device_id: x.deviceID, code: x.code, at: x.at, value: x.value })))],
  )
  return r.rows[0]?.n ?? 0
}

export interface Latest {
  deviceID: string
  code: string
  at: string
  value: number
}

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString()

/** The latest value of every code of the organisation's devices (or of one device). */
export async function latestReadings(db: Queryable, org: string, deviceID?: string): Promise<Latest[]> {
  const r = await db.query<{ device_id: string; code: string; at: Date | string; value: number }>(
    `SELECT device_id, code, at, value FROM sensor_latest WHERE org = $1 ${deviceID ? 'AND device_id = $2' : ''} ORDER BY device_id, code`,
    deviceID ? [org, deviceID] : [org],
  )
  return r.rows.map((x) => ({ deviceID: x.device_id, code: x.code, at: iso(x.at), value: Number(x.value) }))
}

export interface HistoryPoint {
  /** ISO hour */
  hour: string
  /** readings that hour */
  n: number
  avg: number
  min: number
  max: number
}

/** Hourly averages of every code of the organisation's devices since `since`, oldest first. */
export async function hourlyHistory(db: Queryable, org: string, since: Date): Promise<Map<string, HistoryPoint[]>> {
  const r = await db.query<{ device_id: string; code: string; hour: Date | string; n: number; avg: number; min: number; max: number }>(
    `SELECT device_id, code, hour, n, sum / n AS avg, min, max FROM sensor_hourly WHERE org = $1 AND hour >= $2 ORDER BY device_id, code, hour`,
    [org, since.toISOString()],
  )
  const out = new Map<string, HistoryPoint[]>()
  for (const x of r.rows) {
    const k = `${x.device_id}\u0000${x.code}`
    const list = out.get(k) ?? []
    list.push({ hour: iso(x.hour), n: Number(x.n), avg: Number(x.avg), min: Number(x.min), max: Number(x.max) })
    out.set(k, list)
  }
  return out
}

/** Drops raw readings older than `days` (the hourly rollups stay); answers how many went. */
export async function compactReadings(db: Queryable, days: number): Promise<number> {
  const r = await db.query(`DELETE FROM sensor_readings WHERE at < now() - make_interval(days => $1::int)`, [days])
  return r.rowCount ?? 0
}
