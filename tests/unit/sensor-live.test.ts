import type { Gauge, GaugeKind, SensorCard } from '#app/sensors/board.server'
import { applyReading } from '#app/sensors/live'

const temp: GaugeKind = { code: 'temp', label: 'Air Temperature', short: 'Temp', units: '°F', max: 110, low: 60, med: 80, warn: 85, error: 90 }
const rh: GaugeKind = { code: 'rh', label: 'Relative Humidity', short: 'RH', units: '%', max: 100, low: 40, med: 65, warn: 70, error: 80 }
const codes = { temp, rh }
const H = 3_600_000
const since = Date.parse('2026-11-23T13:00:00.000Z') // history[23] is 2026-11-24T12:00
const iso = (ms: number) => new Date(ms).toISOString()

function card(): SensorCard {
  const history: Array<number | null> = Array(24).fill(null)
  const counts = Array(24).fill(0)
  history[22] = 70
  counts[22] = 4
  history[23] = 72
  counts[23] = 2
  const g: Gauge = { ...temp, value: 72, at: iso(since + 23 * H + 60_000), level: 'low', percent: (72 / 110) * 100, history, counts, since: iso(since) }
  return { deviceID: 'SEN-1', deviceName: 'Flower', location: '', gauges: [g] }
}

describe('a live reading on the Sensors dashboard', () => {
  it('moves the gauge (value, level, fill) and joins the hour’s average', () => {
    const c = applyReading(card(), { deviceID: 'SEN-1', ts: iso(since + 23 * H + 120_000), data: { temp: 87 } }, codes)
    const g = c.gauges[0]
    expect(g).toMatchObject({ value: 87, level: 'warn', percent: (87 / 110) * 100 })
    expect(g.history[23]).toBeCloseTo((72 * 2 + 87) / 3)
    expect(g.counts[23]).toBe(3)
    expect(g.history[22]).toBe(70)
  })

  it('slides the line on when a new hour begins', () => {
    const g = applyReading(card(), { deviceID: 'SEN-1', ts: iso(since + 25 * H + 5), data: { temp: 50 } }, codes).gauges[0]
    expect(g.since).toBe(iso(since + 2 * H))
    expect(g.history.slice(20)).toEqual([70, 72, null, 50])
    expect(g.counts.slice(20)).toEqual([4, 2, 0, 1])
    expect(g).toMatchObject({ value: 50, level: 'below' })
  })

  it('a late reading joins its hour but does not replace the value shown', () => {
    const g = applyReading(card(), { deviceID: 'SEN-1', ts: iso(since + 22 * H + 10), data: { temp: 80 } }, codes).gauges[0]
    expect(g.value).toBe(72)
    expect(g.history[22]).toBe((70 * 4 + 80) / 5)
    expect(g.counts[22]).toBe(5)
  })

  it('a first reading of a code brings its gauge, in code order; unknown codes and other devices change nothing', () => {
    const before = card()
    const c = applyReading(before, { deviceID: 'SEN-1', ts: iso(since + 23 * H + 300_000), data: { rh: 75, nitrogen: 3 } }, codes)
    expect(c.gauges.map((g) => [g.code, g.level])).toEqual([
      ['rh', 'warn'],
      ['temp', 'low'],
    ])
    expect(c.gauges[0].history[23]).toBe(75)
    expect(c.gauges[0].history.filter((h) => h !== null)).toHaveLength(1)
    expect(applyReading(before, { deviceID: 'SEN-2', ts: iso(since + 23 * H), data: { temp: 99 } }, codes)).toBe(before)
    expect(applyReading(before, { deviceID: 'SEN-1', ts: 'not a time', data: { temp: 99 } }, codes)).toBe(before)
  })
})
