/**
 * How simulated devices behave (issue 8 item 7), as pure functions of a random source so tests can
 * pin them: a scale's plausible weight, an RFID tag, a sensor's drifting readings with the
 * occasional alarm above the dictionary's warn or error threshold.
 */
export type Random = () => number

export interface DictionaryEntry {
  code: string
  max: number
  low: number
  med: number
  warn: number
  error: number
}

/** codes a simulated climate sensor reports (those of them the dictionary knows) */
export const SENSOR_CODES = ['temp', 'rh', 'co2', 'vpd']

/** A bin of plant material on a floor scale: 0.5–40 lb, two decimals. */
export function scaleWeight(rnd: Random): { weight: number; unit: 'lb' } {
  return { weight: Math.round((0.5 + rnd() * 39.5) * 100) / 100, unit: 'lb' }
}

/** A 24-character METRC-style tag (1A4 + facility digits + serial). */
export function rfidTag(rnd: Random): string {
  let s = '1A40603000'
  while (s.length < 24) s += Math.floor(rnd() * 10)
  return s
}

const round = (v: number, max: number) => (max <= 10 ? Math.round(v * 100) / 100 : Math.round(v * 10) / 10)

/**
 * One sensor's readings over time: each code starts between its low and med thresholds and drifts
 * a little each step, pulled back towards that band; about one step in `alarmEvery` one code jumps
 * above warn (or, one time in three, above error) for that reading only.
 */
export class SensorDrift {
  private values = new Map<string, number>()
  constructor(
    private readonly dictionary: DictionaryEntry[],
    private readonly rnd: Random,
    private readonly alarmEvery = 40,
  ) {
    for (const d of dictionary) this.values.set(d.code, d.low + (d.med - d.low) * (0.3 + rnd() * 0.4))
  }

  next(): Record<string, number> {
    const out: Record<string, number> = {}
    const alarm = this.dictionary.length && this.rnd() < 1 / this.alarmEvery ? this.dictionary[Math.floor(this.rnd() * this.dictionary.length)].code : null
    for (const d of this.dictionary) {
      const span = Math.max(d.med - d.low, 1e-6)
      const centre = (d.low + d.med) / 2
      let v = this.values.get(d.code)!
      v += (this.rnd() - 0.5) * span * 0.1 + (centre - v) * 0.05
      v = Math.min(d.max, Math.max(0, v))
      this.values.set(d.code, v)
      let shown = v
      if (alarm === d.code) {
        const above = this.rnd() < 1 / 3 ? d.error : d.warn
        shown = Math.min(d.max, above + (d.max - above) * 0.2 * this.rnd() + span * 0.01)
      }
      out[d.code] = round(shown, d.max)
    }
    return out
  }
}

/** A seeded random source, so a run can be repeated (the demo seed's). */
export { mulberry32 as seeded } from '../../seed/kit'
