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
import { facilitiesToPush, pushFacility, type PushOptions } from './worker.server'

export function startOutboxWorker(o: { env: Env; database: Database; logger: Logger; everyMs?: number; client?: PushOptions['client'] }): { stop: () => void; idle: () => Promise<void>; tick: () => Promise<void> } {
  const log = o.logger.child({ component: 'metrc-push' })
  const running = new Map<string, Promise<void>>()
  let stopped = false

  async function tick() {
    const endpoint = metrcEndpoint(o.env)
    if (!endpoint || stopped) return
    for (const org of await facilitiesToPush(o.database)) {
      if (running.has(org)) continue
      const pass = pushFacility({ database: o.database, secret: o.env.SESSION_SECRET, endpoint, logger: log, client: o.client }, org)
        .then((r) => {
          if (r.confirmed || r.failed) log.info({ org, ...r }, 'METRC pushes sent')
        })
        .catch((e: Error) => log.warn({ org, err: e.message }, 'METRC push pass failed'))
        .finally(() => running.delete(org))
      running.set(org, pass)
    }
  }

  const timer = setInterval(() => void tick().catch((e: Error) => log.warn({ err: e.message }, 'METRC outbox check failed')), o.everyMs ?? o.env.METRC_PUSH_EVERY_MS)
  timer.unref()
  return {
    stop: () => {
      stopped = true
      clearInterval(timer)
    },
    idle: async () => {
      await Promise.all(running.values())
    },
    tick,
  }
}
