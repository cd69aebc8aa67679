/** Date-range shortcuts and custom ranges in the facility's zone: half-open [from, to) UTC instants, weeks from Sunday, across clock changes. */
import {
  DATE_SHORTCUTS, SHORTCUT_LABELS, addDays, customRange, isDateShortcut, isIsoDate, localDate, shortcutRange, zonedMidnight,
  type DateShortcut, type InstantRange,
} from '#app/format/date-ranges'

const LA = 'America/Los_Angeles'
const KOLKATA = 'Asia/Kolkata'
const AUCKLAND = 'Pacific/Auckland'
const HOUR = 3_600_000

const all = (now: string, timeZone: string) => Object.fromEntries(DATE_SHORTCUTS.map((n) => [n, shortcutRange(n, new Date(now), timeZone)])) as Record<DateShortcut, InstantRange>
const r = (from: string, to: string): InstantRange => ({ from, to })
const hours = ({ from, to }: InstantRange) => (Date.parse(to) - Date.parse(from)) / HOUR

describe('shortcut names and labels', () => {
  it('labels every shortcut, in order', () => {
    expect(DATE_SHORTCUTS.map((n) => SHORTCUT_LABELS[n])).toEqual([
      'Today', 'Yesterday', 'This week', 'Last week', 'Last 7 days', 'Last 30 days', 'This month', 'Last month', 'This year', 'Last year',
    ])
    expect(Object.keys(SHORTCUT_LABELS).sort()).toEqual([...DATE_SHORTCUTS].sort())
  })
  it('recognises shortcut names', () => {
    expect(isDateShortcut('last-7-days')).toBe(true)
    expect(isDateShortcut('Last 7 days')).toBe(false)
    expect(isDateShortcut('toString')).toBe(false)
    expect(isDateShortcut(undefined)).toBe(false)
  })
  it('refuses an unknown shortcut at run time', () => {
    expect(() => shortcutRange('tomorrow' as DateShortcut, new Date('2026-03-11T12:00:00Z'), 'UTC')).toThrow(RangeError)
  })
})

describe('shortcutRange in America/Los_Angeles', () => {
  // PST (UTC-8) until 2026-03-08 02:00, then PDT (UTC-7): local midnight is 08:00Z, then 07:00Z
  it('just after local midnight (Wed 2026-03-11 00:10 PDT)', () => {
    expect(all('2026-03-11T07:10:00Z', LA)).toEqual({
      today: r('2026-03-11T07:00:00.000Z', '2026-03-12T07:00:00.000Z'),
      yesterday: r('2026-03-10T07:00:00.000Z', '2026-03-11T07:00:00.000Z'),
      'this-week': r('2026-03-08T08:00:00.000Z', '2026-03-15T07:00:00.000Z'),
      'last-week': r('2026-03-01T08:00:00.000Z', '2026-03-08T08:00:00.000Z'),
      'last-7-days': r('2026-03-05T08:00:00.000Z', '2026-03-12T07:00:00.000Z'),
      'last-30-days': r('2026-02-10T08:00:00.000Z', '2026-03-12T07:00:00.000Z'),
      'this-month': r('2026-03-01T08:00:00.000Z', '2026-04-01T07:00:00.000Z'),
      'last-month': r('2026-02-01T08:00:00.000Z', '2026-03-01T08:00:00.000Z'),
      'this-year': r('2026-01-01T08:00:00.000Z', '2027-01-01T08:00:00.000Z'),
      'last-year': r('2025-01-01T08:00:00.000Z', '2026-01-01T08:00:00.000Z'),
    })
  })
  it('just before local midnight, when UTC is already the next day (Tue 2026-03-10 23:50 PDT = 03-11 06:50Z)', () => {
    expect(all('2026-03-11T06:50:00Z', LA)).toEqual({
      today: r('2026-03-10T07:00:00.000Z', '2026-03-11T07:00:00.000Z'),
      yesterday: r('2026-03-09T07:00:00.000Z', '2026-03-10T07:00:00.000Z'),
      'this-week': r('2026-03-08T08:00:00.000Z', '2026-03-15T07:00:00.000Z'),
      'last-week': r('2026-03-01T08:00:00.000Z', '2026-03-08T08:00:00.000Z'),
      'last-7-days': r('2026-03-04T08:00:00.000Z', '2026-03-11T07:00:00.000Z'),
      'last-30-days': r('2026-02-09T08:00:00.000Z', '2026-03-11T07:00:00.000Z'),
      'this-month': r('2026-03-01T08:00:00.000Z', '2026-04-01T07:00:00.000Z'),
      'last-month': r('2026-02-01T08:00:00.000Z', '2026-03-01T08:00:00.000Z'),
      'this-year': r('2026-01-01T08:00:00.000Z', '2027-01-01T08:00:00.000Z'),
      'last-year': r('2025-01-01T08:00:00.000Z', '2026-01-01T08:00:00.000Z'),
    })
  })
  it('on New Year’s Eve, when UTC is already in the new year (2025-12-31 23:59 PST = 2026-01-01 07:59Z)', () => {
    expect(all('2026-01-01T07:59:00Z', LA)).toEqual({
      today: r('2025-12-31T08:00:00.000Z', '2026-01-01T08:00:00.000Z'),
      yesterday: r('2025-12-30T08:00:00.000Z', '2025-12-31T08:00:00.000Z'),
      'this-week': r('2025-12-28T08:00:00.000Z', '2026-01-04T08:00:00.000Z'),
      'last-week': r('2025-12-21T08:00:00.000Z', '2025-12-28T08:00:00.000Z'),
      'last-7-days': r('2025-12-25T08:00:00.000Z', '2026-01-01T08:00:00.000Z'),
      'last-30-days': r('2025-12-02T08:00:00.000Z', '2026-01-01T08:00:00.000Z'),
      'this-month': r('2025-12-01T08:00:00.000Z', '2026-01-01T08:00:00.000Z'),
      'last-month': r('2025-11-01T07:00:00.000Z', '2025-12-01T08:00:00.000Z'), // 2025-11-01 is still PDT
      'this-year': r('2025-01-01T08:00:00.000Z', '2026-01-01T08:00:00.000Z'),
      'last-year': r('2024-01-01T08:00:00.000Z', '2025-01-01T08:00:00.000Z'),
    })
  })
  it('has a 23-hour day when the clocks spring forward (2026-03-08)', () => {
    const now = new Date('2026-03-08T19:00:00Z') // Sun 12:00 PDT
    expect(shortcutRange('today', now, LA)).toEqual(r('2026-03-08T08:00:00.000Z', '2026-03-09T07:00:00.000Z'))
    expect(hours(shortcutRange('today', now, LA))).toBe(23)
    expect(shortcutRange('yesterday', new Date('2026-03-09T19:00:00Z'), LA)).toEqual(r('2026-03-08T08:00:00.000Z', '2026-03-09T07:00:00.000Z'))
    expect(hours(shortcutRange('this-week', now, LA))).toBe(7 * 24 - 1)
    expect(hours(shortcutRange('last-week', now, LA))).toBe(7 * 24)
    // during the hour before the jump (01:30 PST) it is the same day
    expect(shortcutRange('today', new Date('2026-03-08T09:30:00Z'), LA)).toEqual(r('2026-03-08T08:00:00.000Z', '2026-03-09T07:00:00.000Z'))
  })
  it('has a 25-hour day when the clocks fall back (2026-11-01)', () => {
    const now = new Date('2026-11-01T20:00:00Z') // Sun 12:00 PST
    expect(shortcutRange('today', now, LA)).toEqual(r('2026-11-01T07:00:00.000Z', '2026-11-02T08:00:00.000Z'))
    expect(hours(shortcutRange('today', now, LA))).toBe(25)
    expect(shortcutRange('this-month', now, LA)).toEqual(r('2026-11-01T07:00:00.000Z', '2026-12-01T08:00:00.000Z'))
    expect(shortcutRange('last-month', now, LA)).toEqual(r('2026-10-01T07:00:00.000Z', '2026-11-01T07:00:00.000Z'))
    // 01:30 happens twice; both are 2026-11-01
    expect(shortcutRange('today', new Date('2026-11-01T08:30:00Z'), LA)).toEqual(shortcutRange('today', new Date('2026-11-01T09:30:00Z'), LA))
  })
})

describe('shortcutRange in UTC', () => {
  it('uses the UTC date (2026-03-11 06:50Z, a Wednesday)', () => {
    expect(all('2026-03-11T06:50:00Z', 'UTC')).toEqual({
      today: r('2026-03-11T00:00:00.000Z', '2026-03-12T00:00:00.000Z'),
      yesterday: r('2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'),
      'this-week': r('2026-03-08T00:00:00.000Z', '2026-03-15T00:00:00.000Z'),
      'last-week': r('2026-03-01T00:00:00.000Z', '2026-03-08T00:00:00.000Z'),
      'last-7-days': r('2026-03-05T00:00:00.000Z', '2026-03-12T00:00:00.000Z'),
      'last-30-days': r('2026-02-10T00:00:00.000Z', '2026-03-12T00:00:00.000Z'),
      'this-month': r('2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'),
      'last-month': r('2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'),
      'this-year': r('2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'),
      'last-year': r('2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
    })
  })
  it('in the first and last millisecond of a day', () => {
    expect(shortcutRange('today', new Date('2026-03-11T00:00:00.000Z'), 'UTC')).toEqual(r('2026-03-11T00:00:00.000Z', '2026-03-12T00:00:00.000Z'))
    expect(shortcutRange('today', new Date('2026-03-10T23:59:59.999Z'), 'UTC')).toEqual(r('2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'))
  })
  it('on New Year’s Day', () => {
    const t = all('2026-01-01T07:59:00Z', 'UTC')
    expect(t.today).toEqual(r('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z'))
    expect(t['this-month']).toEqual(r('2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'))
    expect(t['last-month']).toEqual(r('2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'))
    expect(t['this-year']).toEqual(r('2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'))
    expect(t['last-year']).toEqual(r('2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'))
  })
  it('counts 29 February in a leap year', () => {
    const t = all('2028-03-15T12:00:00Z', 'UTC')
    expect(t['last-30-days']).toEqual(r('2028-02-15T00:00:00.000Z', '2028-03-16T00:00:00.000Z'))
    expect(t['last-month']).toEqual(r('2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'))
    expect(hours(t['last-month'])).toBe(29 * 24)
  })
})

describe('shortcutRange in Asia/Kolkata (UTC+05:30)', () => {
  it('just after local midnight, while UTC is still the day before (Wed 2026-03-11 00:30 IST = 03-10 19:00Z)', () => {
    expect(all('2026-03-10T19:00:00Z', KOLKATA)).toEqual({
      today: r('2026-03-10T18:30:00.000Z', '2026-03-11T18:30:00.000Z'),
      yesterday: r('2026-03-09T18:30:00.000Z', '2026-03-10T18:30:00.000Z'),
      'this-week': r('2026-03-07T18:30:00.000Z', '2026-03-14T18:30:00.000Z'),
      'last-week': r('2026-02-28T18:30:00.000Z', '2026-03-07T18:30:00.000Z'),
      'last-7-days': r('2026-03-04T18:30:00.000Z', '2026-03-11T18:30:00.000Z'),
      'last-30-days': r('2026-02-09T18:30:00.000Z', '2026-03-11T18:30:00.000Z'),
      'this-month': r('2026-02-28T18:30:00.000Z', '2026-03-31T18:30:00.000Z'),
      'last-month': r('2026-01-31T18:30:00.000Z', '2026-02-28T18:30:00.000Z'),
      'this-year': r('2025-12-31T18:30:00.000Z', '2026-12-31T18:30:00.000Z'),
      'last-year': r('2024-12-31T18:30:00.000Z', '2025-12-31T18:30:00.000Z'),
    })
  })
  it('just before local midnight (Tue 2026-03-10 23:30 IST = 18:00Z)', () => {
    expect(shortcutRange('today', new Date('2026-03-10T18:00:00Z'), KOLKATA)).toEqual(r('2026-03-09T18:30:00.000Z', '2026-03-10T18:30:00.000Z'))
    expect(shortcutRange('this-week', new Date('2026-03-10T18:00:00Z'), KOLKATA)).toEqual(r('2026-03-07T18:30:00.000Z', '2026-03-14T18:30:00.000Z'))
  })
})

describe('weeks start on Sunday', () => {
  it('on a Sunday, this week starts today', () => {
    const now = new Date('2026-03-08T19:00:00Z') // Sun 2026-03-08 12:00 PDT
    expect(shortcutRange('this-week', now, LA)).toEqual(r('2026-03-08T08:00:00.000Z', '2026-03-15T07:00:00.000Z'))
    expect(shortcutRange('last-week', now, LA)).toEqual(r('2026-03-01T08:00:00.000Z', '2026-03-08T08:00:00.000Z'))
    expect(shortcutRange('this-week', new Date('2026-03-08T12:00:00Z'), 'UTC')).toEqual(r('2026-03-08T00:00:00.000Z', '2026-03-15T00:00:00.000Z'))
  })
  it('on a Saturday, this week started six days ago', () => {
    const now = new Date('2026-03-07T20:00:00Z') // Sat 2026-03-07 12:00 PST
    expect(shortcutRange('this-week', now, LA)).toEqual(r('2026-03-01T08:00:00.000Z', '2026-03-08T08:00:00.000Z'))
    expect(shortcutRange('last-week', now, LA)).toEqual(r('2026-02-22T08:00:00.000Z', '2026-03-01T08:00:00.000Z'))
    expect(shortcutRange('this-week', new Date('2026-03-07T12:00:00Z'), 'UTC')).toEqual(r('2026-03-01T00:00:00.000Z', '2026-03-08T00:00:00.000Z'))
  })
  it("by the facility's calendar, not UTC's", () => {
    const satNight = new Date('2026-03-08T07:55:00Z') // Sat 23:55 PST, already Sunday in UTC
    expect(shortcutRange('this-week', satNight, LA)).toEqual(r('2026-03-01T08:00:00.000Z', '2026-03-08T08:00:00.000Z'))
    expect(shortcutRange('this-week', satNight, 'UTC')).toEqual(r('2026-03-08T00:00:00.000Z', '2026-03-15T00:00:00.000Z'))
    const sunMorning = new Date('2026-03-08T08:05:00Z') // Sun 00:05 PST
    expect(shortcutRange('this-week', sunMorning, LA)).toEqual(r('2026-03-08T08:00:00.000Z', '2026-03-15T07:00:00.000Z'))
  })
})

describe('ranges fit together', () => {
  const zones = [LA, 'UTC', KOLKATA, AUCKLAND, 'America/Havana', 'America/Santiago', 'Asia/Kathmandu', 'Pacific/Kiritimati', 'Asia/Amman', 'America/Nuuk']
  const nows = ['2026-03-08T08:00:00Z', '2026-03-11T06:50:00Z', '2026-04-04T23:59:59.999Z', '2026-09-26T12:00:00Z', '2026-11-01T04:30:00Z', '2026-12-31T23:00:00Z']
  nows.push('2021-10-28T21:30:00Z', '2026-03-29T01:30:00Z', '2026-10-25T00:30:00Z') // Amman's doubled midnight, Nuuk's changes
  it('this day, week, month and year hold now; the last ones end where these start', () => {
    for (const z of zones)
      for (const s of nows) {
        const now = Date.parse(s)
        const t = all(s, z)
        for (const n of DATE_SHORTCUTS) expect(Date.parse(t[n].from), `${n} ${s} ${z}`).toBeLessThan(Date.parse(t[n].to))
        for (const n of ['today', 'this-week', 'this-month', 'this-year', 'last-7-days', 'last-30-days'] as const) {
          expect(Date.parse(t[n].from), `${n} ${s} ${z}`).toBeLessThanOrEqual(now)
          expect(Date.parse(t[n].to), `${n} ${s} ${z}`).toBeGreaterThan(now)
        }
        expect(t.yesterday.to).toBe(t.today.from)
        expect(t['last-week'].to).toBe(t['this-week'].from)
        expect(t['last-month'].to).toBe(t['this-month'].from)
        expect(t['last-year'].to).toBe(t['this-year'].from)
        expect(t['last-7-days'].to).toBe(t.today.to)
        expect(t['last-30-days'].to).toBe(t.today.to)
        expect(localDate(new Date(t.today.from), z)).toBe(localDate(new Date(now), z))
      }
  }, 30_000) // every zone × every instant: seconds of CPU on a loaded machine
})

describe('zonedMidnight', () => {
  it('in Los Angeles, across both clock changes', () => {
    expect(zonedMidnight('2026-03-07', LA).toISOString()).toBe('2026-03-07T08:00:00.000Z')
    expect(zonedMidnight('2026-03-08', LA).toISOString()).toBe('2026-03-08T08:00:00.000Z')
    expect(zonedMidnight('2026-03-09', LA).toISOString()).toBe('2026-03-09T07:00:00.000Z')
    expect(zonedMidnight('2026-11-01', LA).toISOString()).toBe('2026-11-01T07:00:00.000Z')
    expect(zonedMidnight('2026-11-02', LA).toISOString()).toBe('2026-11-02T08:00:00.000Z')
  })
  it('east of UTC: Kolkata, and Auckland across both of its clock changes', () => {
    expect(zonedMidnight('2026-03-08', KOLKATA).toISOString()).toBe('2026-03-07T18:30:00.000Z')
    expect(zonedMidnight('2026-01-01', 'Asia/Kathmandu').toISOString()).toBe('2025-12-31T18:15:00.000Z')
    // NZDT (+13) ends 2026-04-05 03:00 → 02:00 NZST (+12): a 25-hour day
    expect(zonedMidnight('2026-04-05', AUCKLAND).toISOString()).toBe('2026-04-04T11:00:00.000Z')
    expect(zonedMidnight('2026-04-06', AUCKLAND).toISOString()).toBe('2026-04-05T12:00:00.000Z')
    // NZST (+12) becomes NZDT (+13) 2026-09-27 02:00 → 03:00: a 23-hour day
    expect(zonedMidnight('2026-09-27', AUCKLAND).toISOString()).toBe('2026-09-26T12:00:00.000Z')
    expect(zonedMidnight('2026-09-28', AUCKLAND).toISOString()).toBe('2026-09-27T11:00:00.000Z')
    expect(zonedMidnight('2026-01-01', 'Pacific/Kiritimati').toISOString()).toBe('2025-12-31T10:00:00.000Z') // UTC+14
  })
  it('west of UTC, when the clocks change the evening before (America/Nuuk, at 01:00Z)', () => {
    // Sat 2026-03-28 23:00 (-2) becomes Sun 00:00 (-1): Saturday has 23 hours
    expect(zonedMidnight('2026-03-28', 'America/Nuuk').toISOString()).toBe('2026-03-28T02:00:00.000Z')
    expect(zonedMidnight('2026-03-29', 'America/Nuuk').toISOString()).toBe('2026-03-29T01:00:00.000Z')
    // Sat 2026-10-24 24:00 (-1) becomes 23:00 (-2) again: Saturday has 25 hours
    expect(zonedMidnight('2026-10-24', 'America/Nuuk').toISOString()).toBe('2026-10-24T01:00:00.000Z')
    expect(zonedMidnight('2026-10-25', 'America/Nuuk').toISOString()).toBe('2026-10-25T02:00:00.000Z')
  })
  it('where the clocks skip midnight, the day starts at 01:00', () => {
    // Cuba springs forward at 00:00 CST (-5) to 01:00 CDT (-4)
    expect(zonedMidnight('2026-03-07', 'America/Havana').toISOString()).toBe('2026-03-07T05:00:00.000Z')
    expect(zonedMidnight('2026-03-08', 'America/Havana').toISOString()).toBe('2026-03-08T05:00:00.000Z')
    expect(zonedMidnight('2026-03-09', 'America/Havana').toISOString()).toBe('2026-03-09T04:00:00.000Z')
    // Chile: Saturday 24:00 (-4) becomes Sunday 01:00 (-3)
    expect(zonedMidnight('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z')
  })
  it('where midnight happens twice, the first one', () => {
    // Cuba falls back at 01:00 CDT (-4) to 00:00 CST (-5)
    expect(zonedMidnight('2026-11-01', 'America/Havana').toISOString()).toBe('2026-11-01T04:00:00.000Z')
    expect(zonedMidnight('2026-11-02', 'America/Havana').toISOString()).toBe('2026-11-02T05:00:00.000Z')
    // east of UTC: Jordan fell back at 01:00 EEST (+3) to 00:00 EET (+2) on 2021-10-29
    expect(zonedMidnight('2021-10-29', 'Asia/Amman').toISOString()).toBe('2021-10-28T21:00:00.000Z')
    expect(zonedMidnight('2021-10-30', 'Asia/Amman').toISOString()).toBe('2021-10-29T22:00:00.000Z')
    expect(shortcutRange('today', new Date('2021-10-28T21:30:00Z'), 'Asia/Amman')).toEqual(r('2021-10-28T21:00:00.000Z', '2021-10-29T22:00:00.000Z'))
  })
  it('handles years before 100, which Date.UTC would read as 19xx', () => {
    expect(zonedMidnight('0050-03-01', 'UTC').toISOString()).toBe('0050-03-01T00:00:00.000Z')
  })
  it('refuses what is not a YYYY-MM-DD date', () => {
    expect(() => zonedMidnight('2026-02-30', 'UTC')).toThrow(RangeError)
    expect(() => zonedMidnight('2026-03-08T00:00:00Z', 'UTC')).toThrow(RangeError)
  })
})

describe('localDate', () => {
  it("is the instant's calendar day in the zone", () => {
    const t = new Date('2026-03-11T06:50:00Z')
    expect(localDate(t, LA)).toBe('2026-03-10')
    expect(localDate(t, 'UTC')).toBe('2026-03-11')
    expect(localDate(new Date('2026-03-10T19:00:00Z'), KOLKATA)).toBe('2026-03-11')
    expect(localDate(new Date('2026-03-10T18:29:59.999Z'), KOLKATA)).toBe('2026-03-10')
    expect(localDate(new Date('2026-03-08T07:59:59.999Z'), LA)).toBe('2026-03-07')
    expect(localDate(new Date('2026-03-08T08:00:00.000Z'), LA)).toBe('2026-03-08')
  })
  it('refuses an invalid Date', () => {
    expect(() => localDate(new Date('nope'), 'UTC')).toThrow(RangeError)
  })
})

describe('addDays', () => {
  it('is calendar arithmetic across months, years and leap days', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
    expect(addDays('2026-01-31', 30)).toBe('2026-03-02')
    expect(addDays('2026-03-08', 0)).toBe('2026-03-08')
    expect(addDays('2026-03-08', 365)).toBe('2027-03-08')
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01')
  })
  it('refuses a bad date and a result outside 0001–9999', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError)
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError)
    expect(() => addDays('0001-01-01', -1)).toThrow(RangeError)
  })
})

describe('customRange', () => {
  it('includes the last day: to is the start of the day after', () => {
    expect(customRange('2026-03-01', '2026-03-07', LA)).toEqual(r('2026-03-01T08:00:00.000Z', '2026-03-08T08:00:00.000Z'))
    expect(customRange('2026-03-11', '2026-03-11', 'UTC')).toEqual(r('2026-03-11T00:00:00.000Z', '2026-03-12T00:00:00.000Z'))
    expect(customRange('2026-12-31', '2026-12-31', 'UTC')).toEqual(r('2026-12-31T00:00:00.000Z', '2027-01-01T00:00:00.000Z'))
    expect(customRange('2026-01-01', '2026-01-31', KOLKATA)).toEqual(r('2025-12-31T18:30:00.000Z', '2026-01-31T18:30:00.000Z'))
  })
  it('across a clock change', () => {
    const day = customRange('2026-03-08', '2026-03-08', LA) as InstantRange
    expect(day).toEqual(r('2026-03-08T08:00:00.000Z', '2026-03-09T07:00:00.000Z'))
    expect(hours(day)).toBe(23)
  })
  it('leaves a missing or malformed side open', () => {
    expect(customRange(undefined, '2026-03-10', LA)).toEqual({ to: '2026-03-11T07:00:00.000Z' })
    expect(customRange('2026-03-10', undefined, LA)).toEqual({ from: '2026-03-10T07:00:00.000Z' })
    expect(customRange(undefined, undefined, LA)).toEqual({})
    expect(customRange('', '', LA)).toEqual({})
    expect(customRange('2026-02-30', '03/10/2026', LA)).toEqual({})
    expect(customRange('2026-03-01', '9999-12-31', 'UTC')).toEqual({ from: '2026-03-01T00:00:00.000Z' })
  })
})

describe('isIsoDate', () => {
  it('accepts real YYYY-MM-DD days', () => {
    for (const s of ['2026-03-08', '2026-12-31', '2028-02-29', '2000-02-29', '0001-01-01', '9999-12-31']) expect(isIsoDate(s), s).toBe(true)
  })
  it('refuses impossible days and other shapes', () => {
    for (const s of [
      '2026-02-29', '2026-02-30', '2026-04-31', '1900-02-29', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01',
      '2026-1-5', '26-01-05', '2026/01/05', '20260105', ' 2026-01-05', '2026-01-05 ', '2026-01-05T00:00:00Z', '', '２０２６-01-05',
    ])
      expect(isIsoDate(s), s).toBe(false)
  })
})

describe('an unknown time zone', () => {
  it('is read as UTC, without throwing', () => {
    const now = new Date('2026-03-11T06:50:00Z')
    for (const z of ['Mars/Olympus_Mons', '', 'not a zone']) {
      expect(all('2026-03-11T06:50:00Z', z)).toEqual(all('2026-03-11T06:50:00Z', 'UTC'))
      expect(shortcutRange('today', now, z)).toEqual(r('2026-03-11T00:00:00.000Z', '2026-03-12T00:00:00.000Z'))
      expect(localDate(now, z)).toBe('2026-03-11')
      expect(zonedMidnight('2026-03-08', z).toISOString()).toBe('2026-03-08T00:00:00.000Z')
      expect(customRange('2026-03-01', '2026-03-07', z)).toEqual(r('2026-03-01T00:00:00.000Z', '2026-03-08T00:00:00.000Z'))
    }
  })
  it('does not spoil a real zone used afterwards', () => {
    expect(localDate(new Date('2026-03-11T06:50:00Z'), 'Nowhere/Else')).toBe('2026-03-11')
    expect(localDate(new Date('2026-03-11T06:50:00Z'), LA)).toBe('2026-03-10')
  })
})
