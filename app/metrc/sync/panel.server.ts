/**
 * What a Metrc screen shows about METRC above its table (issue 9): the facility's link (license,
 * whether METRC still takes the key, since when it does not), when this table was last synced and
 * whether that is current, METRC being unreachable and since when, how much drift is open for the
 * Canopy table compared with it (decision 021), and the "Sync now" and link forms. Never the key.
 */
import type { AppLoadContext } from '@remix-run/node'
import { roleOf, type SessionUser } from '../../auth/entitlements'
import { metrcEndpoint } from '../connection.server'
import { DRIFT_TABLES } from '../drift/tables'
import { linkFor, type MetrcLink } from './links.server'
import { syncStatus, type SyncStatus } from './run.server'
import { SYNC_TABLES } from './tables'

export interface MetrcPanel {
  collection: string
  kind: 'reference' | 'data'
  link: MetrcLink | null
  sync: SyncStatus | null
  /** the last good sync is recent enough for this kind of table */
  current: boolean
  canLink: boolean
  configured: boolean
  emulated: boolean
  /** what the last post did (?metrc=) */
  outcome: string | null
  /** this facility's pushes to METRC (/MetrcOutbox): queued, and failed or held for approval */
  outbox: { queued: number; attention: number }
  /** open drift of the Canopy table compared with this one (decision 021); null when none is */
  drift: number | null
}

const FRESH_MS = { reference: 48 * 3_600_000, data: 15 * 60_000 }

export async function metrcPanel(context: AppLoadContext, user: SessionUser, facility: string, collection: string, url: URL): Promise<MetrcPanel | null> {
  const src = SYNC_TABLES.get(collection)
  if (!src) return null
  const compared = DRIFT_TABLES.find((t) => t.metrc === collection)
  const [link, sync, drift, outbox] = await Promise.all([
    linkFor(context, facility),
    syncStatus(context.database, facility, collection),
    compared ? context.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM metrc_drift WHERE org = $1 AND tbl = $2 AND status = 'open'`, [facility, compared.key]).then((r) => r.rows[0].n) : null,
    outboxCounts(context, facility),
  ])
  const endpoint = metrcEndpoint(context.env)
  const okAt = sync?.okAt ? Date.parse(sync.okAt) : 0
  const outcome = url.searchParams.get('metrc')
  return {
    collection,
    kind: src.kind,
    link,
    sync,
    current: !!sync && sync.status !== 'failed' && Date.now() - okAt < FRESH_MS[src.kind],
    canLink: roleOf(user) === 'admin' || roleOf(user) === 'super',
    configured: !!endpoint,
    emulated: endpoint?.emulated ?? false,
    outcome: outcome && /^[a-z]{1,20}$/.test(outcome) ? outcome : null,
    outbox,
    drift,
  }
}

async function outboxCounts(context: AppLoadContext, facility: string): Promise<MetrcPanel['outbox']> {
  const r = await context.database.db.query<{ queued: number; attention: number }>(
    `SELECT count(*) FILTER (WHERE status IN ('pending', 'sent'))::int AS queued, count(*) FILTER (WHERE status IN ('failed', 'held'))::int AS attention
     FROM metrc_outbox WHERE org = $1 AND status IN ('pending', 'sent', 'failed', 'held')`,
    [facility],
  )
  return r.rows[0] ?? { queued: 0, attention: 0 }
}
