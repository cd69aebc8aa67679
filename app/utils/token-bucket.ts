/**
 * Token buckets keyed by a string (a user, an address), in memory: each key holds up to `burst`
 * tokens and earns `perSec` a second; a request spends one. Pure logic with an injected clock so
 * tests can move time without sleeping.
 *
 * Memory stays bounded two ways. A bucket left alone long enough to refill completely is the same
 * as no bucket, so those are dropped (the map is kept in last-use order, oldest first, so the sweep
 * stops at the first bucket still in use). And past `maxKeys` the least recently used bucket goes:
 * a flood of fresh keys (random session cookies, spoofed addresses) can cost at most that much.
 */
export interface BucketOptions {
  /** tokens earned per second (sustained rate) */
  perSec: number
  /** most tokens a bucket holds (the burst a fresh key may spend at once) */
  burst: number
  /** most buckets kept; the least recently used is dropped past it */
  maxKeys?: number
  /** the clock in milliseconds (Date.now unless a test gives one) */
  now?: () => number
}

const EPS = 1e-9

interface Bucket {
  tokens: number
  at: number
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>()
  private readonly perMs: number
  private readonly burst: number
  private readonly maxKeys: number
  private readonly now: () => number
  /** after this long untouched a bucket is full again, so it need not be kept */
  private readonly refillMs: number

  constructor(o: BucketOptions) {
    if (!(o.perSec > 0) || !(o.burst >= 1)) throw new Error('a token bucket needs perSec > 0 and burst >= 1')
    this.perMs = o.perSec / 1000
    this.burst = o.burst
    this.maxKeys = o.maxKeys ?? 50_000
    this.now = o.now ?? Date.now
    this.refillMs = Math.ceil(this.burst / this.perMs)
  }

  /** Tokens `key` holds now (a key never seen holds a full burst). */
  private level(key: string, t: number): number {
    const b = this.buckets.get(key)
    if (!b) return this.burst
    return Math.min(this.burst, b.tokens + (t - b.at) * this.perMs)
  }

  /** Milliseconds until a bucket holding `tokens` has one (0: now); EPS absorbs float rounding. */
  private until(tokens: number): number {
    const missing = 1 - tokens
    return missing <= EPS ? 0 : Math.ceil(missing / this.perMs - EPS)
  }

  /** Milliseconds until `key` has one token (0: it has one now). Changes nothing. */
  wait(key: string): number {
    return this.until(this.level(key, this.now()))
  }

  /**
   * Spends one token of `key` when it has one; answers how long to wait otherwise (0 = spent).
   * A refused request spends nothing, so a client that backs off as told gets through.
   */
  take(key: string): number {
    const t = this.now()
    const tokens = this.level(key, t)
    const wait = this.until(tokens)
    if (wait > 0) return wait
    this.buckets.delete(key) // re-insert: the map stays in last-use order
    this.buckets.set(key, { tokens: Math.max(0, tokens - 1), at: t })
    this.sweep(t)
    return 0
  }

  /** Buckets held (for tests and the log). */
  get size(): number {
    return this.buckets.size
  }

  private sweep(t: number) {
    for (const [key, b] of this.buckets) {
      if (this.buckets.size > this.maxKeys || t - b.at >= this.refillMs) this.buckets.delete(key)
      else break
    }
  }
}
