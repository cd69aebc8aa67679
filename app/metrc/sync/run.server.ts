/**
 * Sync of the Metrc tables (issue 9 item 4): one table of one facility at a time, from METRC into
 * the table's collection through Store.mirror (only what changed is written and audited, so a
 * second run changes nothing). Data tables read by lastModified are read whole the first time,
 * then from a minute before the last run's start (the high water) to now, in 24 h windows. At most
 * one run per table and facility (the sync row is the lock; a run older than 10 minutes is taken
 * over). A key METRC refuses marks the link failing; METRC not answering is recorded with the
 * time the table was last in step, so the screen can say since when.
 */
import type { Logger } from 'pino'
import { timeZoneOf } from '../../facilities/facts.server'
import type { Database } from '../../db/index.server'
import type { MetrcClient, MetrcClientOptions } from '../client/client.server'
import { MetrcError } from '../client/errors'
import { metrcClient, type MetrcEndpoint } from '../connection.server'
import { driftAfterSync, type DriftCheck } from '../drift/compare.server'
import { linkWithKey, markLink } from './links.server'
import { tableOf } from '../../db/sql'
import { adoptConfirmedWaste } from '../outbox/adopt.server'
import { existsIn, permissionText, takesLastModified } from '../reference'
import { documentOf, SYNC_TABLES, SYNCED_ID } from './tables'

export const SYNC_ACTOR = { uid: 'metrc-sync', requestId: 'metrc-sync' }

export interface SyncResult {
  collection: string
  /** refused: METRC refused this table for the key's user (a permission), the key itself still good */
  status: 'done' | 'skipped' | 'failed' | 'refused'
  seen: number
  changed: number
  requests: number
  error?: string
  /** the METRC permission the key's user lacks for this table (when refused) */
  refused?: string
  /** METRC refused the facility's key itself (the link is failing now) */
  keyRefused?: boolean
  /** the drift found after this table's sync, for each compared table it feeds (decision 021) */
  drift?: DriftCheck[]
}

/** how far a running sync got: requests made (429s and retries included) and rows read so far */
export interface SyncProgress {
  collection: string
  requests: number
  rows: number
}

export interface SyncStatus {
  collection: string
  status: 'idle' | 'running' | 'failed'
  startedAt: string | null
  finishedAt: string | null
  okAt: string | null
  seen: number
  changed: number
  requests: number
  error: string | null
  /** METRC refused this table for the key's user: the permission it needs */
  refused: string | null
  /** why the table has nothing to read (the state's METRC does not have it) */
  note: string | null
}

const iso = (v: unknown) => (v === null || v === undefined ? null : (v instanceof Date ? v : new Date(String(v))).toISOString())

export async function syncStatus(database: Database, org: string, collection: string): Promise<SyncStatus | null> {
  const r = await database.db.query<Record<string, unknown>>('SELECT * FROM metrc_sync WHERE org = $1 AND collection = $2', [org, collection])
  const x = r.rows[0]
  if (!x) return null
  return { collection, status: x.status as SyncStatus['status'], startedAt: iso(x.started_at), finishedAt: iso(x.finished_at), okAt: iso(x.ok_at), seen: Number(x.rows_seen), changed: Number(x.rows_changed), requests: Number(x.requests), error: (x.error as string | null) ?? null, refused: (x.refused as string | null) ?? null, note: (x.note as string | null) ?? null }
}

export async function syncTable(
  o: { database: Database; secret: string; endpoint: MetrcEndpoint; logger: Logger; full?: boolean; client?: Partial<MetrcClientOptions>; onProgress?: (p: SyncProgress) => void },
  org: string,
  collection: string,
): Promise<SyncResult> {
  const { database } = o
  const src = SYNC_TABLES.get(collection)
  if (!src) throw new Error(`${collection} is not a Metrc table`)
  const link = await linkWithKey(database, o.secret, org)
  if (!link) return { collection, status: 'skipped', seen: 0, changed: 0, requests: 0, error: 'This facility is not linked to METRC.' }
  // the lock: take the row unless another run holds it (and is younger than 10 minutes)
  const started = new Date()
  const got = await database.db.query<{ high_water: Date | string | null }>(
    `INSERT INTO metrc_sync (org, collection, status, started_at) VALUES ($1, $2, 'running', $3)
     ON CONFLICT (org, collection) DO UPDATE SET status = 'running', started_at = EXCLUDED.started_at
       WHERE metrc_sync.status <> 'running' OR metrc_sync.started_at < now() - interval '10 minutes'
     RETURNING high_water`,
    [org, collection, started.toISOString()],
  )
  if (!got.rows.length) return { collection, status: 'skipped', seen: 0, changed: 0, requests: 0, error: 'A sync of this table is already running.' }
  let requests = 0
  let read = 0
  const onRequest = (r: { rows?: number }) => {
    requests++
    read += r.rows ?? 0
    o.onProgress?.({ collection, requests, rows: read })
  }
  const client = metrcClient(o.endpoint, link.state, link.key, { ...o.client, onRequest, logger: o.logger })
  const license = link.license
  // the endpoints this state's METRC has (patients: not in California, for one)
  const paths = src.paths.filter((p) => existsIn(link.state, 'GET', p))
  /** the path being read: a refusal there is that endpoint's (its permission), not the key's */
  let reading: string | null = null
  try {
    if (!paths.length) {
      const note = `METRC in ${link.state} has no such list.`
      await database.db.query(
        `UPDATE metrc_sync SET status = 'idle', finished_at = now(), ok_at = now(), rows_seen = 0, rows_changed = 0, requests = 0, error = NULL, refused = NULL, note = $3 WHERE org = $1 AND collection = $2`,
        [org, collection, note],
      )
      return { collection, status: 'skipped', seen: 0, changed: 0, requests: 0, error: note }
    }
    const facility = ((await client.get<Array<{ License?: { Number?: string }; FacilityType?: { CanGrowPlants?: boolean } }>>('/facilities/v2')) ?? []).find((f) => f.License?.Number?.toUpperCase() === license.toUpperCase())
    if (!facility) throw new MetrcError('unauthorized', `METRC does not list license ${license} for this key any more.`, 401)
    /** every row read, with the list it came from */
    const rows: Array<{ path: string; row: unknown }> = []
    const add = (path: string, got: unknown[]) => {
      for (const row of got) rows.push({ path, row })
    }
    const hw = got.rows[0].high_water
    // incremental: only what changed since a minute before the last run's start; else the whole list
    const since = (src.modified || src.perPackage) && hw && !o.full ? new Date(new Date(hw).getTime() - 60_000) : null
    const cannotGrow = facility.FacilityType?.CanGrowPlants === false
    if (!(src.plants && cannotGrow)) {
      if (src.perPackage) {
        reading = '/packages/v2/active'
        add(paths[0], await perPackage(client, paths, license, since, started, (p) => (reading = p)))
      } else
        for (const path of paths) {
          // a plant list (plant tags) of a license that cannot grow: METRC refuses it there
          if (cannotGrow && src.plantPaths?.includes(path)) continue
          reading = path
          // lastModified windows where METRC's list takes them; a list that does not is read whole
          if (src.modified && since && takesLastModified(path)) add(path, await client.listModified(path, { license, from: since, to: started }))
          else add(path, await client.list(path, { license: src.license ? license : undefined }))
        }
      reading = null
    }
    const kept = collection === 'metrc_license' ? rows.filter((r) => (r.row as { License?: { Number?: string } }).License?.Number?.toUpperCase() === license.toUpperCase()) : rows
    const schema = await database.store.schemas.get(collection)
    const types = new Map((schema?.fields ?? []).map((f) => [f.key, f.type as string]))
    const timeZone = await timeZoneOf({ database }, org)
    const docs = new Map(kept.map((r) => documentOf(src, r.row, { license, state: link.state, timeZone, path: r.path }, types)).map((d) => [d._id, d]))
    // a whole read lists everything METRC holds: what it no longer lists goes (in an editable
    // table, only records that came from METRC; what users made here stays)
    // a list METRC reads whole (no lastModified) is complete even after the first run; per-package reads are not
    const whole = !since || (!src.perPackage && paths.every((p) => !takesLastModified(p)))
    const removeOthers = !whole ? false : schema?.editable ? { idPattern: SYNCED_ID } : true
    // waste Canopy sent and METRC confirmed takes the identity of METRC's row (which has no Id to answer with)
    if (collection === 'metrc_wmix') {
      const stored = new Set((await database.db.query<{ id: string }>(`SELECT id FROM ${tableOf(collection)} WHERE org = $1 AND id ~ '^w[0-9]+$'`, [org])).rows.map((r) => r.id))
      await adoptConfirmedWaste(database, org, kept.map((r) => r.row) as Array<Record<string, unknown>>, (id) => stored.has(id))
    }
    const m = await database.store.mirror(SYNC_ACTOR, org, collection, [...docs.values()], { removeOthers })
    const changed = m.inserted + m.updated + m.removed
    await database.db.query(
      `UPDATE metrc_sync SET status = 'idle', finished_at = now(), ok_at = now(), high_water = CASE WHEN $3 THEN $4::timestamptz ELSE high_water END,
         rows_seen = $5, rows_changed = $6, requests = $7, error = NULL, refused = NULL, note = NULL WHERE org = $1 AND collection = $2`,
      [org, collection, !!(src.modified || src.perPackage), started.toISOString(), docs.size, changed, requests],
    )
    if (link.status !== 'ok') await markLink(database, org, true)
    const drift = await driftAfterSync(database, org, collection, o.logger)
    o.logger.info({ org, collection, seen: docs.size, changed, removed: m.removed, requests, ...(drift.length ? { drift } : {}) }, 'METRC table synced')
    return { collection, status: 'done', seen: docs.size, changed, requests, ...(drift.length ? { drift } : {}) }
  } catch (e) {
    const err = e as Error
    const message = err instanceof MetrcError && err.kind === 'unavailable' ? `METRC is not answering (${err.message})` : err.message
    const refusal = err instanceof MetrcError && (err.kind === 'unauthorized' || err.kind === 'forbidden')
    // METRC refused one of this table's endpoints while it still lists the license for the key
    // (the facilities call above answered): the key's user lacks that endpoint's permission. That
    // table is marked; the link, the schedule and every other table go on.
    const refused = refusal && reading ? (permissionText(`GET ${reading}`) ?? 'a METRC permission for this list') : null
    await database.db.query(`UPDATE metrc_sync SET status = 'failed', finished_at = now(), requests = $3, error = $4, refused = $5, note = NULL WHERE org = $1 AND collection = $2`, [org, collection, requests, message.slice(0, 500), refused])
    if (refused) {
      o.logger.warn({ org, collection, path: reading, err: message, needs: refused }, 'METRC refused this table for the key')
      return { collection, status: 'refused', seen: 0, changed: 0, requests, error: message, refused }
    }
    if (refusal) await markLink(database, org, false, message)
    o.logger.warn({ org, collection, err: message }, 'METRC sync failed')
    return { collection, status: 'failed', seen: 0, changed: 0, requests, error: message, ...(refusal ? { keyRefused: true } : {}) }
  }
}

/** package lists whose rows may have lab results (METRC asks for results one package at a time) */
const PACKAGE_LISTS = ['/packages/v2/active', '/packages/v2/onhold', '/packages/v2/inactive']
/** lab testing states that have no result yet */
const UNTESTED = new Set(['NotSubmitted', 'NotRequired', 'SubmittedForTesting'])
/** package ids asked for at once (the throttle paces them within METRC's limits) */
const PACKAGE_BATCH = 50

/**
 * Rows read per package (lab results): the facility's packages that may have results — every one
 * on a whole read, those modified since `since` otherwise — then each one's rows.
 */
async function perPackage(client: MetrcClient, paths: string[], license: string, since: Date | null, to: Date, reading: (path: string) => void): Promise<unknown[]> {
  const ids = new Set<number>()
  for (const list of PACKAGE_LISTS) {
    reading(list)
    const pkgs = since ? await client.listModified<PackageRow>(list, { license, from: since, to }) : await client.list<PackageRow>(list, { license })
    for (const p of pkgs) if (typeof p.Id === 'number' && !UNTESTED.has(String(p.LabTestingState ?? ''))) ids.add(p.Id)
  }
  const all = [...ids]
  const rows: unknown[] = []
  reading(paths[0])
  for (let i = 0; i < all.length; i += PACKAGE_BATCH) {
    const got = await Promise.all(all.slice(i, i + PACKAGE_BATCH).flatMap((id) => paths.map((path) => client.list(path, { license, query: { packageId: id } }))))
    for (const r of got) rows.push(...r)
  }
  return rows
}
type PackageRow = { Id?: number; LabTestingState?: string }

/** Every Metrc table of one facility, one after another (reference first). */
export async function syncFacility(o: Parameters<typeof syncTable>[0], org: string, kind?: 'reference' | 'data'): Promise<SyncResult[]> {
  const out: SyncResult[] = []
  for (const src of SYNC_TABLES.values()) {
    if (kind && src.kind !== kind) continue
    const r = await syncTable(o, org, src.collection)
    out.push(r)
    // a key METRC refuses: the other tables would fail the same way (a table refused for a
    // missing permission is that table's alone: the others go on)
    if (r.keyRefused) break
  }
  return out
}
