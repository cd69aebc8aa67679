import { weightForField } from '#app/devices/fill'

describe('a scale reading into a measure field', () => {
  it('converts to the unit the field shows (lb, oz or g), rounded like every measure', () => {
    expect(weightForField({ weight: 2.5, unit: 'lb' }, 'g', ['g', 'kg', 'lb'])).toEqual({ qty: 1133.98, unit: 'g' })
    expect(weightForField({ weight: 16, unit: 'oz' }, 'lb', ['g', 'lb'])).toEqual({ qty: 1, unit: 'lb' })
    expect(weightForField({ weight: 500, unit: 'g' }, 'oz', ['oz'])).toEqual({ qty: 17.637, unit: 'oz' })
    expect(weightForField({ weight: 12.5, unit: 'g' }, 'g', ['g'])).toEqual({ qty: 12.5, unit: 'g' })
  })
  it('keeps the reading’s unit when the field shows a count, if the field takes it, else the first weight unit it takes', () => {
    expect(weightForField({ weight: 3, unit: 'lb' }, 'units', ['units', 'lb'])).toEqual({ qty: 3, unit: 'lb' })
    expect(weightForField({ weight: 1, unit: 'lb' }, 'units', ['units', 'g'])).toEqual({ qty: 453.592, unit: 'g' })
  })
  it('refuses what is not a weight, and fields that take none', () => {
    expect(weightForField({ weight: 1, unit: 'parsecs' }, 'g', ['g'])).toEqual({ error: 'The scale sent a reading that is not a weight.' })
    expect(weightForField({ weight: Number.NaN, unit: 'g' }, 'g', ['g'])).toEqual({ error: 'The scale sent a reading that is not a weight.' })
    expect(weightForField({ weight: 1, unit: 'g' }, 'ml', ['ml', 'l'])).toEqual({ error: 'This field does not take a weight.' })
  })
})
