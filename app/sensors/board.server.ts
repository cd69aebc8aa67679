/**
 * What /DshSensors shows (issue 8 item 6): for every sensor device of the facility, a gauge per
 * code it has reported (latest value, level by the dictionary's thresholds) with the last 24 hours
 * as hourly averages for a small chart. Read from the time series (app/sensors/store.server.ts).
 */
import type { AppLoadContext } from '@remix-run/node'
import { PLATFORM_ORG } from '../route-map'
import { gaugeLevel, gaugePercent, type Level, type Thresholds } from './gauge'
import { hourlyHistory, latestReadings } from './store.server'

export interface Gauge extends Thresholds {
  code: string
  label: string
  short: string
  units: string
  value: number
  at: string
  level: Level
  percent: number
  /** hourly averages of the last 24 h, oldest first; null where no reading came that hour */
  history: Array<number | null>
  /** readings behind each hourly average (so a live reading can join it) */
  counts: number[]
  /** the hour history[0] stands for (ISO) */
  since: string
}

export interface SensorCard {
  deviceID: string
  deviceName: string
  location: string
  gauges: Gauge[]
}

/** what a gauge shows besides its value: a dictionary entry (SPEC §3) */
export type GaugeKind = Pick<Gauge, 'code' | 'label' | 'short' | 'units'> & Thresholds

export interface SensorBoard {
  devices: SensorCard[]
  /** the sensor dictionary by code, so a code a device reports for the first time gets its gauge live */
  codes: Record<string, GaugeKind>
  /** the hour the first history point stands for (ISO) */
  since: string
}

const HOUR = 3_600_000
const str = (v: unknown) => (typeof v === 'string' ? v : '')

export async function sensorBoard(context: AppLoadContext, org: string, now = Date.now()): Promise<SensorBoard> {
  const { store, schemas, db } = context.database
  const since = new Date(Math.floor(now / HOUR) * HOUR - 23 * HOUR)
  const [devices, dictionary, latest, history, rooms] = await Promise.all([
    (await schemas.hasCollection('sen_devices')) ? store.find(org, 'sen_devices', { type: 'sensor' }, 500) : [],
    (await schemas.hasCollection('dictionary')) ? store.find(PLATFORM_ORG, 'dictionary', {}, 1000) : [],
    latestReadings(db, org),
    hourlyHistory(db, org, since),
    (await schemas.hasCollection('set_rooms')) ? store.find(org, 'set_rooms', {}, 1000) : [],
  ])
  const codes: Record<string, GaugeKind> = {}
  for (const e of dictionary) {
    const code = str(e.code)
    if (!code) continue
    codes[code] = { code, label: str(e.label) || code, short: str(e.short) || code, units: str(e.units), max: Number(e.max), low: Number(e.low), med: Number(e.med), warn: Number(e.warn), error: Number(e.error) }
  }
  const roomName = new Map(rooms.map((r) => [r._id, str(r.name) || str(r.room) || r._id]))
  const cards: SensorCard[] = []
  for (const d of devices) {
    if (d.IsUsed === 'no') continue
    const deviceID = str(d.deviceID)
    const gauges: Gauge[] = []
    for (const l of latest.filter((x) => x.deviceID === deviceID)) {
      const k = codes[l.code]
      if (!k) continue
      const points = history.get(`${deviceID}\u0000${l.code}`) ?? []
      const byHour = new Map(points.map((p) => [new Date(p.hour).getTime(), p]))
      gauges.push({
        ...k,
        value: l.value,
        at: l.at,
        level: gaugeLevel(l.value, k),
        percent: gaugePercent(l.value, k.max),
        history: Array.from({ length: 24 }, (_, i) => byHour.get(since.getTime() + i * HOUR)?.avg ?? null),
        counts: Array.from({ length: 24 }, (_, i) => byHour.get(since.getTime() + i * HOUR)?.n ?? 0),
        since: since.toISOString(),
      })
    }
    cards.push({ deviceID, deviceName: str(d.deviceName) || deviceID, location: roomName.get(str(d.location)) ?? str(d.location), gauges })
  }
  cards.sort((a, b) => Number(b.gauges.length > 0) - Number(a.gauges.length > 0) || a.deviceName.localeCompare(b.deviceName))
  return { devices: cards, codes, since: since.toISOString() }
}
