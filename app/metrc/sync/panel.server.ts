/**
 * What a Metrc screen shows about METRC above its table (issue 9): the facility's link (license,
 * whether METRC still takes the key, since when it does not), when this table was last synced and
 * whether that is current, METRC being unreachable and since when, and the "Sync now" and link
 * forms. Never the key.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SessionUser } from '../../auth/entitlements'
import { metrcEndpoint } from '../connection.server'
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
}

const FRESH_MS = { reference: 48 * 3_600_000, data: 15 * 60_000 }

export async function metrcPanel(context: AppLoadContext, user: SessionUser, facility: string, collection: string, url: URL): Promise<MetrcPanel | null> {
  const src = SYNC_TABLES.get(collection)
  if (!src) return null
  const [link, sync] = await Promise.all([linkFor(context, facility), syncStatus(context.database, facility, collection)])
  const endpoint = metrcEndpoint(context.env)
  const okAt = sync?.okAt ? Date.parse(sync.okAt) : 0
  const outcome = url.searchParams.get('metrc')
  return {
    collection,
    kind: src.kind,
    link,
    sync,
    current: !!sync && sync.status !== 'failed' && Date.now() - okAt < FRESH_MS[src.kind],
    canLink: user.role === 'admin' || user.role === 'super',
    configured: !!endpoint,
    emulated: endpoint?.emulated ?? false,
    outcome: outcome && /^[a-z]{1,20}$/.test(outcome) ? outcome : null,
  }
}
