/**
 * METRC's GET limits (reference §1.7): per second and in flight, per facility (vendor key and
 * license) and per vendor key; over them a 429 with Retry-After. Writes are not limited.
 */
import { TokenBuckets } from '../../utils/token-bucket'
import { Refusal } from './refusal'

export interface Limits {
  facilityPerSec: number
  vendorPerSec: number
  facilityInFlight: number
  vendorInFlight: number
}

/** The published limits: 50 GET/s and 10 in flight per facility, 150/s and 30 per vendor key. */
export const DEFAULT_LIMITS: Limits = { facilityPerSec: 50, vendorPerSec: 150, facilityInFlight: 10, vendorInFlight: 30 }

export class GetLimiter {
  private readonly facilityRate: TokenBuckets
  private readonly vendorRate: TokenBuckets
  private readonly inFlight = new Map<string, number>()

  constructor(readonly limits: Limits = DEFAULT_LIMITS) {
    this.facilityRate = new TokenBuckets({ perSec: limits.facilityPerSec, burst: limits.facilityPerSec })
    this.vendorRate = new TokenBuckets({ perSec: limits.vendorPerSec, burst: limits.vendorPerSec })
  }

  /** Admits one GET or throws a 429; call the answer when the GET is done. */
  admit(vendor: string, license: string | null): () => void {
    const waitF = license ? this.facilityRate.take(`${vendor}|${license}`) : 0
    const waitV = this.vendorRate.take(vendor)
    if (waitF || waitV) throw new Refusal(429, 'Rate limit exceeded.', undefined, Math.max(1, Math.ceil(Math.max(waitF, waitV) / 1000)))
    const keys = [`v|${vendor}`, ...(license ? [`f|${vendor}|${license}`] : [])]
    const caps = [this.limits.vendorInFlight, this.limits.facilityInFlight]
    if (keys.some((k, i) => (this.inFlight.get(k) ?? 0) >= caps[i])) throw new Refusal(429, 'Too many concurrent requests.', undefined, 1)
    for (const k of keys) this.inFlight.set(k, (this.inFlight.get(k) ?? 0) + 1)
    let done = false
    return () => {
      if (done) return
      done = true
      for (const k of keys) this.inFlight.set(k, (this.inFlight.get(k) ?? 1) - 1)
    }
  }
}
