/**
 * Sensor readings arriving on the bus (`{org}/bcast/{deviceID}` with type 'reading'; issue 8):
 * checked (a device of that organisation, codes of the sensor dictionary, finite numbers within
 * the code's scale, a time not in the future and at most a day old), batched (flushed every
 * `flushMs` or at `maxBatch` readings) into the time series, then relayed to that organisation's
 * pages as a hub `reading` event. No audit rows: readings are measurements, not edits.
 * What does not pass is logged and dropped; nothing here throws into the bus. The same checks
 * (app/sensors/reading.ts) and batches serve the HTTP door for gateways without MQTT (`submit`,
 * POST /dt/v1/{deviceID}), which refuses instead of dropping.
 */
import type { Logger } from 'pino'
import type { Database } from '../db/index.server'
import { PLATFORM_ORG } from '../route-map'
import type { EventHub } from '../events/event-hub.server'
import { AppError } from '../utils/errors'
import { checkReading } from './reading'
import { writeReadings, type ReadingRow } from './store.server'

const CACHE_MS = 30_000
/** a device not in the list is looked up by itself (it may have just been added), at most this often */
const MISS_MS = 2_000

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
  /** settles when the batch being gathered is stored (the HTTP door waits on it) */
  private pending: Deferred | null = null
  private flushing: Promise<void> = Promise.resolve()
  private devices = new Map<string, { at: number; ids: Set<string> }>()
  /** devices looked up alone and not found, by org and id: when */
  private misses = new Map<string, number>()
  private dictionary: { at: number; max: Map<string, number> } | null = null
  private readonly log: Logger
  private readonly now: () => number
  /** readings stored and dropped since start (tests, the bench) */
  readonly counts = { stored: 0, dropped: 0 }

  constructor(private readonly o: IngestOptions) {
    this.log = o.logger.child({ component: 'sensor-ingest' })
    this.now = o.now ?? Date.now
    // a device changed in this process (its screen, the API): read the organisation's list afresh
    o.database.store.events.on('change', this.onChange)
  }

  private onChange = (e: { org: string; collection: string }) => {
    if (e.collection === 'sen_devices') this.devices.delete(e.org)
    if (e.collection === 'dictionary') this.dictionary = null
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
    if (!(await this.isDevice(org, deviceID))) return this.drop(org, deviceID, 'not a sensor device of this organisation')
    const r = checkReading(body, await this.scales(), this.now())
    for (const p of r.problems) this.drop(org, deviceID, `${p.field}: ${p.message}`)
    if (r.values.length) void this.enqueue(org, deviceID, r.at, r.values)
  }

  /**
   * The HTTP door (POST /dt/v1/{deviceID}): the same checks, but all or nothing — a device of
   * another organisation or none is NOT_FOUND, any problem is BAD_INPUT naming its field and stores
   * nothing. Resolves once the batch holding it is stored (and relayed).
   */
  async submit(org: string, deviceID: string, body: unknown): Promise<{ ts: string; data: Record<string, number> }> {
    if (!(await this.isDevice(org, deviceID))) throw new AppError('NOT_FOUND', 'There is no sensor device with that id in this facility.')
    const r = checkReading(body, await this.scales(), this.now())
    const p = r.problems[0]
    if (p) throw new AppError('BAD_INPUT', `${p.field}: ${p.message}`, { field: p.field })
    await this.enqueue(org, deviceID, r.at, r.values)
    return { ts: new Date(r.at).toISOString(), data: Object.fromEntries(r.values.map((v) => [v.code, v.value])) }
  }

  /** Adds readings to the batch; resolves when that batch is stored, rejects when storing it failed. */
  private enqueue(org: string, deviceID: string, at: number, values: Array<{ code: string; value: number }>): Promise<void> {
    const when = new Date(at).toISOString()
    for (const v of values) this.batch.push({ org, deviceID, code: v.code, at: when, value: v.value })
    this.pending ??= deferred()
    const done = this.pending.promise
    if (this.batch.length >= (this.o.maxBatch ?? 500)) void this.flush()
    else this.timer ??= setTimeout(() => void this.flush(), this.o.flushMs ?? 250)
    return done
  }

  private async isDevice(org: string, deviceID: string): Promise<boolean> {
    const ids = await this.deviceIds(org)
    if (ids.has(deviceID)) return true
    // not in the list: perhaps added since it was read (by another process, so no change event here)
    const k = `${org}\u0000${deviceID}`
    const missed = this.misses.get(k)
    if (missed !== undefined && this.now() - missed < MISS_MS) return false
    const [d] = await this.o.database.store.find(org, 'sen_devices', { deviceID }, 1)
    if (d && d.IsUsed !== 'no') {
      ids.add(deviceID)
      this.misses.delete(k)
      return true
    }
    if (this.misses.size > 10_000) this.misses.clear()
    this.misses.set(k, this.now())
    return false
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
    const waiting = this.pending
    this.batch = []
    this.pending = null
    if (!rows.length) return this.flushing
    this.flushing = this.flushing.then(async () => {
      try {
        this.counts.stored += await writeReadings(this.o.database.db, rows)
      } catch (e) {
        this.counts.dropped += rows.length
        this.log.error({ err: (e as Error).message, readings: rows.length }, 'storing sensor readings failed')
        waiting?.reject(new AppError('UNAVAILABLE', 'the readings could not be stored; try again later'))
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
      waiting?.resolve()
    })
    return this.flushing
  }

  /** the organisation's device ids, read again once the list is older than CACHE_MS or a device changed here */
  private async deviceIds(org: string): Promise<Set<string>> {
    const c = this.devices.get(org)
    if (c && this.now() - c.at < CACHE_MS) return c.ids
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
    this.o.database.store.events.off('change', this.onChange)
    await this.flush()
  }
}

interface Deferred {
  promise: Promise<void>
  resolve: () => void
  reject: (e: Error) => void
}

function deferred(): Deferred {
  let resolve!: () => void
  let reject!: (e: Error) => void
  const promise = new Promise<void>((a, b) => ((resolve = a), (reject = b)))
  promise.catch(() => {}) // the bus does not wait on it; the HTTP door does
  return { promise, resolve, reject }
}
