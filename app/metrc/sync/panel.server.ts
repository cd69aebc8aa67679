/**
 * The sync panel of a Metrc screen synced from METRC: when the table was last in step with METRC,
 * whether that is current (within twice its schedule), METRC unreachable or the key refused and
 * since when; on /MetrcLicense, for administrators, the METRC connection form (state, license, the
 * key's last four characters — the key itself never leaves the server).
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SessionUser } from '../../auth/entitlements'
import { formatDateTime } from '../../format/format'
import type { RouteEntry } from '../../route-map'
import { METRC_STATES } from '../client/states'
import { metrcEndpoint } from '../connection.server'
import { linkWithKey } from './links.server'
import type { MetrcSyncPanel } from './panel'
import { syncStatus } from './run.server'
import { DEFAULT_MINUTES, intervalMinutes, metrcSyncer } from './syncer.server'
import { SYNC_TABLES } from './tables'

export const isMetrcAdmin = (user: SessionUser) => user.role === 'admin' || user.role === 'super'

export async function metrcPanel(context: AppLoadContext, user: SessionUser, route: RouteEntry, facility: string, timeZone: string): Promise<MetrcSyncPanel | undefined> {
  const table = route.collection ? SYNC_TABLES.get(route.collection) : undefined
  if (route.module !== 'metrc' || !table || !facility) return undefined
  const { database, env } = context
  const link = await linkWithKey(database, env.SESSION_SECRET, facility).catch(() => null)
  const st = await syncStatus(database, facility, table.collection)
  const every = intervalMinutes(env, table) || DEFAULT_MINUTES[table.kind]
  const fmt = (v: string | null | undefined) => (v ? formatDateTime(v, { timeZone }) : null)
  const running = metrcSyncer(database, env).busy(facility, table.collection) || st?.status === 'running'
  const failed = st?.status === 'failed'
  return {
    collection: table.collection,
    kind: table.kind,
    configured: !!metrcEndpoint(env),
    linked: !!link,
    license: link?.license ?? null,
    linkStatus: link?.status ?? null,
    failingSince: fmt(link?.failingSince),
    linkError: link?.lastError ?? null,
    status: running ? 'running' : failed ? 'error' : st?.okAt ? 'ok' : 'never',
    lastOk: fmt(st?.okAt),
    error: failed ? st?.error ?? null : null,
    // METRC not answering since the table was last in step (or since the first try)
    errorSince: failed ? fmt(st?.okAt ?? st?.startedAt) : null,
    current: !!st?.okAt && !failed && Date.now() - Date.parse(st.okAt) < 2 * every * 60_000,
    rowsSeen: st?.seen ?? 0,
    rowsChanged: st?.changed ?? 0,
    canSync: !!link && link.status !== 'failing' && !!metrcEndpoint(env),
    connection: route.path === '/MetrcLicense' && isMetrcAdmin(user) ? { state: link?.state ?? '', license: link?.license ?? '', keyHint: link?.key.slice(-4) ?? '', states: [...METRC_STATES] } : null,
  }
}
