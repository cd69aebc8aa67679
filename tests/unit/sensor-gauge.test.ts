import { gaugeLevel, gaugePercent, LEVEL_COLOUR } from '#app/sensors/gauge'

// the seeded dictionary's temperature entry: max 110, low 60, med 80, warn 85, error 90
const temp = { max: 110, low: 60, med: 80, warn: 85, error: 90 }

describe('sensor gauge (SPEC §9)', () => {
  it.each([
    [95, 'error', 'red'],
    [90.01, 'error', 'red'],
    [90, 'warn', 'orange'],
    [86, 'warn', 'orange'],
    [85, 'med', 'yellow'],
    [81, 'med', 'yellow'],
    [80, 'low', 'green'],
    [61, 'low', 'green'],
    [60, 'below', 'blue'],
    [12, 'below', 'blue'],
  ])('%s °F is %s (%s): "above" a threshold means strictly above it', (v, level, colour) => {
    const l = gaugeLevel(v, temp)
    expect(l).toBe(level)
    expect(LEVEL_COLOUR[l]).toBe(colour)
  })
  it('fills value / max, clamped to 0–100 %', () => {
    expect(gaugePercent(55, 110)).toBe(50)
    expect(gaugePercent(220, 110)).toBe(100)
    expect(gaugePercent(-5, 110)).toBe(0)
    expect(gaugePercent(5, 0)).toBe(0)
    expect(gaugePercent(Number.NaN, 10)).toBe(0)
  })
})
