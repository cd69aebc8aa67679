/** SPEC §9 formats: dates, currency, measures, trim, check cells, tags, gauges; and the cell dispatcher of SPEC §2.5. */
import {
  formatCell, formatCheck, formatCount, formatCurrency, formatDate, formatDateTime, formatMeasure, formatNumber, formatTaxState,
  gaugeColour, gaugePercent, isYes, padNumber, trimText,
} from '#app/format/format'

const LA = { timeZone: 'America/Los_Angeles' }

describe('dates: MM/DD/YYYY hh:mm A', () => {
  it('formats in UTC by default', () => {
    expect(formatDateTime('2026-03-07T14:05:00Z')).toBe('03/07/2026 02:05 PM')
    expect(formatDateTime('2026-03-07T14:05:00.123Z', { timeZone: '' })).toBe('03/07/2026 02:05 PM')
    expect(formatDate('2026-12-31T23:59:59Z')).toBe('12/31/2026')
  })
  it('uses a 12-hour clock: midnight is 12:00 AM, noon 12:00 PM', () => {
    expect(formatDateTime('2026-03-07T00:00:00Z')).toBe('03/07/2026 12:00 AM')
    expect(formatDateTime('2026-03-07T00:59:00Z')).toBe('03/07/2026 12:59 AM')
    expect(formatDateTime('2026-03-07T11:59:00Z')).toBe('03/07/2026 11:59 AM')
    expect(formatDateTime('2026-03-07T12:00:00Z')).toBe('03/07/2026 12:00 PM')
    expect(formatDateTime('2026-03-07T23:59:00Z')).toBe('03/07/2026 11:59 PM')
  })
  it('accepts Date, epoch milliseconds and the ISO forms PostgreSQL prints', () => {
    const t = Date.UTC(2026, 0, 2, 9, 3)
    expect(formatDateTime(t)).toBe('01/02/2026 09:03 AM')
    expect(formatDateTime(new Date(t))).toBe('01/02/2026 09:03 AM')
    expect(formatDateTime('2026-01-02 09:03:00+00')).toBe('01/02/2026 09:03 AM')
    expect(formatDateTime('2026-01-02T09:03:00+05:30')).toBe('01/02/2026 03:33 AM')
    expect(formatDateTime('2026-01-02T01:03:00-0800')).toBe('01/02/2026 09:03 AM')
  })
  it("shows instants in the facility's zone, across daylight saving", () => {
    expect(formatDateTime('2026-01-15T20:30:00Z', LA)).toBe('01/15/2026 12:30 PM') // PST, UTC-8
    expect(formatDateTime('2026-07-15T20:30:00Z', LA)).toBe('07/15/2026 01:30 PM') // PDT, UTC-7
    // 2026-03-08 is the spring-forward day: 2 AM PST becomes 3 AM PDT
    expect(formatDateTime('2026-03-08T09:59:00Z', LA)).toBe('03/08/2026 01:59 AM')
    expect(formatDateTime('2026-03-08T10:00:00Z', LA)).toBe('03/08/2026 03:00 AM')
    expect(formatDateTime('2026-03-08T08:00:00Z', LA)).toBe('03/08/2026 12:00 AM')
    expect(formatDateTime('2026-03-08T20:00:00Z', LA)).toBe('03/08/2026 01:00 PM')
    expect(formatDate('2026-03-08T06:00:00Z', LA)).toBe('03/07/2026')
    expect(formatDate('2026-03-08T06:00:00Z', { timeZone: 'Asia/Tokyo' })).toBe('03/08/2026')
  })
  it('shows a date-only value as its calendar day, and a value without offset as written, in any zone', () => {
    expect(formatDate('2026-03-07', LA)).toBe('03/07/2026')
    expect(formatDateTime('2026-03-07', LA)).toBe('03/07/2026')
    expect(formatDateTime('2026-03-07T14:05', LA)).toBe('03/07/2026 02:05 PM')
    expect(formatDateTime('2026-03-07T00:00:00', LA)).toBe('03/07/2026 12:00 AM')
  })
  it('gives nothing, never "Invalid Date" and never a throw, for what is not a date', () => {
    const bad = [null, undefined, '', ' ', 'yesterday', 'Invalid Date', '1', '12', '2026-02-30', '2026-13-01T00:00:00Z', '2026-03-07T25:00',
      Number.NaN, Number.POSITIVE_INFINITY, new Date('nope'), 8.64e15 + 1, {}, [], true]
    for (const v of bad) {
      expect(formatDateTime(v), String(v)).toBe('')
      expect(formatDate(v), String(v)).toBe('')
    }
    expect(formatDateTime('2026-03-07T14:05:00Z', { timeZone: 'Mars/Olympus_Mons' })).toBe('')
  })
})

describe('currency: USD, two decimals', () => {
  it('formats with separators and a leading minus', () => {
    expect(formatCurrency(1234.5)).toBe('$1,234.50')
    expect(formatCurrency(1234567.891)).toBe('$1,234,567.89')
    expect(formatCurrency(-12)).toBe('-$12.00')
    expect(formatCurrency(0)).toBe('$0.00')
  })
  it('rounds half away from zero on the decimal value', () => {
    expect(formatCurrency(1.005)).toBe('$1.01')
    expect(formatCurrency(2.675)).toBe('$2.68')
    expect(formatCurrency(-1.005)).toBe('-$1.01')
    expect(formatCurrency(1.004)).toBe('$1.00')
    expect(formatCurrency(-0.001)).toBe('$0.00')
  })
  it('reads numeric strings', () => {
    expect(formatCurrency('12.5')).toBe('$12.50')
    expect(formatCurrency(' -7 ')).toBe('-$7.00')
  })
  it('gives nothing for what is not an amount', () => {
    for (const v of [null, undefined, '', 'twelve', '$12', Number.NaN, {}]) expect(formatCurrency(v), String(v)).toBe('')
  })
})

describe('measures and numbers', () => {
  it('shows a measure with its unit', () => {
    expect(formatMeasure({ qty: 12.5, unit: 'g' })).toBe('12.5 g')
    expect(formatMeasure({ qty: 1250, unit: 'g' })).toBe('1,250 g')
    expect(formatMeasure({ qty: '3', unit: 'Ounces' })).toBe('3 oz')
    expect(formatMeasure({ qty: 1, unit: 'units' })).toBe('1 unit')
    expect(formatMeasure({ qty: 2, unit: 'Each' })).toBe('2 units')
    expect(formatMeasure({ qty: 0.1234, unit: 'lb' })).toBe('0.123 lb')
    expect(formatMeasure({ qty: 4, unit: 'stone' })).toBe('4 stone')
  })
  it('shows a measure in the unit its column keeps (measure:g), converted when it was entered in another', () => {
    expect(formatCell({ qty: 2, unit: 'lb' }, 'measure:g')).toBe('907.184 g')
    expect(formatCell({ qty: 1, unit: 'oz' }, 'measure:g')).toBe('28.35 g')
    expect(formatCell({ qty: 250, unit: 'g' }, 'measure:g')).toBe('250 g')
    expect(formatCell({ qty: 2, unit: 'lb' }, 'measure')).toBe('2 lb')
    // what can not be converted is shown as it is
    expect(formatCell({ qty: 3, unit: 'units' }, 'measure:g')).toBe('3 units')
    expect(formatCell({ qty: 4, unit: 'stone' }, 'measure:g')).toBe('4 stone')
  })
  it('gives nothing for a measure without a quantity', () => {
    for (const v of [{ qty: 'lots', unit: 'g' }, { unit: 'g' }, null, 'lots', 12]) expect(formatMeasure(v), JSON.stringify(v)).toBe('')
  })
  it('formats plain numbers', () => {
    expect(formatNumber(1234.5678)).toBe('1,234.568')
    expect(formatNumber('x')).toBe('')
  })
})

describe('other SPEC §9 formats', () => {
  it('trims values longer than 12 characters', () => {
    expect(trimText('123456789012')).toBe('123456789012')
    expect(trimText('1234567890123')).toBe('123456789012…')
    expect(trimText('short')).toBe('short')
    expect(trimText(12345678901234)).toBe('123456789012…')
    expect(trimText(null)).toBe('')
  })
  it('treats true, yes and "true" as yes, anything else as no', () => {
    for (const v of [true, 'yes', 'YES', 'Yes', 'true', ' True ']) expect(isYes(v), String(v)).toBe(true)
    for (const v of [false, 'no', '', 'y', 1, null, undefined, 'false', {}]) expect(isYes(v), String(v)).toBe(false)
    expect(formatCheck('TRUE')).toBe('Yes')
    expect(formatCheck(null)).toBe('No')
  })
  it('counts array items', () => {
    expect(formatCount([1, 2, 3])).toBe('3 items')
    expect(formatCount(['a'])).toBe('1 item')
    expect(formatCount([])).toBe('0 items')
    expect(formatCount(null)).toBe('0 items')
  })
  it('pads tag numbers to 4 digits by default', () => {
    expect(padNumber(7)).toBe('0007')
    expect(padNumber(0)).toBe('0000')
    expect(padNumber(12345)).toBe('12345')
    expect(padNumber(42, 6)).toBe('000042')
    expect(padNumber(-7)).toBe('-0007')
    expect(padNumber(Number.NaN)).toBe('')
  })
  it('labels tax states', () => {
    expect(['t', 'd', 'p', 'x', null].map(formatTaxState)).toEqual(['Pending', 'Due', 'Paid', 'x', ''])
  })
})

describe('gauges', () => {
  const t = { low: 10, med: 20, warn: 30, error: 40 }
  it('colours strictly above each threshold', () => {
    const values = [40.01, 40, 30.01, 30, 20.01, 20, 10.01, 10, 0, -5]
    expect(values.map((v) => gaugeColour(v, t))).toEqual(['red', 'orange', 'orange', 'yellow', 'yellow', 'green', 'green', 'blue', 'blue', 'blue'])
    expect(gaugeColour(Number.NaN, t)).toBe('blue')
  })
  it('gives percent as value over max, clamped to 0..100', () => {
    expect(gaugePercent(25, 50)).toBe(50)
    expect(gaugePercent(50, 50)).toBe(100)
    expect(gaugePercent(75, 50)).toBe(100)
    expect(gaugePercent(-5, 50)).toBe(0)
    expect(gaugePercent(5, 0)).toBe(0)
    expect(gaugePercent(5, -10)).toBe(0)
    expect(gaugePercent(5)).toBe(0)
    expect(gaugePercent(Number.NaN, 50)).toBe(0)
  })
})

describe('formatCell', () => {
  it('dispatches on the column format', () => {
    expect(formatCell('2026-03-07T14:05:00Z', 'date', LA)).toBe('03/07/2026 06:05 AM')
    expect(formatCell('', 'date')).toBe('')
    expect(formatCell(99.9, 'currency')).toBe('$99.90')
    expect(formatCell({ qty: 2, unit: 'lb' }, 'measure')).toBe('2 lb')
    expect(formatCell('yes', 'check')).toBe('Yes')
    expect(formatCell('no', 'status')).toBe('No')
    expect(formatCell('1A4FF0100000022000012345', 'trim')).toBe('1A4FF0100000…')
    expect(formatCell([1, 2, 3], 'array')).toBe('3 items')
    expect(formatCell('p', 'tax')).toBe('Paid')
  })
  it('gives the raw value for formats the table renders itself', () => {
    expect(formatCell('set_rooms-1', 'id:set_rooms:name')).toBe('set_rooms-1')
    expect(formatCell('/getfiles/org/a.png', 'image')).toBe('/getfiles/org/a.png')
    expect(formatCell('/getfiles/org/a.pdf', 'pdf')).toBe('/getfiles/org/a.pdf')
    expect(formatCell('1A4FF0100000022000012345', 'qrcode')).toBe('1A4FF0100000022000012345')
  })
  it('shows values of columns without a format as text', () => {
    expect(formatCell(null, '')).toBe('')
    expect(formatCell(undefined, undefined)).toBe('')
    expect(formatCell(5, undefined)).toBe('5')
    expect(formatCell(['a', 'b'], undefined)).toBe('2 items')
    expect(formatCell({ qty: 3, unit: 'g' }, undefined)).toBe('3 g')
    expect(formatCell({ a: 1 }, 'unknown')).toBe('{"a":1}')
  })
})
