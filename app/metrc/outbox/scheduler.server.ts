/**
 * Runs the outbox worker (worker.server.ts) every METRC_PUSH_EVERY_MS for each facility with
 * something to send, one pass at a time per facility (order), facilities side by side (one
 * facility's slow or absent METRC never holds up another's). A pass that stopped because METRC was
 * away leaves its items with a later next_at, so the next ticks skip them until then.
 */
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import { metrcEndpoint } from '../connection.server'
import { everyFacility, type FacilityLoop } from '../every-facility.server'
import { facilitiesToPush, pushFacility, type PushOptions } from './worker.server'

export function startOutboxWorker(o: { env: Env; database: Database; logger: Logger; everyMs?: number; client?: PushOptions['client'] }): FacilityLoop {
  const log = o.logger.child({ component: 'metrc-push' })
  return everyFacility({
    everyMs: o.everyMs ?? o.env.METRC_PUSH_EVERY_MS,
    log,
    what: 'METRC push pass',
    name: 'metrc-push',
    locks: o.database.db.runLocks,
    facilities: async () => (metrcEndpoint(o.env) ? facilitiesToPush(o.database) : []),
    work: async (org, stopped) => {
      const endpoint = metrcEndpoint(o.env)
      if (!endpoint) return
      const r = await pushFacility({ database: o.database, secret: o.env.SESSION_SECRET, endpoint, logger: log, client: o.client, stopped }, org)
      if (r.confirmed || r.failed) log.info({ org, ...r }, 'METRC pushes sent')
    },
  })
}
