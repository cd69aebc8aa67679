/**
 * The sync schedule (issue 9): every minute, each linked facility's tables that are due — reference
 * tables every METRC_SYNC_REFERENCE_H hours, data tables every METRC_SYNC_DATA_MIN minutes — are
 * synced one after another in that facility's own queue, so one facility's slow or failing METRC
 * never holds up another's. A facility whose key METRC refuses waits for a new key (or a Sync now);
 * once a new key is saved, the tables that failed before it are due at once.
 */
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import { metrcEndpoint } from '../connection.server'
import { everyFacility, type FacilityLoop } from '../every-facility.server'
import { linkedOrgs, linkOf } from './links.server'
import { syncStatus, syncTable } from './run.server'
import { SYNC_TABLES } from './tables'

export function startSyncScheduler(o: { env: Env; database: Database; logger: Logger; tickMs?: number }): FacilityLoop {
  const log = o.logger.child({ component: 'metrc-sync' })
  const every = { reference: o.env.METRC_SYNC_REFERENCE_H * 3_600_000, data: o.env.METRC_SYNC_DATA_MIN * 60_000 }

  /** tables whose interval has passed, and tables that failed before the credentials were last saved (a new key) */
  async function due(org: string, keySavedAt: string | null): Promise<string[]> {
    const out: string[] = []
    for (const src of SYNC_TABLES.values()) {
      const s = await syncStatus(o.database, org, src.collection)
      const last = s?.finishedAt ? Date.parse(s.finishedAt) : 0
      const failedBeforeNewKey = s?.status === 'failed' && !!keySavedAt && last < Date.parse(keySavedAt)
      if (s?.status !== 'running' && (failedBeforeNewKey || Date.now() - last >= every[src.kind])) out.push(src.collection)
    }
    return out
  }

  return everyFacility({
    everyMs: o.tickMs ?? o.env.METRC_SYNC_CHECK_MS,
    log,
    what: 'scheduled METRC sync',
    name: 'metrc-sync',
    locks: o.database.db.runLocks,
    // linked facilities whose key METRC still takes (a failing one waits for a new key or a Sync now)
    facilities: async () => {
      if (!metrcEndpoint(o.env)) return []
      const out: string[] = []
      for (const org of await linkedOrgs(o.database)) if ((await linkOf(o.database, org))?.status !== 'failing') out.push(org)
      return out
    },
    work: async (org, stopped) => {
      const endpoint = metrcEndpoint(o.env)
      const link = await linkOf(o.database, org)
      if (!endpoint || !link) return
      for (const collection of await due(org, link.updatedAt)) {
        if (stopped()) return
        const r = await syncTable({ database: o.database, secret: o.env.SESSION_SECRET, endpoint, logger: log }, org, collection)
        if (r.status === 'failed' && (await linkOf(o.database, org))?.status === 'failing') return
      }
    },
  })
}
