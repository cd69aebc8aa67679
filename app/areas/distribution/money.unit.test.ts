/** Issue 24 item 5: exact money, rounding once (half away from zero), and the order rules. */
import { divRound, lineCents, parseCents, parseMilli, parsePercentBp, taxCents, fmtCents } from './money'
import { ageingBucket, refusalOf, taxesFor, taxStateOf, totalsOf } from './rules'

test('amounts parse to cents exactly; anything else is refused', () => {
  expect(parseCents('10.99')).toBe(1099)
  expect(parseCents('1,234.5')).toBe(123450)
  expect(parseCents('0.1')).toBe(10)
  expect(parseCents('1.005')).toBeNull()
  expect(parseCents('abc')).toBeNull()
  expect(parseMilli('7.5')).toBe(7500)
  expect(parseMilli('0')).toBeNull()
  expect(parsePercentBp('12.5')).toBe(1250)
  expect(parsePercentBp('101')).toBeNull()
  expect(fmtCents(123456789)).toBe('1,234,567.89')
})

test('half away from zero, once per line and once per tax', () => {
  expect(divRound(5n, 2n)).toBe(3n)
  expect(divRound(-5n, 2n)).toBe(-3n)
  expect(lineCents(7500, 1099, 500)).toBe(7830) // 7830.375
  expect(lineCents(3000, 1995, 1250)).toBe(5237) // 5236.875
  expect(lineCents(1000, 5, 5000)).toBe(3) // 2.5
  expect(taxCents(17063, 15000)).toBe(2559) // 2559.45
  // 0.1 + 0.2 in floating point is not 0.3; in cents it is
  const t = totalsOf([{ qtyMilli: 1000, priceCents: 10, discountBp: 0 }, { qtyMilli: 1000, priceCents: 20, discountBp: 0 }], [{ id: 'x', name: 'X', rate: 15 }])
  expect(t.subtotalCents).toBe(30)
  expect(t.taxCents).toBe(5) // 4.5 → 5
  expect(t.totalCents).toBe(35)
})

test('taxes of the client\'s state, wholesale bases, sales tax not for an exempt client', () => {
  const rates = [
    { id: '1', name: 'CO Excise', jurisdiction: 'CO', level: 'State', tax_type: 'Excise', rate: 15, basis: 'Average market rate' },
    { id: '2', name: 'CO Sales', jurisdiction: 'CO', level: 'State', tax_type: 'Sales', rate: 2.9, basis: 'Gross receipts' },
    { id: '3', name: 'CO Retail', jurisdiction: 'CO', level: 'State', tax_type: 'Excise', rate: 15, basis: 'Retail price' },
    { id: '4', name: 'Denver', jurisdiction: 'Denver, CO', level: 'City', tax_type: 'Local Business', rate: 5.5, basis: 'Gross receipts' },
    { id: '5', name: 'CA Excise', jurisdiction: 'CA', level: 'State', tax_type: 'Excise', rate: 15, basis: 'Gross receipts' },
  ]
  expect(taxesFor(rates, { state: 'CO', city: 'Denver' }).map((t) => t.id)).toEqual(['1', '2', '4'])
  expect(taxesFor(rates, { state: 'co', city: 'Aurora', tax_exempt: 'yes' }).map((t) => t.id)).toEqual(['1'])
})

test('status rules and tax states', () => {
  expect(refusalOf('ship', 'Draft')).toMatch(/cannot ship/)
  expect(refusalOf('ship', 'Picking')).toBeNull()
  expect(refusalOf('cancel', 'Delivered')).toMatch(/delivered order cannot be cancelled/)
  expect(refusalOf('fulfil', 'Picking')).not.toBeNull()
  expect(taxStateOf(1000, 0)).toBe('t')
  expect(taxStateOf(1000, 1)).toBe('d')
  expect(taxStateOf(1000, 1000)).toBe('p')
  const now = new Date('2026-06-30T12:00:00Z')
  expect(ageingBucket('2026-07-01T00:00:00Z', now)).toBe('Current')
  expect(ageingBucket('2026-06-20T00:00:00Z', now)).toBe('1–30')
  expect(ageingBucket('2026-03-01T00:00:00Z', now)).toBe('90+')
})
