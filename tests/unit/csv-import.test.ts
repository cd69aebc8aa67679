/** CSV import's reading (decision 070): the file's rows, its headers to fields, each cell as the edit form would post it. */
import { cellInput, dateInput, importFields, mapHeaders, numberInput, readCsv, rowInput, type ReferenceIds } from '#app/screens/csv-import'
import { csvLine } from '#app/screens/csv'
import { schemas as operations } from '#app/seed/schemas/operations'
import { normalizeSchema } from '#app/schemas/table-schema'

const plants = normalizeSchema(operations.find((s) => s.key === 'fac_plants'))
const field = (key: string) => plants.fields.find((f) => f.key === key)!
const refs: ReferenceIds = new Map([
  ['strain', new Map([['blue dream', ['s1']], ['og kush', ['s2', 's3']]])],
  ['room', new Map([['veg room 1', ['r1']]])],
])

describe('readCsv', () => {
  it('reads quoted fields, commas, quotes and line breaks inside quotes, CRLF and a byte-order mark', () => {
    const text = '\uFEFFPlant Tag,Notes\r\n"A,1","said ""hi""\r\nthen left"\r\nB2,plain\n'
    expect(readCsv(text)).toEqual([
      ['Plant Tag', 'Notes'],
      ['A,1', 'said "hi"\r\nthen left'],
      ['B2', 'plain'],
    ])
  })
  it('leaves out rows of empty cells (a spreadsheet\'s trailing lines) and keeps a last row without a line break', () => {
    expect(readCsv('a,b\n,\n\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
  })
  it('reads back what the export writes, formula guard included', () => {
    const cells = ['=SUM(A1)', 'x, "y"', 'line\nbreak']
    const [row] = readCsv(csvLine(cells))
    expect(row).toEqual(["'=SUM(A1)", 'x, "y"', 'line\nbreak'])
    expect(cellInput(field('notes'), row[0], refs)).toEqual({ value: '=SUM(A1)' })
  })
})

describe('mapHeaders', () => {
  it('maps labels (any case, extra spaces) and keys to fields; read-only and unknown columns are ignored with a note', () => {
    const { columns, error } = mapHeaders(plants, ['plant  tag', 'strain', 'Room', 'Alive', 'Whatever', 'Record Created'])
    expect(error).toBeNull()
    expect(columns.map((c) => c.key)).toEqual(['tag', 'strain', 'room', 'alive', null, null])
    expect(columns[4].note).toMatch(/not a field/)
  })
  it('refuses two columns for one field, and a file naming no field', () => {
    expect(mapHeaders(plants, ['Plant Tag', 'tag']).error).toMatch(/both fill Plant Tag/)
    expect(mapHeaders(plants, ['foo', 'bar']).error).toMatch(/No column of this file fills a field/)
  })
  it('the template names only the fields a file can fill', () => {
    const keys = importFields(plants).map((f) => f.key)
    expect(keys).toContain('tag')
    expect(keys).toContain('dead_weight')
    expect(keys).not.toContain('cts')
  })
})

describe('cells as the form posts them', () => {
  it('dates as the table shows them become the date input', () => {
    expect(dateInput('03/07/2026 01:05 PM')).toBe('2026-03-07T13:05')
    expect(dateInput('3/7/2026 12:00 AM')).toBe('2026-03-07T00:00')
    expect(dateInput('03/07/2026')).toBe('2026-03-07')
    expect(dateInput('2026-03-07T10:00')).toBe('2026-03-07T10:00')
    expect(dateInput('soon')).toBe('soon')
  })
  it('money and thousands separators become plain numbers; anything else is left for the form to name', () => {
    expect(numberInput('$1,250.00')).toBe('1250.00')
    expect(numberInput('1,250.5')).toBe('1250.5')
    expect(numberInput('12abc')).toBe('12abc')
  })
  it('a reference label resolves to its id; an unknown or ambiguous label is the cell\'s problem', () => {
    expect(cellInput(field('strain'), ' Blue Dream ', refs)).toEqual({ value: 's1' })
    expect(cellInput(field('strain'), 'Nope', refs)).toEqual({ problem: 'Strain: there is no record named "Nope" to choose.' })
    expect(cellInput(field('strain'), 'OG Kush', refs)).toEqual({ problem: expect.stringMatching(/2 records are named "OG Kush"/) })
    expect(cellInput(field('strain'), '', refs)).toEqual({ value: '' })
  })
  it('a row: list values in their own case, a measure with separators, the problems by field', () => {
    const { columns } = mapHeaders(plants, ['Plant Tag', 'Strain', 'Room', 'Growth Phase', 'Dead Weight'])
    const r = rowInput(plants, columns, ['T1', 'Ghost', 'veg room 1', 'vegetative', '1,200.5 g'], refs)
    expect(r.input).toEqual({ tag: 'T1', room: 'r1', phase: 'Vegetative', dead_weight: '1200.5 g' })
    expect(r.problems).toEqual([{ key: 'strain', message: 'Strain: there is no record named "Ghost" to choose.' }])
  })
})
