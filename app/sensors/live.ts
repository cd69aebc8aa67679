/**
 * A reading arriving on the Sensors dashboard (a hub `reading` event, {deviceID, ts, data}): the
 * card's gauges move to the new value and level, the hour's average in the 24 h line takes it in
 * (the line slides on when a new hour begins), and a code the device reports for the first time
 * gets its gauge from the dictionary the board carries. Pure: the browser runs it; tests call it.
 */
import type { Gauge, GaugeKind, SensorCard } from './board.server'
import { gaugeLevel, gaugePercent } from './gauge'

export interface ReadingEvent {
  deviceID: string
  ts: string
  data: Record<string, number>
}

const HOUR = 3_600_000
const SLOTS = 24

/** The gauge's line with one more reading at `at` (ms): its hour's average moves, later hours slide in. */
function withPoint(g: Gauge, at: number, v: number): Pick<Gauge, 'history' | 'counts' | 'since'> {
  let since = Date.parse(g.since)
  let history = g.history
  let counts = g.counts
  let slot = Math.floor((at - since) / HOUR)
  if (!Number.isFinite(slot) || slot < 0) return { history, counts, since: g.since }
  if (slot >= SLOTS) {
    const shift = slot - SLOTS + 1
    history = [...history.slice(shift), ...Array<null>(Math.min(shift, SLOTS)).fill(null)].slice(-SLOTS)
    counts = [...counts.slice(shift), ...Array<number>(Math.min(shift, SLOTS)).fill(0)].slice(-SLOTS)
    since += shift * HOUR
    slot = SLOTS - 1
  }
  const n = counts[slot] ?? 0
  const avg = history[slot]
  history = history.map((h, i) => (i === slot ? (avg === null || !n ? v : (avg * n + v) / (n + 1)) : h))
  counts = counts.map((c, i) => (i === slot ? n + 1 : c))
  return { history, counts, since: new Date(since).toISOString() }
}

export function applyReading(card: SensorCard, r: ReadingEvent, codes: Record<string, GaugeKind>): SensorCard {
  const at = Date.parse(r.ts)
  if (card.deviceID !== r.deviceID || !Number.isFinite(at)) return card
  const gauges = card.gauges.map((g) => {
    const v = r.data[g.code]
    if (typeof v !== 'number') return g
    const line = withPoint(g, at, v)
    // an older reading arriving late joins its hour but does not replace the value shown
    if (r.ts < g.at) return { ...g, ...line }
    return { ...g, ...line, value: v, at: r.ts, level: gaugeLevel(v, g), percent: gaugePercent(v, g.max) }
  })
  for (const [code, v] of Object.entries(r.data)) {
    const k = codes[code]
    if (!k || typeof v !== 'number' || gauges.some((g) => g.code === code)) continue
    const since = new Date(Math.floor(at / HOUR) * HOUR - (SLOTS - 1) * HOUR).toISOString()
    const empty: Gauge = { ...k, value: v, at: r.ts, level: gaugeLevel(v, k), percent: gaugePercent(v, k.max), history: Array(SLOTS).fill(null), counts: Array(SLOTS).fill(0), since }
    gauges.push({ ...empty, ...withPoint(empty, at, v) })
  }
  gauges.sort((a, b) => a.code.localeCompare(b.code))
  return { ...card, gauges }
}
