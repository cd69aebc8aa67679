/** SPEC §9 unit conversions, in both directions, with the factors SQL sorts by (canopy_measure). */
import platformSql from '#app/db/migrations/001-platform'
import { convert, convertible, dimensionOf, measureUnitOf, normaliseUnit, quantity, readMeasure, roundQty, toBase, UNITS, type Unit } from '#app/format/units'
import { MEASURE_UNITS } from '#app/schemas/table-schema'

describe('convert', () => {
  it('converts as SPEC §9 says: 1 oz = 0.0625 lb = 28.3495 g', () => {
    expect(convert(1, 'oz', 'lb')).toBeCloseTo(0.0625, 9)
    expect(convert(1, 'oz', 'g')).toBe(28.3495)
    expect(convert(0.0625, 'lb', 'oz')).toBeCloseTo(1, 9)
    expect(convert(28.3495, 'g', 'oz')).toBeCloseTo(1, 9)
  })
  it('converts as SPEC §9 says: 1 lb = 16 oz = 453.592 g', () => {
    expect(convert(1, 'lb', 'oz')).toBeCloseTo(16, 9)
    expect(convert(1, 'lb', 'g')).toBe(453.592)
    expect(convert(16, 'oz', 'lb')).toBeCloseTo(1, 9)
    expect(convert(453.592, 'g', 'lb')).toBeCloseTo(1, 9)
  })
  it('converts as SPEC §9 says: 1 g = 0.035274 oz = 0.00220462 lb', () => {
    expect(convert(1, 'g', 'oz')).toBeCloseTo(0.035274, 6)
    expect(convert(1, 'g', 'lb')).toBeCloseTo(0.00220462, 8)
    expect(convert(0.035274, 'oz', 'g')).toBeCloseTo(1, 4)
    expect(convert(0.00220462, 'lb', 'g')).toBeCloseTo(1, 4)
  })
  it('converts kg, mg and volumes', () => {
    expect(convert(2.5, 'kg', 'g')).toBe(2500)
    expect(convert(1500, 'mg', 'g')).toBeCloseTo(1.5, 12)
    expect(convert(1, 'kg', 'mg')).toBeCloseTo(1_000_000, 6)
    expect(convert(1, 'kg', 'lb')).toBeCloseTo(2.20462, 5)
    expect(convert(1, 'l', 'ml')).toBe(1000)
    expect(convert(1, 'gal', 'fl oz')).toBeCloseTo(128, 2)
    expect(convert(1, 'gal', 'l')).toBeCloseTo(3.78541, 5)
  })
  it('leaves a quantity alone in its own unit, counts included', () => {
    expect(convert(0.1, 'oz', 'Ounces')).toBe(0.1)
    expect(convert(7, 'Each', 'units')).toBe(7)
    expect(convert(-3, 'packages', 'pkg')).toBe(-3)
  })
  it('round-trips without drift', () => {
    const pairs = [['g', 'oz'], ['g', 'lb'], ['oz', 'lb'], ['lb', 'kg'], ['mg', 'oz'], ['ml', 'gal'], ['fl oz', 'l']]
    for (const [a, b] of pairs) expect(convert(convert(123.456, a, b), b, a), `${a}→${b}→${a}`).toBeCloseTo(123.456, 9)
  })
  it('refuses conversions between different things, naming both units', () => {
    expect(() => convert(1, 'g', 'Each')).toThrow('g cannot be converted to Each: one is a weight, the other a count')
    expect(() => convert(1, 'ml', 'g')).toThrow(/^ml cannot be converted to g: one is a volume, the other a weight$/)
    expect(() => convert(1, 'units', 'packages')).toThrow('units cannot be converted to packages: they count different things')
    expect(() => convert(1, 'stone', 'g')).toThrow(/"stone" is not a unit Canopy knows/)
    expect(() => convert(1, 'g', '')).toThrow(/"" is not a unit Canopy knows/)
    expect(convertible('g', 'Each')).toBe(false)
    expect(convertible('Grams', 'lbs')).toBe(true)
    expect(convertible('g', 'stone')).toBe(false)
  })
})

describe('normaliseUnit', () => {
  it('knows the spellings of forms, scales and METRC', () => {
    const cases: Record<string, Unit> = {
      g: 'g', gram: 'g', grams: 'g', Grams: 'g', GRAMS: 'g', oz: 'oz', ounce: 'oz', ounces: 'oz', Ounces: 'oz',
      lb: 'lb', lbs: 'lb', pound: 'lb', pounds: 'lb', Pounds: 'lb', kg: 'kg', Kilograms: 'kg', mg: 'mg', Milligrams: 'mg',
      Each: 'units', ea: 'units', count: 'units', Liters: 'l', Milliliters: 'ml', 'Fluid Ounces': 'fl oz', Gallons: 'gal',
      ' Ounces ': 'oz', 'fl  oz': 'fl oz', 'oz.': 'oz', 'lbs.': 'lb',
    }
    for (const [s, u] of Object.entries(cases)) expect(normaliseUnit(s), s).toBe(u)
  })
  it('gives null for what is not a unit', () => {
    for (const v of ['furlong', '', ' ', 'each each', 7, null, undefined, {}]) expect(normaliseUnit(v), String(v)).toBeNull()
  })
  it('gives each unit its dimension', () => {
    expect(dimensionOf('Pounds')).toBe('weight')
    expect(dimensionOf('gal')).toBe('volume')
    expect(dimensionOf('ea')).toBe('count')
    expect(dimensionOf('stone')).toBeNull()
  })
})

describe('base units, as SQL computes them', () => {
  it('has a definition for every unit a schema may use', () => {
    for (const u of MEASURE_UNITS) expect(UNITS[u], u).toBeDefined()
    expect(normaliseUnit('mg')).toBe('mg')
  })
  it('uses exactly the factors of canopy_measure in migration 001', () => {
    const fn = /CREATE FUNCTION canopy_measure[\s\S]*?\$\$;/.exec(platformSql)?.[0] ?? ''
    const sql = Object.fromEntries([...fn.matchAll(/WHEN '([^']+)' THEN ([0-9.]+)/g)].map(([, u, f]) => [u, Number(f)]))
    expect(Object.keys(sql).sort()).toEqual(['fl oz', 'gal', 'kg', 'l', 'lb', 'oz'])
    for (const [u, f] of Object.entries(sql)) expect(UNITS[u as Unit].factor, u).toBe(f)
    // every other schema unit falls to SQL's ELSE 1, so it must be a base unit here too
    for (const u of MEASURE_UNITS.filter((x) => !(x in sql))) expect(UNITS[u].factor, u).toBe(1)
  })
  it('converts to grams, millilitres or the count', () => {
    expect(toBase(2, 'lb')).toBe(907.184)
    expect(toBase(3, 'Ounces')).toBeCloseTo(85.0485, 9)
    expect(toBase(1.5, 'kg')).toBe(1500)
    expect(toBase(250, 'mg')).toBeCloseTo(0.25, 12)
    expect(toBase(2, 'gal')).toBe(7570.82)
    expect(toBase(3, 'units')).toBe(3)
    expect(() => toBase(1, 'stone')).toThrow(/"stone"/)
  })
})

describe('quantities', () => {
  it('reads numbers and numeric strings only, as canopy_num does', () => {
    expect(quantity(12.5)).toBe(12.5)
    expect(quantity('12.5')).toBe(12.5)
    expect(quantity(' -3.25 ')).toBe(-3.25)
    for (const v of ['12g', '1e3', '.5', '1,000', '', Number.NaN, Number.POSITIVE_INFINITY, null, undefined, true]) expect(quantity(v), String(v)).toBeNull()
  })
  it('reads measures with a known unit', () => {
    expect(readMeasure({ qty: '3', unit: 'Ounces' })).toEqual({ qty: 3, unit: 'oz' })
    expect(readMeasure({ qty: 3, unit: 'stone' })).toBeNull()
    expect(readMeasure({ qty: 'lots', unit: 'g' })).toBeNull()
    expect(readMeasure(null)).toBeNull()
  })
})

describe('measureUnitOf', () => {
  it('reads the unit a column keeps from its format', () => {
    expect(measureUnitOf('measure:g')).toBe('g')
    expect(measureUnitOf('measure:Pounds')).toBe('lb')
    expect(measureUnitOf('measure:fl oz')).toBe('fl oz')
    for (const f of ['measure', 'measure:', 'measure:stone', 'date', undefined]) expect(measureUnitOf(f), String(f)).toBeNull()
  })
  it('rounds a converted quantity to 4 decimals', () => {
    expect(roundQty(convert(2, 'lb', 'g'))).toBe(907.184)
    expect(roundQty(convert(1, 'g', 'oz'))).toBe(0.0353)
  })
})
