/**
 * What a sensor reading must look like (issue 8; the bus contract): `{type:'reading', data:{<code>:
 * number, …}, ts?}` with `ts` an ISO time or epoch milliseconds, not in the future (a minute of
 * clock skew allowed) and at most a day old; every code one of the sensor dictionary's, every value
 * a finite number within ten times the code's scale (`max`). Pure: the bus ingest and the HTTP door
 * (app/sensors/ingest.server.ts) both check with it; the device itself is checked there.
 */
import { z } from 'zod'
import { issueMessage } from '../utils/zod-messages'

export const READING = z.object({
  type: z.literal('reading'),
  data: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'codes are lower-case letters, digits and _'), z.unknown()),
  ts: z.union([z.string().max(40), z.number()]).optional(),
})

const DAY_MS = 86_400_000
const SKEW_MS = 60_000

export interface ReadingProblem {
  /** where: `type`, `data`, `data.<code>`, `ts` */
  field: string
  message: string
}

export interface CheckedReading {
  /** epoch ms of the reading (now when the device sent no `ts`) */
  at: number
  /** the codes that passed */
  values: Array<{ code: string; value: number }>
  /** what did not pass; with a problem on `type`, `data` or `ts` nothing passes */
  problems: ReadingProblem[]
}

/** Checks a reading against the dictionary's scales (`code → max`) at time `now`. */
export function checkReading(body: unknown, scales: ReadonlyMap<string, number>, now: number): CheckedReading {
  const r = READING.safeParse(body)
  if (!r.success) {
    const i = r.error.issues[0]
    return { at: now, values: [], problems: [{ field: i?.path.join('.') || 'body', message: i ? issueMessage(i) : 'not a reading' }] }
  }
  const ts = r.data.ts
  const at = ts === undefined ? now : typeof ts === 'number' ? ts : Date.parse(ts)
  if (!Number.isFinite(at) || at > now + SKEW_MS || at < now - DAY_MS)
    return { at: now, values: [], problems: [{ field: 'ts', message: `${String(ts).slice(0, 40)} is not a time within the last day` }] }
  const values: CheckedReading['values'] = []
  const problems: ReadingProblem[] = []
  const entries = Object.entries(r.data.data)
  if (!entries.length) problems.push({ field: 'data', message: 'has no readings' })
  for (const [code, v] of entries) {
    const top = scales.get(code)
    if (top === undefined) problems.push({ field: `data.${code}`, message: `${code} is not a code of the sensor dictionary` })
    else if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > Math.abs(top) * 10)
      problems.push({ field: `data.${code}`, message: `${String(v).slice(0, 20)} is not a plausible ${code} value` })
    else values.push({ code, value: v })
  }
  return { at, values, problems }
}
