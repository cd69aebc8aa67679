import { openTestDatabase, TEST_DB, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(() => t?.cleanup())

const indexes = async (table: string) =>
  (await t.db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = $1 AND schemaname = ANY (current_schemas(false)) ORDER BY 1`, [table])).rows.map((r) => r.indexname)

describe(`schema registry on ${TEST_DB}`, () => {
  it('stores either SPEC shape canonically, creates the table and the indexes the fields ask for', async () => {
    await t.schemas.put({ uid: 'u' }, {
      key: 'fac_harvests',
      headers: [
        { text: 'Name', value: 'name' },
        { text: 'Date', value: 'hdate' },
      ],
      editables: [{ name: 'name' }, { name: 'hdate', datetimepicker: 'yes' }],
    })
    const s = await t.schemas.get('fac_harvests')
    expect(s).toMatchObject({ key: 'fac_harvests', dateField: 'hdate' })
    expect(s!.fields.find((f) => f.key === 'hdate')!.type).toBe('date')
    expect(await indexes('c_fac_harvests')).toEqual(['c_fac_harvests__s_cts', 'c_fac_harvests__s_hdate', 'c_fac_harvests__s_ts', 'c_fac_harvests_pkey'])
    expect(await t.schemas.hasCollection('fac_harvests')).toBe(true)
    const stored = await t.store.get('auth', 'schemas', 'fac_harvests')
    expect(stored).toMatchObject({ key: 'fac_harvests', fields: expect.any(Array) })
  })

  it('sees a changed schema at once in this process and adds new indexes', async () => {
    await t.schemas.put({ uid: 'u' }, { key: 'fac_harvests', items: [{ key: 'name', filter: true }, { key: 'hdate', type: 'date' }] })
    expect((await t.schemas.get('fac_harvests'))!.fields[0].filter).toBe(true)
    expect(await indexes('c_fac_harvests')).toContain('c_fac_harvests__q_name')
    expect((await t.store.history('auth', 'schemas', 'fac_harvests')).map((h) => h.action)).toEqual(['insert', 'update'])
  })

  it('rejects a bad schema and stores nothing', async () => {
    await expect(t.schemas.put({ uid: 'u' }, { key: 'DROP TABLE', items: [{ key: 'a' }] })).rejects.toThrow()
    expect(await t.schemas.get('drop_table')).toBeUndefined()
    expect(await t.schemas.hasCollection('drop_table')).toBe(false)
  })
})
