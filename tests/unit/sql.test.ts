import { collectionDdl, containsPattern, indexName, keyLit, sortExpr, tableOf } from '#app/db/sql'
import { normalizeSchema } from '#app/schemas/table-schema'

const schema = normalizeSchema({
  key: 'fac_plants',
  items: [
    { key: 'tag', filter: true },
    { key: 'count', type: 'number', sortable: true },
    { key: 'weight', type: 'measure', sortable: true },
    { key: 'planted', type: 'date' },
  ],
})

describe('sql builders', () => {
  it('names tables only from valid collection names', () => {
    expect(tableOf('fac_plants')).toBe('c_fac_plants')
    for (const bad of ['', 'Fac', 'a-b', 'x; drop table y', 'a'.repeat(60), 'pg_catalog.pg_class']) expect(() => tableOf(bad)).toThrow()
  })

  it('quotes only valid field keys', () => {
    expect(keyLit('mark_as_dead')).toBe("'mark_as_dead'")
    expect(() => keyLit("x' OR '1'='1")).toThrow()
  })

  it('picks a type-aware sort expression per field', () => {
    expect(sortExpr(schema, 'count')).toBe(`canopy_num(doc -> 'count')`)
    expect(sortExpr(schema, 'weight')).toBe(`canopy_measure(doc -> 'weight')`)
    expect(sortExpr(schema, 'planted')).toBe(`((doc ->> 'planted') COLLATE "C")`)
    expect(sortExpr(schema, 'tag')).toBe(`(lower(doc ->> 'tag') COLLATE "C")`)
    expect(sortExpr(schema, 'cts')).toBe('cts')
  })

  it('makes user text a literal ILIKE pattern', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%')
  })

  it('derives indexes from the schema, names within 63 characters', () => {
    const ddl = collectionDdl('fac_plants', schema).join('\n')
    expect(ddl).toContain(`c_fac_plants__s_count ON c_fac_plants (org, canopy_num(doc -> 'count'), id)`)
    expect(ddl).toContain(`c_fac_plants__q_tag ON c_fac_plants USING gin ((doc ->> 'tag') "public".gin_trgm_ops)`)
    expect(ddl).toContain('c_fac_plants__s_planted')
    const long = indexName('c_' + 'x'.repeat(50), 's', 'y'.repeat(60))
    expect(long.length).toBeLessThanOrEqual(63)
    expect(long).not.toBe(indexName('c_' + 'x'.repeat(50), 's', 'y'.repeat(59)))
  })
})
