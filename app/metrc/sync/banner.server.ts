/**
 * The shell's banner for a key METRC stopped taking (issue 9: "keys that start failing later raise a
 * banner for admins"): on every page of a facility whose link is failing, admins and super users
 * read since when (in the facility's time zone), METRC's message, and where to enter a new key (a
 * Metrc screen whose panel holds the link form). One primary-key row per request, shared with the
 * Metrc panel (linkFor); the time zone only when the link is failing.
 */
import type { AppLoadContext } from '@remix-run/node'
import { visibleRoutes, type SessionUser } from '../../auth/entitlements'
import { formatDateTime } from '../../format/format'
import { timeZoneOf } from '../../facilities/facts.server'
import { linkFor } from './links.server'
import { SYNC_TABLES } from './tables'

export interface MetrcKeyBanner {
  /** MM/DD/YYYY hh:mm A in the facility's time zone */
  since: string
  timeZone: string
  /** what METRC answered */
  error: string
  /** the Metrc screen (with its link form) this user may open; null when none */
  href: string | null
}

/** where the banner sends an admin: the License screen, else any Metrc screen they may see */
const PREFERRED = '/MetrcLicense'

export async function metrcKeyBanner(context: Pick<AppLoadContext, 'database' | 'reads'>, user: SessionUser, facility: string | null): Promise<MetrcKeyBanner | null> {
  if (!facility || (user.role !== 'admin' && user.role !== 'super')) return null
  const link = await linkFor(context, facility)
  if (link?.status !== 'failing') return null
  const timeZone = await timeZoneOf(context as AppLoadContext, facility)
  const screens = visibleRoutes(user, facility).filter((r) => r.collection && SYNC_TABLES.has(r.collection))
  const screen = screens.find((r) => r.path === PREFERRED) ?? screens[0]
  return {
    since: formatDateTime(link.failingSince ?? link.checkedAt, { timeZone }),
    timeZone,
    error: link.lastError ?? '',
    href: screen ? `${screen.path}#metrc-link` : null,
  }
}
