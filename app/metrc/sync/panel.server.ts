/**
 * The sync panel of a read-only Metrc screen: when the table was last synced, whether that is
 * current, METRC unreachable since when, a failing key; on /MetrcLicense, for administrators, the
 * METRC connection form (state, license, the key masked).
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SessionUser } from '../../auth/entitlements'
import { formatDateTime } from '../../format/format'
import type { RouteEntry } from '../../route-map'
import { METRC_STATES } from '../client/states'
import { metrcEndpoint } from '../connection.server'
import { getLink } from '../link.server'
import type { MetrcSyncPanel } from './panel'
import { syncState } from './state.server'
import { DEFAULT_MINUTES, intervalMinutes, metrcSyncer } from './syncer.server'
import { syncTableOf } from './table-map'

export const isMetrcAdmin = (user: SessionUser) => user.role === 'admin' || user.role === 'super'

export async function metrcPanel(context: AppLoadContext, user: SessionUser, route: RouteEntry, facility: string, timeZone: string): Promise<MetrcSyncPanel | undefined> {
  const table = syncTableOf(route.collection)
  if (route.module !== 'metrc' || !table || !facility) return undefined
  const { database, env } = context
  const link = await getLink(database, env.SESSION_SECRET, facility)
  const st = await syncState(database, facility, table.collection)
  const every = intervalMinutes(env, table) || DEFAULT_MINUTES[table.kind]
  const fmt = (v: string | null) => (v ? formatDateTime(v, { timeZone }) : null)
  const running = metrcSyncer(database, env).busy(facility, table.collection) || st?.status === 'running'
  return {
    collection: table.collection,
    kind: table.kind,
    configured: !!metrcEndpoint(env),
    linked: !!link,
    license: link?.license ?? null,
    linkStatus: link?.status ?? null,
    failingSince: fmt(link?.failingSince ?? null),
    linkError: link?.lastError ?? null,
    status: running ? 'running' : (st?.status ?? 'never'),
    lastOk: fmt(st?.okAt ?? null),
    error: st?.error ?? null,
    errorSince: fmt(st?.errorSince ?? null),
    current: !!st?.okAt && Date.now() - Date.parse(st.okAt) < 2 * every * 60_000 && st.status !== 'error',
    rowsSeen: st?.rowsSeen ?? 0,
    rowsChanged: st?.rowsChanged ?? 0,
    canSync: !!link && link.status !== 'failing' && !!metrcEndpoint(env),
    connection: route.path === '/MetrcLicense' && isMetrcAdmin(user) ? { state: link?.state ?? '', license: link?.license ?? '', keyHint: link?.keyHint ?? '', states: [...METRC_STATES] } : null,
  }
}
