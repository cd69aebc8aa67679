/**
 * Issue 32 item 12: Spanish users see the main screens' column headers, field labels and list values
 * in Spanish. Every label and list value of those screens' shipped schemas has a Spanish text in the
 * shipped phrase map (the failure lists the missing ones), and the shared helpers translate only what
 * is shown: a list value keeps its canonical (English) value.
 */
import { allSchemaInputs } from '#app/seed/index.server'
import { ROUTES } from '#app/route-map'
import { normalizeSchema } from '#app/schemas/table-schema'
import { ES_SCHEMA_TEXTS } from '#app/seed/records/es-glossary'
import { ES } from '#app/seed/records/platform-3'
import { shippedPhrases } from '#app/seed/phrases.server'
import { listText, localizeColumns, localizeOptions, localizeSchema, schemaTexts } from '#app/i18n/schema-text'
import { translate } from '#app/i18n/t'

/** The main screens: every Cultivation table, plus inventory, products and orders of Distribution, rooms, strains and METRC packages. */
const MAIN = new Set([
  ...ROUTES.filter((r) => r.module === 'cul' && r.kind === 'table' && r.collection).map((r) => r.collection!),
  'dis_products', 'dis_inventory', 'dis_orders', 'set_rooms', 'set_strains', 'metrc_packages',
])

describe('Spanish texts of the main screens', () => {
  const phrases = shippedPhrases()
  const schemas = allSchemaInputs().map((s) => normalizeSchema(s)).filter((s) => MAIN.has(s.key))

  it('covers the plantings, plants, harvests, packages, inventory, orders, rooms and strains screens', () => {
    for (const key of ['fac_plantings', 'fac_plants', 'fac_harvests', 'metrc_packages', 'fac_inventory', 'dis_orders', 'set_rooms', 'set_strains']) {
      expect(schemas.map((s) => s.key)).toContain(key)
    }
  })

  it('has a Spanish text for every label and list value of those screens', () => {
    const missing = schemas.flatMap((s) => schemaTexts(s).filter((k) => !phrases[k]).map((k) => `${s.key}: ${k}`))
    expect(missing).toEqual([])
  })

  it('has no empty entries, and no word in both the UI texts and the glossary', () => {
    for (const [k, v] of Object.entries(ES_SCHEMA_TEXTS)) expect(v.trim(), k).not.toBe('')
    expect(Object.keys(ES_SCHEMA_TEXTS).filter((k) => k in ES)).toEqual([])
  })

  it('says "required" the Spanish way', () => {
    expect(phrases['Fields marked * are required.']).toBe('Los campos marcados con * son obligatorios.')
  })
})

describe('schema texts in the user language', () => {
  const es = { Phase: 'Fase', Vegetative: 'Vegetativo', Flowering: 'Floración', Batch: 'Lote', Strain: 'Variedad' }
  const t = (k: string) => translate(es, k)

  it('translates headers and nested headers, falling back to the English text', () => {
    const cols = localizeColumns([{ key: 'phase', label: 'Phase', sub: [{ label: 'Batch' }] }, { key: 'x', label: 'Untranslated' }], t)
    expect(cols.map((c) => c.label)).toEqual(['Fase', 'Untranslated'])
    expect(cols[0].sub?.[0].label).toBe('Lote')
  })

  it('shows list values translated and keeps option values canonical', () => {
    expect(listText('Vegetative', t)).toBe('Vegetativo')
    expect(listText(['Vegetative', 'Flowering'], t)).toBe('Vegetativo, Floración')
    expect(listText('', t)).toBe('')
    const f = { key: 'phase', label: 'Phase', type: 'list', en: { list: ['Vegetative'] } } as never
    expect(localizeOptions(f, [{ value: 'Vegetative', label: 'Vegetative' }], t)).toEqual([{ value: 'Vegetative', label: 'Vegetativo' }])
    // options from another table are its records' own labels: left alone
    const ref = { key: 'strain', label: 'Strain', type: 'list' } as never
    expect(localizeOptions(ref, [{ value: 's1', label: 'Batch' }], t)).toEqual([{ value: 's1', label: 'Batch' }])
  })

  it('translates field and sub-table labels but leaves keys and list values stored as they are', () => {
    const schema = normalizeSchema({ key: 'fac_x', label: 'X', fields: [{ key: 'phase', label: 'Phase', type: 'list', en: { list: ['Vegetative'] } }, { key: 'lines', label: 'Batch', type: 'array', array: [{ key: 'strain', label: 'Strain' }] }] })
    const shown = localizeSchema(schema, t)
    expect(shown.fields.map((f) => [f.key, f.label])).toEqual([['phase', 'Fase'], ['lines', 'Lote']])
    expect(shown.fields[0].en?.list).toEqual(['Vegetative'])
    expect(shown.fields[1].array?.[0].label).toBe('Variedad')
  })
})
