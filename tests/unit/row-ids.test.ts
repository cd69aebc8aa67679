/** Array sub-row ids (SPEC §9: digits 0-9): new ids never collide, rows without one get one, one pattern for the form and the generator. */
import { keyedRows, NEW_ROW_ID_LENGTH, ROW_ID, newRowId, rowsToSave, withRowIds } from '#app/forms/row-ids'

/** A random source that plays back the given digits, then repeats the last. */
function digits(...ds: number[]): () => number {
  let i = 0
  return () => ds[Math.min(i++, ds.length - 1)]
}

describe('newRowId', () => {
  it('is NEW_ROW_ID_LENGTH digits 0-9, which the form accepts as a row id', () => {
    expect(NEW_ROW_ID_LENGTH).toBe(8)
    for (let i = 0; i < 200; i++) {
      const id = newRowId([])
      expect(id).toMatch(/^[0-9]{8}$/)
      expect(id).toMatch(ROW_ID)
    }
  })
  it('uses every digit (no digit left out by the random source)', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 100; i++) for (const c of newRowId([])) seen.add(c)
    expect([...seen].sort().join('')).toBe('0123456789')
  })
  it('draws again when the id is taken', () => {
    // first draw 11111111 (taken), second 22222222
    const d = digits(...Array(8).fill(1), ...Array(8).fill(2))
    expect(newRowId(['11111111'], d)).toBe('22222222')
  })
  it('gives up with a clear error when the random source only ever repeats a taken id', () => {
    expect(() => newRowId(['00000000'], () => 0)).toThrow('Could not find a free row id')
  })
  it('refuses a random source that is not a digit', () => {
    expect(() => newRowId([], () => 10)).toThrow('A row id digit must be an integer from 0 to 9, not 10')
    expect(() => newRowId([], () => 0.5)).toThrow('A row id digit must be an integer from 0 to 9, not 0.5')
  })
})

describe('withRowIds', () => {
  it('keeps the ids rows have and gives the others new ones, distinct from all', () => {
    const rows = [{ id: '0', qty: 1 }, { qty: 2 }, { id: '', qty: 3 }, { id: 7 as unknown as string, qty: 4 }, { id: null as unknown as string, qty: 5 }]
    const out = withRowIds(rows)
    expect(out.map((r) => r.qty)).toEqual([1, 2, 3, 4, 5])
    expect(out[0].id).toBe('0')
    expect(out[3].id).toBe('7') // a numeric id from older data becomes its digits
    for (const r of [out[1], out[2], out[4]]) expect(r.id).toMatch(/^[0-9]{8}$/)
    expect(new Set(out.map((r) => r.id)).size).toBe(5)
    expect(rows[1]).toEqual({ qty: 2 }) // the input is not changed
  })
  it('never hands a new row the id another row has, nor one it just gave out', () => {
    // the source repeats 12345678 twice, then 87654321: the second new row must skip the first's id
    const seq = [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1]
    const out = withRowIds([{ qty: 1 }, { qty: 2 }], digits(...seq))
    expect(out.map((r) => r.id)).toEqual(['12345678', '87654321'])
    const existing = withRowIds([{ id: '12345678' }, {}], digits(...seq))
    expect(existing.map((r) => r.id)).toEqual(['12345678', '87654321'])
  })
  it('is an empty list for no rows', () => {
    expect(withRowIds([])).toEqual([])
  })
})

describe('rowsToSave', () => {
  const stored = [
    { id: '0', product: 'p1', qty: 2, total: 25 },
    { id: '1', product: 'p2', qty: 1, total: 9 },
  ]
  it('keeps the columns the form does not post of an edited row, drops removed rows, gives new rows ids', () => {
    const out = rowsToSave([{ id: '1', product: 'p2', qty: 3 }, { product: 'p3', qty: 1 }], stored)
    expect(out[0]).toEqual({ id: '1', product: 'p2', qty: 3, total: 9 })
    expect(out[1]).toMatchObject({ product: 'p3', qty: 1 })
    expect(out[1].id).toMatch(/^[0-9]{8}$/)
    expect(out).toHaveLength(2) // row 0 was removed
  })
  it('clears a column the form posted blank (null), and treats an unknown id as a row of its own', () => {
    expect(rowsToSave([{ id: '0', product: null, qty: 2 }, { id: '9', qty: 1 }], stored)).toEqual([
      { id: '0', product: null, qty: 2, total: 25 },
      { id: '9', qty: 1 },
    ])
  })
  it('works when nothing was stored before, or something that is not a list', () => {
    expect(rowsToSave([{ id: '4', qty: 1 }], undefined)).toEqual([{ id: '4', qty: 1 }])
    expect(rowsToSave([{ id: '4', qty: 1 }], 'rows')).toEqual([{ id: '4', qty: 1 }])
    expect(rowsToSave([], stored)).toEqual([])
  })
})

describe('rows stored without an id (seeds, imports)', () => {
  const stored = [{ product: 'p1', qty: 1, total: 10 }, { id: '2', product: 'p2', qty: 2, total: 20 }, { product: 'p3', qty: 3, total: 30 }, { id: 'L7', qty: 4, total: 40 }]
  it('are keyed by their position, the same on every read, never clashing with a stored id', () => {
    expect(keyedRows(stored).map((r) => r.id)).toEqual(['0', '2', '20', 'L7'])
    expect(keyedRows(stored)).toEqual(keyedRows(structuredClone(stored)))
    expect(keyedRows('not rows')).toEqual([])
    expect(keyedRows([null, 'x', { qty: 1 }])).toEqual([{ qty: 1, id: '0' }])
  })
  it('keep the columns the form does not post when edited under that key', () => {
    // the form showed the keyed ids; the user changed quantities and removed row '2'
    const saved = rowsToSave([{ id: '0', qty: 5 }, { id: '20', qty: 6 }, { id: 'L7', qty: 7 }], stored)
    expect(saved).toEqual([
      { id: '0', product: 'p1', qty: 5, total: 10 },
      { id: '20', product: 'p3', qty: 6, total: 30 },
      { id: 'L7', qty: 7, total: 40 },
    ])
  })
})
