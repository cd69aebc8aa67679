/**
 * The loop both METRC schedules share (the sync's and the outbox's): every `everyMs`, each facility
 * `facilities()` names gets one run of `work`, in its own queue — one run at a time per facility
 * (order), facilities side by side (one facility's slow or absent METRC never holds up another's).
 * A facility still busy from an earlier tick is skipped; a failed run is logged.
 */
import type { Logger } from 'pino'

export interface FacilityLoop {
  stop: () => void
  /** resolves when every running facility's work has ended */
  idle: () => Promise<void>
  /** one round now (tests, and the interval) */
  tick: () => Promise<void>
}

export function everyFacility(o: { everyMs: number; log: Logger; what: string; facilities: () => Promise<string[]>; work: (org: string, stopped: () => boolean) => Promise<void> }): FacilityLoop {
  const running = new Map<string, Promise<void>>()
  let stopped = false
  async function tick() {
    if (stopped) return
    for (const org of await o.facilities()) {
      if (running.has(org) || stopped) continue
      const run = o
        .work(org, () => stopped)
        .catch((e: Error) => o.log.warn({ org, err: e.message }, `${o.what} failed`))
        .finally(() => running.delete(org))
      running.set(org, run)
    }
  }
  const timer = setInterval(() => void tick().catch((e: Error) => o.log.warn({ err: e.message }, `${o.what}: the schedule check failed`)), o.everyMs)
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
