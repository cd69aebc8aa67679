/**
 * The loop both METRC schedules share (the sync's and the outbox's): every `everyMs`, each facility
 * `facilities()` names gets one run of `work`, in its own queue — one run at a time per facility
 * (order), facilities side by side (one facility's slow or absent METRC never holds up another's).
 * "One at a time" holds across processes on one database: a run holds the run lock `{name}:{org}`
 * (db/run-lock.server.ts, decision 069); a facility another process (or an earlier tick here) is
 * still running is skipped this tick. A run whose lock was lost is told to stop; a failed run is logged.
 */
import type { Logger } from 'pino'
import type { RunLocks } from '../db/run-lock.server'

export interface FacilityLoop {
  stop: () => void
  /** resolves when every running facility's work has ended */
  idle: () => Promise<void>
  /** one round now (tests, and the interval) */
  tick: () => Promise<void>
}

export function everyFacility(o: {
  everyMs: number
  log: Logger
  what: string
  /** the run lock's name for this loop: `metrc-sync`, `metrc-push` */
  name: string
  locks: RunLocks
  facilities: () => Promise<string[]>
  work: (org: string, stopped: () => boolean) => Promise<void>
}): FacilityLoop {
  const running = new Map<string, Promise<void>>()
  let stopped = false
  const runOnce = async (org: string) => {
    const lock = await o.locks.tryTake(`${o.name}:${org}`)
    if (!lock) return o.log.debug({ org, loop: o.name }, `${o.what}: another run has this facility; skipped`)
    o.log.debug({ org, loop: o.name, pid: process.pid }, `${o.what}: run started`)
    try {
      await o.work(org, () => stopped || lock.lost())
    } finally {
      o.log.debug({ org, loop: o.name, pid: process.pid }, `${o.what}: run ended`)
      await lock.release()
    }
  }
  async function tick() {
    if (stopped) return
    for (const org of await o.facilities()) {
      if (running.has(org) || stopped) continue
      const run = runOnce(org)
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
