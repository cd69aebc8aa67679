import { normalizeSchema, indexedFields } from '#app/schemas/table-schema'

describe('normalizeSchema', () => {
  it('accepts shape A and fills defaults', () => {
    const s = normalizeSchema({
      key: 'fac_plants',
      label: 'Plants',
      items: [
        { key: 'tag', label: 'Tag', filter: true, pos: 2 },
        { key: 'planted', label: 'Planted', format: 'date', pos: 1 },
        { key: 'hidden', show: 'no', ro: 'yes' },
      ],
      readonly: ['tag'],
    })
    expect(s.fields.map((f) => f.key)).toEqual(['planted', 'tag', 'hidden'])
    expect(s.fields[0]).toMatchObject({ type: 'date', show: true, ro: false })
    expect(s.fields[1]).toMatchObject({ filter: true, ro: true, label: 'Tag' })
    expect(s.fields[2]).toMatchObject({ show: false, ro: true, label: 'hidden' })
    expect(s.dateField).toBe('planted')
    expect(s.editable).toBe(true)
    expect(indexedFields(s).map((f) => f.key).sort()).toEqual(['planted', 'tag'])
  })

  it('accepts shape B (headers + editables) and produces the same canonical shape', () => {
    const s = normalizeSchema({
      key: 'fac_harvests',
      headers: [
        { text: 'Harvest', value: 'name' },
        { text: 'Wet Weight', value: 'wet', format: 'measure', align: 'right' },
        { text: 'Date', value: 'date', show: 'no' },
      ],
      editables: [
        { name: 'name' },
        { name: 'wet', measure: 'yes', units: ['g', 'lb'] },
        { name: 'date', datetimepicker: true },
        { name: 'notes' },
      ],
    })
    expect(s.fields.map((f) => [f.key, f.type])).toEqual([
      ['name', 'text'],
      ['wet', 'measure'],
      ['date', 'date'],
      ['notes', 'text'],
    ])
    expect(s.fields[1].units).toEqual(['g', 'lb'])
    expect(s.fields[2].show).toBe(false)
    expect(s.fields[3].show).toBe(false)
  })

  it('treats an already canonical schema as input (idempotent)', () => {
    const once = normalizeSchema({ key: 'x_t', items: [{ key: 'a', type: 'number', sortable: true }] })
    expect(normalizeSchema(once)).toEqual(once)
  })

  it('refuses keys that could leave a JSON path or SQL literal', () => {
    expect(() => normalizeSchema({ key: 'Bad-Name', items: [{ key: 'a' }] })).toThrow(/table key/)
    expect(() => normalizeSchema({ key: 'ok', items: [{ key: "a'; drop table x; --" }] })).toThrow(/field key/)
    expect(() => normalizeSchema({ key: 'ok', items: [] })).toThrow()
    expect(() => normalizeSchema({ key: 'ok', items: [{ key: 'a' }], dateField: 'nope' })).toThrow(/does not define/)
  })
})
