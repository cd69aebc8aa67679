/** Issue 33 item 3: a schema's `group`s become the edit form's sections (app/forms/form-sections.ts). */
import { describe, expect, it } from 'vitest'
import { formSections, isWideField } from '../../app/forms/form-sections'
import { localizeField } from '../../app/i18n/schema-text'
import { normalizeSchema } from '../../app/schemas/table-schema'

const table = (items: unknown[]) => normalizeSchema({ key: 't', items })
const names = (s: ReturnType<typeof formSections>) => s.map((x) => [x.title, x.fields.map((f) => f.key)])

describe('form sections', () => {
  it('one section per group, in the order groups first appear; ungrouped fields first under Details', () => {
    const s = table([{ key: 'a', group: 'One' }, { key: 'b' }, { key: 'c', group: 'Two' }, { key: 'd', group: 'One' }, { key: 'e' }])
    expect(names(formSections(s.fields))).toEqual([['Details', ['b', 'e']], ['One', ['a', 'd']], ['Two', ['c']]])
  })
  it('a schema without groups is one section without a heading; no fields, no section', () => {
    expect(names(formSections(table([{ key: 'a' }, { key: 'b' }]).fields))).toEqual([[null, ['a', 'b']]])
    expect(formSections([])).toEqual([])
  })
  it('the schema keeps a group, trimmed; a blank one is refused; shape B takes it on its header', () => {
    expect(table([{ key: 'a', group: ' Weights ' }]).fields[0].group).toBe('Weights')
    expect(() => table([{ key: 'a', group: '  ' }])).toThrow()
    const b = normalizeSchema({ key: 't', headers: [{ text: 'A', value: 'a', group: 'G' }], editables: [{ name: 'a' }] })
    expect(b.fields[0].group).toBe('G')
  })
  it("a section's heading is shown in the user's language", () => {
    const f = table([{ key: 'a', label: 'Wet', group: 'Weights' }]).fields[0]
    expect(localizeField(f, (k) => ({ Weights: 'Pesos', Wet: 'Húmedo' })[k] ?? k)).toMatchObject({ label: 'Húmedo', group: 'Pesos' })
  })
  it('sub-tables, long texts, documents, files and readings take the whole width', () => {
    expect(['array', 'textarea', 'document', 'gaugearray', 'fileDND', 'code'].every((type) => isWideField({ type } as never))).toBe(true)
    expect(isWideField({ type: 'measure' } as never)).toBe(false)
  })
})
