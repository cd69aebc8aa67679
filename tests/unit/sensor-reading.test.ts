import { checkReading } from '#app/sensors/reading'

// the seeded dictionary's scales: temp max 110, rh max 100
const scales = new Map([
  ['temp', 110],
  ['rh', 100],
])
const now = Date.parse('2026-11-24T12:00:00.000Z')

describe('sensor reading payload (bus contract)', () => {
  it('takes {type, data, ts?}: an ISO time, epoch ms, or none (now)', () => {
    expect(checkReading({ type: 'reading', data: { temp: 71.5, rh: 40 }, ts: '2026-11-24T11:59:00Z' }, scales, now)).toEqual({
      at: now - 60_000,
      values: [
        { code: 'temp', value: 71.5 },
        { code: 'rh', value: 40 },
      ],
      problems: [],
    })
    expect(checkReading({ type: 'reading', data: { rh: 0 }, ts: now - 5000 }, scales, now)).toMatchObject({ at: now - 5000, values: [{ code: 'rh', value: 0 }], problems: [] })
    expect(checkReading({ type: 'reading', data: { temp: -3 }, extra: 'ignored' }, scales, now)).toMatchObject({ at: now, values: [{ code: 'temp', value: -3 }], problems: [] })
  })

  it.each([
    ['not an object', 'hot', 'body'],
    ['null', null, 'body'],
    ['another type', { type: 'weight', data: { temp: 1 } }, 'type'],
    ['data not an object', { type: 'reading', data: 'hot' }, 'data'],
    ['a code with odd characters', { type: 'reading', data: { "temp'; drop table x; --": 70 } }, "data.temp'; drop table x; --"],
    ['a time in the future', { type: 'reading', data: { temp: 70 }, ts: '2026-11-24T12:05:00Z' }, 'ts'],
    ['a time older than a day', { type: 'reading', data: { temp: 70 }, ts: '2026-11-23T11:59:59Z' }, 'ts'],
    ['a time that is no time', { type: 'reading', data: { temp: 70 }, ts: 'yesterday-ish' }, 'ts'],
    ['an object as time', { type: 'reading', data: { temp: 70 }, ts: { at: 1 } }, 'ts'],
    ['no readings', { type: 'reading', data: {} }, 'data'],
  ])('refuses %s, keeping nothing', (_what, body, field) => {
    const r = checkReading(body, scales, now)
    expect(r.values).toEqual([])
    expect(r.problems.map((p) => p.field)).toEqual([field])
  })

  it('drops unknown codes and implausible values one by one, naming each, and keeps the rest', () => {
    const r = checkReading({ type: 'reading', data: { temp: 70, nitrogen: 5, rh: 'wet', co: Number.NaN } }, scales, now)
    expect(r.values).toEqual([{ code: 'temp', value: 70 }])
    expect(r.problems.map((p) => p.field)).toEqual(['data.nitrogen', 'data.rh', 'data.co'])
    // within ten times the scale, either sign; beyond it, refused
    expect(checkReading({ type: 'reading', data: { temp: 1100, rh: -1000 } }, scales, now).problems).toEqual([])
    expect(checkReading({ type: 'reading', data: { temp: 1100.5 } }, scales, now).problems[0]).toMatchObject({ field: 'data.temp', message: expect.stringContaining('not a plausible temp value') })
    expect(checkReading({ type: 'reading', data: { rh: Number.POSITIVE_INFINITY } }, scales, now).values).toEqual([])
  })
})
