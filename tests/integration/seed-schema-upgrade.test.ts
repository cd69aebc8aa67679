/**
 * A changed shipped schema reaches existing installs (issue 28): on start, a stored schema nobody but the
 * seed ever wrote is upgraded to the shipped version; one an operator edited is kept as they left it. A
 * start with nothing to upgrade writes nothing (no audit rows).
 */
import { loadEnv } from '#app/config/env.server'
import { normalizeSchema } from '#app/schemas/table-schema'
import { ensurePlatform, SEED_ACTOR } from '#app/seed/index.server'
import { openTestDatabase, TEST_DB, tmpDir, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(() => t?.cleanup())

const audit = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE collection = 'schemas'`)).rows[0].n
const labelOf = async (key: string, field: string) => {
  t.schemas.invalidate()
  return (await t.schemas.get(key))!.fields.find((f) => f.key === field)?.label
}

describe(`seed schema upgrades on ${TEST_DB}`, () => {
  it('upgrades a schema only the seed wrote, keeps one an operator edited, and writes nothing when all is current', async () => {
    const env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '0', NODE_ENV: 'test' })
    await ensurePlatform(t, env)
    const shipped = (await t.schemas.get('fac_plants'))!
    const field = shipped.fields.find((f) => f.label)!
    const before = await audit()
    await ensurePlatform(t, env)
    expect(await audit()).toBe(before) // nothing to upgrade: nothing written

    // an older shipped version, written by the seed: upgraded on the next start
    const older = normalizeSchema({ ...shipped, fields: shipped.fields.map((f) => (f.key === field.key ? { ...f, label: 'Old shipped label' } : f)) })
    await t.schemas.put(SEED_ACTOR, older)
    expect(await labelOf('fac_plants', field.key)).toBe('Old shipped label')
    await ensurePlatform(t, env)
    expect(await labelOf('fac_plants', field.key)).toBe(field.label)

    // an operator's edit: kept on every start
    await t.schemas.put({ uid: 'u-admin', role: 'super' }, normalizeSchema({ ...shipped, fields: shipped.fields.map((f) => (f.key === field.key ? { ...f, label: 'Our own label' } : f)) }))
    await ensurePlatform(t, env)
    expect(await labelOf('fac_plants', field.key)).toBe('Our own label')
    // and another schema nobody edited is still current
    const n = await audit()
    await ensurePlatform(t, env)
    expect(await audit()).toBe(n)
  })
})
