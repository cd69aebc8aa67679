/**
 * The `function` field type (SPEC §2.6): the formula grammar, its arithmetic, blanks, measures in
 * mixed units, the schema's checks, and the store's rule for what an update recomputes.
 */
import { describe, expect, it } from 'vitest'
import { withComputed } from '../../app/schemas/computed'
import { evaluateFormula, FormulaError, formulaFields, parseFormula } from '../../app/schemas/formula'
import { normalizeSchema } from '../../app/schemas/table-schema'

const run = (src: string, values: Record<string, unknown> = {}) => evaluateFormula(parseFormula(src), values)

describe('formula', () => {
  it('reads numbers, fields, precedence, parentheses and unary minus', () => {
    expect(run('1 + 2 * 3')).toBe(7)
    expect(run('(1 + 2) * 3')).toBe(9)
    expect(run('10 - 4 - 3')).toBe(3)
    expect(run('2 * -a', { a: 4 })).toBe(-8)
    expect(run('a / b', { a: 1, b: 3 })).toBe(0.3333)
    expect(run('.5 + a', { a: '1,250.5' })).toBe(1251)
  })
  it('round, min, max and abs', () => {
    expect(run('round(a, 1)', { a: 12.345 })).toBe(12.3)
    expect(run('round(1.005, 2)')).toBe(1.01)
    expect(run('round(-2.5)')).toBe(-3)
    expect(run('min(a, b, 3)', { a: 5, b: 4 })).toBe(3)
    expect(run('max(a, b)', { a: 5, b: 4 })).toBe(5)
    expect(run('abs(a - b)', { a: 4, b: 5 })).toBe(1)
  })
  it('a blank, non-numeric or missing input, or a division by zero, makes the result blank', () => {
    expect(run('a + 1', {})).toBeNull()
    expect(run('a + 1', { a: '' })).toBeNull()
    expect(run('a + 1', { a: '12 g' })).toBeNull()
    expect(run('a / b', { a: 1, b: 0 })).toBeNull()
    expect(run('max(a, 1)', { a: null })).toBeNull()
  })
  it('a measure counts in its base unit, so a ratio over mixed units is true', () => {
    expect(run('dry / wet * 100', { dry: { qty: 1, unit: 'kg' }, wet: { qty: 4000, unit: 'g' } })).toBe(25)
    expect(run('dry / wet * 100', { dry: { qty: '8', unit: 'oz' }, wet: { qty: '2', unit: 'lb' } })).toBe(25)
    expect(run('round(dry / wet * 100, 1)', { dry: { qty: 6, unit: 'oz' }, wet: { qty: 2, unit: 'lb' } })).toBe(18.8)
    expect(run('n * 2', { n: { qty: 3, unit: 'units' } })).toBe(6)
  })
  it('names the fields it reads, once each', () => {
    expect(formulaFields(parseFormula('round(dry / wet * 100, 1) + dry'))).toEqual(['dry', 'wet'])
  })
  it('refuses what it cannot read, in plain words, and never runs code', () => {
    const bad = (src: string) => () => parseFormula(src)
    expect(bad('')).toThrow('the formula is empty')
    expect(bad('a +')).toThrow(FormulaError)
    expect(bad('(a + b')).toThrow('")" expected at the end')
    expect(bad('a b')).toThrow('"b" is out of place')
    expect(bad('process.exit(1)')).toThrow(/cannot be read at "\.exit/)
    expect(bad('eval(a)')).toThrow('"eval" is not a function (use round, min, max, abs)')
    expect(bad('abs(a, b)')).toThrow('abs() takes one value')
    expect(bad('a; b')).toThrow(/cannot be read/)
    expect(bad('x'.repeat(501))).toThrow('longer than 500')
    expect(bad('('.repeat(60) + 'a' + ')'.repeat(60))).toThrow('nests too deeply')
  })
})

const table = (items: unknown[]) => normalizeSchema({ key: 't', items })
const W = { key: 'wet', type: 'measure' }
const D = { key: 'dry', type: 'measure' }

describe('function fields in a schema', () => {
  it('are read-only and keep their formula', () => {
    const s = table([W, D, { key: 'y', label: 'Yield', type: 'function', formula: 'dry / wet * 100' }])
    expect(s.fields.find((f) => f.key === 'y')).toMatchObject({ ro: true, formula: 'dry / wet * 100' })
  })
  it('need a formula that reads, over fields the table has, none of them computed', () => {
    expect(() => table([W, { key: 'y', type: 'function' }])).toThrow('schema t, field y: a function field needs a formula')
    expect(() => table([W, { key: 'y', type: 'function', formula: 'wet +' }])).toThrow('schema t, field y: the formula ends too early')
    expect(() => table([W, { key: 'y', type: 'function', formula: 'wet / weight' }])).toThrow(/the formula names \\?"weight\\?", which is not a field of this table/)
    expect(() => table([W, { key: 'y', type: 'function', formula: 'wet' }, { key: 'z', type: 'function', formula: 'y * 2' }])).toThrow('another computed field')
    expect(() => table([W, { key: 'y', type: 'function', formula: 'y + wet' }])).toThrow('another computed field')
  })
  it('shape B takes the formula on its header', () => {
    const s = normalizeSchema({ key: 't', headers: [{ text: 'Wet', value: 'wet' }, { text: 'Double', value: 'd', component: 'function', formula: 'wet * 2' }], editables: [{ name: 'wet' }] })
    expect(s.fields.find((f) => f.key === 'd')).toMatchObject({ type: 'function', ro: true, formula: 'wet * 2' })
  })
})

describe('what the store computes', () => {
  const s = table([W, D, { key: 'notes' }, { key: 'y', type: 'function', formula: 'round(dry / wet * 100, 1)' }])
  const row = { wet: { qty: 1000, unit: 'g' }, dry: { qty: 200, unit: 'g' }, y: 20, notes: 'a' }
  it('an insert computes every computed field (blank when an input is)', () => {
    expect(withComputed(s, { wet: { qty: 1000, unit: 'g' }, dry: { qty: 0.25, unit: 'kg' } }, null)).toMatchObject({ y: 25 })
    expect(withComputed(s, { wet: { qty: 1000, unit: 'g' } }, null)).toMatchObject({ y: null })
  })
  it('an update recomputes only when it changes an input; a value nobody touched stays as stored', () => {
    expect(withComputed(s, { notes: 'b' }, row)).toEqual({ notes: 'b' })
    expect(withComputed(s, { dry: { qty: 300, unit: 'g' } }, row)).toEqual({ dry: { qty: 300, unit: 'g' }, y: 30 })
    // a typed value for the computed field itself is replaced by the formula's when an input changes
    expect(withComputed(s, { dry: { qty: 100, unit: 'g' }, y: 99 }, row)).toMatchObject({ y: 10 })
    // an input sent unchanged: the stored result is not rewritten
    expect(withComputed(s, { dry: { qty: 200, unit: 'g' } }, row)).toEqual({ dry: { qty: 200, unit: 'g' } })
  })
  it("a sub-table's computed column is set on each of its rows from that row's columns, and checked like a table's", () => {
    const lines = { key: 'lines', type: 'array', array: [{ key: 'qty', type: 'number' }, { key: 'price', type: 'number' }, { key: 'amount', type: 'function', formula: 'qty * price' }] }
    const t = table([{ key: 'notes' }, lines])
    expect(t.fields.find((f) => f.key === 'lines')!.array!.find((c) => c.key === 'amount')).toMatchObject({ ro: true })
    expect(withComputed(t, { lines: [{ qty: 2, price: 3.5 }, { qty: 1, price: '', amount: 99 }] }, null)).toEqual({ lines: [{ qty: 2, price: 3.5, amount: 7 }, { qty: 1, price: '', amount: null }] })
    // an update that does not send the sub-table leaves it as stored
    expect(withComputed(t, { notes: 'x' }, { lines: [{ qty: 2, price: 3.5, amount: 7 }] })).toEqual({ notes: 'x' })
    expect(() => table([{ key: 'lines', type: 'array', array: [{ key: 'qty' }, { key: 'amount', type: 'function', formula: 'qty * notes' }] }, { key: 'notes' }]))
      .toThrow(/field lines\.amount: the formula names \\?"notes\\?", which is not a field of this sub-table/)
  })
})
