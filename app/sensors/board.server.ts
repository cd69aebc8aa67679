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
}

export interface SensorCard {
  deviceID: string
  deviceName: string
  location: string
  gauges: Gauge[]
}

export interface SensorBoard {
  devices: SensorCard[]
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
  const dict = new Map(dictionary.map((d) => [str(d.code), d]))
  const roomName = new Map(rooms.map((r) => [r._id, str(r.name) || str(r.room) || r._id]))
  const cards: SensorCard[] = []
  for (const d of devices) {
    if (d.IsUsed === 'no') continue
    const deviceID = str(d.deviceID)
    const gauges: Gauge[] = []
    for (const l of latest.filter((x) => x.deviceID === deviceID)) {
      const e = dict.get(l.code)
      if (!e) continue
      const t: Thresholds = { max: Number(e.max), low: Number(e.low), med: Number(e.med), warn: Number(e.warn), error: Number(e.error) }
      const points = history.get(`${deviceID}\u0000${l.code}`) ?? []
      const byHour = new Map(points.map((p) => [new Date(p.hour).getTime(), p.avg]))
      gauges.push({
        code: l.code,
        label: str(e.label) || l.code,
        short: str(e.short) || l.code,
        units: str(e.units),
        value: l.value,
        at: l.at,
        ...t,
        level: gaugeLevel(l.value, t),
        percent: gaugePercent(l.value, t.max),
        history: Array.from({ length: 24 }, (_, i) => byHour.get(since.getTime() + i * HOUR) ?? null),
      })
    }
    cards.push({ deviceID, deviceName: str(d.deviceName) || deviceID, location: roomName.get(str(d.location)) ?? str(d.location), gauges })
  }
  cards.sort((a, b) => Number(b.gauges.length > 0) - Number(a.gauges.length > 0) || a.deviceName.localeCompare(b.deviceName))
  return { devices: cards, since: since.toISOString() }
}
