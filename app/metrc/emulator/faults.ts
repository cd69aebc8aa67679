/**
 * Faults a test or a demo switches on (issue 9): METRC down (503 with Retry-After, or connections
 * dropped as they arrive, or — from the function API — not listening at all: connection refused),
 * slow answers, a storm of 429s, expired user keys. The same patch shape serves
 * `POST /_emulator/faults` and the object `startMetrcEmulator` returns.
 */
import { z } from 'zod'

export interface Faults {
  /** every call answers 503 (METRC down for maintenance) */
  down: boolean
  /** every connection is dropped as it arrives (the client sees a network error) */
  reset: boolean
  /** added before every answer */
  slowMs: number
  /** added before every write is applied and answered (a METRC slow to take pushes; reads stay quick) */
  slowWritesMs: number
  /** the next this-many GETs answer 429 (with Retry-After: retryAfterS) */
  storm429: number
  retryAfterS: number
  /** user keys METRC no longer takes */
  expiredKeys: string[]
  /** the next this-many writes are applied, then their connection is dropped unanswered (a lost answer) */
  dropAnswers: number
}

export const noFaults = (): Faults => ({ down: false, reset: false, slowMs: 0, slowWritesMs: 0, storm429: 0, retryAfterS: 1, expiredKeys: [], dropAnswers: 0 })

export const FaultPatch = z
  .object({
    down: z.boolean(),
    reset: z.boolean(),
    slowMs: z.number().int().min(0).max(60_000),
    slowWritesMs: z.number().int().min(0).max(60_000),
    storm429: z.number().int().min(0).max(1_000_000),
    retryAfterS: z.number().int().min(0).max(3600),
    expiredKeys: z.array(z.string().max(200)).max(100),
    dropAnswers: z.number().int().min(0).max(1_000_000),
    /** stop listening for this long (connection refused), then listen again on the same port */
    refuseMs: z.number().int().min(1).max(600_000),
  })
  .partial()
  .strict()

export type FaultPatch = z.infer<typeof FaultPatch>

/** Applies a patch (all fields checked first: a bad one changes nothing); answers refuseMs if asked. */
export function applyFaultPatch(faults: Faults, body: unknown): { refuseMs?: number } {
  const p = FaultPatch.safeParse(body ?? {})
  if (!p.success) throw new Error(p.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '))
  const { refuseMs, ...rest } = p.data
  Object.assign(faults, rest)
  return { refuseMs }
}
