/**
 * Sensor readings arriving on the bus (`{org}/bcast/{deviceID}` with type 'reading'; issue 8):
 * checked (a device of that organisation, codes of the sensor dictionary, finite numbers within
 * the code's scale, a time not in the future and at most a day old), batched (flushed every
 * `flushMs` or at `maxBatch` readings) into the time series, then relayed to that organisation's
 * pages as a hub `reading` event. No audit rows: readings are measurements, not edits.
 * What does not pass is logged and dropped; nothing here throws into the bus.
 */
import type { Logger } from 'pino'
import { z } from 'zod'
import type { Database } from '../db/index.server'
import { PLATFORM_ORG } from '../route-map'
import type { EventHub } from '../server/event-hub.server'
import { writeReadings, type ReadingRow } from './store.server'

const READING = z.object({
  type: z.literal('reading'),
  data: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/), z.unknown()),
  ts: z.union([z.string().max(40), z.number()]).optional(),
})

const CACHE_MS = 30_000
/** a device not in the list: read the list again if it is older than this (a device just added) */
const MISS_MS = 2_000
const DAY_MS = 86_400_000

export interface IngestOptions {
  database: Database
  events: EventHub
  logger: Logger
  flushMs?: number
  maxBatch?: number
  now?: () => number
}

export class ReadingIngest {
  private batch: ReadingRow[] = []
  private timer: ReturnType<typeof setTimeout> | null = null
  private flushing: Promise<void> = Promise.resolve()
  private devices = new Map<string, { at: number; ids: Set<string> }>()
  private dictionary: { at: number; max: Map<string, number> } | null = null
  private readonly log: Logger
  private readonly now: () => number
  /** readings stored and dropped since start (tests, the bench) */
  readonly counts = { stored: 0, dropped: 0 }

  constructor(private readonly o: IngestOptions) {
    this.log = o.logger.child({ component: 'sensor-ingest' })
    this.now = o.now ?? Date.now
  }

  /** The bus handler: never throws. */
  handle = async (org: string, deviceID: string, body: unknown): Promise<void> => {
    try {
      await this.accept(org, deviceID, body)
    } catch (e) {
      this.counts.dropped++
      this.log.warn({ org, deviceID, err: (e as Error).message }, 'sensor reading dropped')
    }
  }

  private async accept(org: string, deviceID: string, body: unknown) {
    const r = READING.safeParse(body)
    if (!r.success) return this.drop(org, deviceID, `not a reading: ${r.error.issues[0]?.path.join('.')} ${r.error.issues[0]?.message}`)
    if (!(await this.deviceIds(org)).has(deviceID) && !(await this.deviceIds(org, MISS_MS)).has(deviceID)) return this.drop(org, deviceID, 'not a sensor device of this organisation')
    const at = r.data.ts === undefined ? this.now() : typeof r.data.ts === 'number' ? r.data.ts : Date.parse(r.data.ts)
    if (!Number.isFinite(at) || at > this.now() + 60_000 || at < this.now() - DAY_MS) return this.drop(org, deviceID, `time ${String(r.data.ts).slice(0, 40)} is not within the last day`)
    const max = await this.scales()
    const when = new Date(at).toISOString()
    let kept = 0
    for (const [code, v] of Object.entries(r.data.data)) {
      const top = max.get(code)
      if (top === undefined) {
        this.drop(org, deviceID, `unknown code ${code}`)
        continue
      }
      if (typeof v !== 'number' || !Number.isFinite(v) || v < -Math.abs(top) * 10 || v > Math.abs(top) * 10) {
        this.drop(org, deviceID, `${code}: ${String(v).slice(0, 20)} is not a plausible value`)
        continue
      }
      this.batch.push({ org, deviceID, code, at: when, value: v })
      kept++
    }
    if (!kept) return
    if (this.batch.length >= (this.o.maxBatch ?? 500)) void this.flush()
    else this.timer ??= setTimeout(() => void this.flush(), this.o.flushMs ?? 250)
  }

  private drop(org: string, deviceID: string, why: string) {
    this.counts.dropped++
    this.log.warn({ org, deviceID, why }, 'sensor reading dropped')
  }

  /** Writes what is waiting; resolves when it is stored and relayed. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const rows = this.batch
    this.batch = []
    if (!rows.length) return this.flushing
    this.flushing = this.flushing.then(async () => {
      try {
        this.counts.stored += await writeReadings(this.o.database.db, rows)
      } catch (e) {
        this.counts.dropped += rows.length
        this.log.error({ err: (e as Error).message, readings: rows.length }, 'storing sensor readings failed')
        return
      }
      // one event per device and time: the page updates its gauges and charts
      const byDevice = new Map<string, { org: string; deviceID: string; ts: string; data: Record<string, number> }>()
      for (const x of rows) {
        const k = `${x.org}\u0000${x.deviceID}\u0000${x.at}`
        const e = byDevice.get(k) ?? { org: x.org, deviceID: x.deviceID, ts: x.at, data: {} }
        e.data[x.code] = x.value
        byDevice.set(k, e)
      }
      for (const e of byDevice.values()) this.o.events.publish(e.org, 'reading', { deviceID: e.deviceID, ts: e.ts, data: e.data })
    })
    return this.flushing
  }

  /** the organisation's device ids, read again once the list is older than `maxAge` */
  private async deviceIds(org: string, maxAge = CACHE_MS): Promise<Set<string>> {
    const c = this.devices.get(org)
    if (c && this.now() - c.at < maxAge) return c.ids
    const { store, schemas } = this.o.database
    const rows = (await schemas.hasCollection('sen_devices')) ? await store.find(org, 'sen_devices', {}, 5000) : []
    const ids = new Set(rows.filter((d) => d.IsUsed !== 'no').map((d) => String(d.deviceID ?? '')))
    this.devices.set(org, { at: this.now(), ids })
    return ids
  }

  private async scales(): Promise<Map<string, number>> {
    if (this.dictionary && this.now() - this.dictionary.at < CACHE_MS) return this.dictionary.max
    const { store, schemas } = this.o.database
    const rows = (await schemas.hasCollection('dictionary')) ? await store.find(PLATFORM_ORG, 'dictionary', {}, 1000) : []
    const max = new Map<string, number>()
    for (const d of rows) if (typeof d.code === 'string' && Number.isFinite(Number(d.max))) max.set(d.code, Number(d.max))
    this.dictionary = { at: this.now(), max }
    return max
  }

  async close() {
    await this.flush()
  }
}
