/** Recurring tasks: the RRULE subset, exceptions, wall-clock time across a clock change; the calendar's views. */
import { daysOf, placeInHours, stepDate, titleOf } from './grid'
import { occurrences, parseRule, ruleText, seriesDays } from './recur'

describe('recurrence', () => {
  it('reads and writes the RRULE subset', () => {
    const r = parseRule('RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20260331T235959Z')!
    expect(r).toEqual({ freq: 'WEEKLY', interval: 1, byday: ['MO', 'TH'], until: '2026-03-31' })
    expect(ruleText(r)).toBe('FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20260331T235959Z')
    expect(parseRule('FREQ=YEARLY')).toBeNull()
    expect(parseRule('')).toBeNull()
  })

  it('expands daily, weekly on days, every other week and monthly series', () => {
    expect(seriesDays('2026-03-02', parseRule('FREQ=DAILY;INTERVAL=2')!, '2026-03-09')).toEqual(['2026-03-02', '2026-03-04', '2026-03-06', '2026-03-08'])
    expect(seriesDays('2026-03-02', parseRule('FREQ=WEEKLY;BYDAY=MO,TH')!, '2026-03-12')).toEqual(['2026-03-02', '2026-03-05', '2026-03-09', '2026-03-12'])
    expect(seriesDays('2026-03-02', parseRule('FREQ=WEEKLY;INTERVAL=2;COUNT=3')!, '2026-12-31')).toEqual(['2026-03-02', '2026-03-16', '2026-03-30'])
    expect(seriesDays('2026-01-31', parseRule('FREQ=MONTHLY')!, '2026-05-31')).toEqual(['2026-01-31', '2026-03-31', '2026-05-31'])
  })

  it('keeps the wall-clock time across a clock change and skips exception days', () => {
    const task = { start: '2026-03-02T15:00:00.000Z', end: '2026-03-02T16:00:00.000Z', repeat: 'FREQ=WEEKLY', except: '2026-03-16' } // 07:00 in Los Angeles
    const occ = occurrences(task, '2026-03-01', '2026-03-31', 'America/Los_Angeles')
    expect(occ.map((o) => o.day)).toEqual(['2026-03-02', '2026-03-09', '2026-03-23', '2026-03-30'])
    expect(occ[1].start).toBe('2026-03-09T14:00:00.000Z') // after 8 March: UTC-7
    expect(occ[1].end).toBe('2026-03-09T15:00:00.000Z')
    expect(occurrences({ start: '2026-03-05T10:00:00Z' }, '2026-03-06', '2026-03-31', 'UTC')).toEqual([])
  })
})

describe('views', () => {
  it('a month is six whole weeks from a Sunday; previous and next step by the view', () => {
    const m = daysOf('month', '2026-03-18')
    expect([m[0], m[41], m.length]).toEqual(['2026-03-01', '2026-04-11', 42])
    expect(daysOf('week', '2026-03-18')).toEqual(['2026-03-15', '2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20', '2026-03-21'])
    expect(stepDate('month', '2026-01-31', 1)).toBe('2026-02-01')
    expect(stepDate('week', '2026-03-18', -1)).toBe('2026-03-11')
    expect(titleOf('month', '2026-03-18')).toBe('March 2026')
  })
})

describe('the hourly grid', () => {
  const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07']
  const t = (day: string, startTime: string, endTime: string, lastDay = day, allDay = false) => ({ day, startTime, endTime, lastDay, allDay })
  it('places tasks by start and end, early/late rows, the band, overlaps side by side', () => {
    const s = placeInHours(
      [t('2026-03-02', '09:30', '10:15'), t('2026-03-02', '10:00', '11:00'), t('2026-03-02', '12:00', '13:00'), t('2026-03-03', '03:00', '04:00'), t('2026-03-03', '22:30', '23:00'), t('2026-03-04', '04:00', '06:00'), t('2026-03-06', '00:00', '00:00', '2026-03-09', true), t('2026-02-28', '22:00', '02:00', '2026-03-01')],
      days,
    )
    expect(s[0]).toMatchObject({ kind: 'grid', col: 1, top: 270, height: 45, lane: 0, lanes: 2 })
    expect(s[1]).toMatchObject({ kind: 'grid', col: 1, top: 300, height: 60, lane: 1, lanes: 2 })
    expect(s[2]).toMatchObject({ kind: 'grid', col: 1, top: 420, height: 60, lane: 0, lanes: 1 })
    expect(s[3]).toMatchObject({ kind: 'early', col: 2 })
    expect(s[4]).toMatchObject({ kind: 'late', col: 2 })
    expect(s[5]).toMatchObject({ kind: 'grid', col: 3, top: 0, height: 60 })
    expect(s[6]).toMatchObject({ kind: 'band', col: 5, span: 2 })
    expect(s[7]).toMatchObject({ kind: 'band', col: 0, span: 1 })
  })
})
