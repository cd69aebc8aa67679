/**
 * METRC's published GET limits (reference §1.7): 50 GET/s and 10 in flight per facility, 150 GET/s
 * and 30 in flight per vendor key, shared by every caller of this process. Writes are not limited.
 * A GET waits for a start slot and an in-flight slot of its facility and of its vendor key; nobody
 * is dropped, callers go in order. Keyed gates live for the process (a handful of facilities).
 */
import { createRateGate, type RateGate } from '../../api-client/rate-gate'

export interface GetLimits {
  facilityPerSec: number
  facilityInFlight: number
  vendorPerSec: number
  vendorInFlight: number
}

export const METRC_GET_LIMITS: GetLimits = { facilityPerSec: 50, facilityInFlight: 10, vendorPerSec: 150, vendorInFlight: 30 }

class Semaphore {
  private used = 0
  private readonly queue: Array<() => void> = []
  constructor(private readonly max: number) {}
  async take(): Promise<void> {
    if (this.used < this.max) {
      this.used++
      return
    }
    await new Promise<void>((resolve) => this.queue.push(resolve))
  }
  give() {
    const next = this.queue.shift()
    if (next) next()
    else this.used--
  }
  get inFlight() {
    return this.used
  }
}

interface Gate {
  rate: RateGate
  slots: Semaphore
}

export class GetThrottle {
  private readonly gates = new Map<string, Gate>()
  constructor(private readonly limits: GetLimits = METRC_GET_LIMITS) {}

  private gate(key: string, perSec: number, inFlight: number): Gate {
    let g = this.gates.get(key)
    if (!g) this.gates.set(key, (g = { rate: createRateGate(perSec, 1000), slots: new Semaphore(inFlight) }))
    return g
  }

  /** Runs `fn` once the facility's and the vendor key's limits allow another GET. */
  async run<T>(vendorKey: string, license: string | undefined, fn: () => Promise<T>): Promise<T> {
    const v = this.gate(`v:${vendorKey}`, this.limits.vendorPerSec, this.limits.vendorInFlight)
    const f = license ? this.gate(`f:${vendorKey}:${license}`, this.limits.facilityPerSec, this.limits.facilityInFlight) : null
    // in-flight slots first (facility before vendor, always in that order, so no two callers deadlock)
    if (f) await f.slots.take()
    await v.slots.take()
    try {
      if (f) await f.rate.acquire()
      await v.rate.acquire()
      return await fn()
    } finally {
      v.slots.give()
      f?.slots.give()
    }
  }

  /** GETs in flight now for a vendor key (tests, the bench) */
  inFlight(vendorKey: string): number {
    return this.gates.get(`v:${vendorKey}`)?.slots.inFlight ?? 0
  }
}

/** one throttle per process: METRC's limits are per facility and per key, whoever calls */
export const sharedGetThrottle = new GetThrottle()
