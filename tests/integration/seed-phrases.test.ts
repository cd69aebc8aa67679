/**
 * The shipped phrase map reaches existing installs (issue 32 item 12): on start a key the install lacks
 * is added, a text only the seed ever wrote is upgraded to the shipped one (the corrected "Fields
 * marked * are required."), and a text an administrator edited is kept. A start with nothing to do
 * writes nothing.
 */
import { loadEnv } from '#app/config/env.server'
import { PLATFORM_ORG } from '#app/route-map'
import { ensurePlatform, SEED_ACTOR } from '#app/seed/index.server'
import { openTestDatabase, TEST_DB, tmpDir, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(() => t?.cleanup())

const audit = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE collection = 'auth_phrasemap'`)).rows[0].n
const phrase = async (key: string) => (await t.store.find(PLATFORM_ORG, 'auth_phrasemap', { key }))
const esOf = async (key: string) => (await phrase(key)).map((r) => r.es)

describe(`shipped phrases on ${TEST_DB}`, () => {
  it('adds new keys on start, upgrades seed-only texts, keeps an administrator\'s text', async () => {
    const env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '0', NODE_ENV: 'test' })
    await ensurePlatform(t, env)
    // a real install (no demo) gets the phrase map too: UI texts and the schemas' words
    expect(await esOf('Vegetative')).toEqual(['Vegetativo'])
    expect(await esOf('Plantings')).toEqual(['Siembras'])
    expect(await esOf('Fields marked * are required.')).toEqual(['Los campos marcados con * son obligatorios.'])
    const before = await audit()
    await ensurePlatform(t, env)
    expect(await audit()).toBe(before) // nothing new: nothing written

    // an install seeded before a key shipped: the key is added on the next start, once
    const [veg] = await phrase('Vegetative')
    await t.store.remove(SEED_ACTOR, PLATFORM_ORG, 'auth_phrasemap', veg._id)
    expect(await esOf('Vegetative')).toEqual([])
    await ensurePlatform(t, env)
    expect(await esOf('Vegetative')).toEqual(['Vegetativo'])

    // a wrong text the seed once shipped is corrected
    const [req] = await phrase('Fields marked * are required.')
    await t.store.update(SEED_ACTOR, PLATFORM_ORG, 'auth_phrasemap', req._id, { es: 'Los campos marcados * son requeridos.' })
    await ensurePlatform(t, env)
    expect(await esOf('Fields marked * are required.')).toEqual(['Los campos marcados con * son obligatorios.'])

    // an administrator's wording is kept on every start
    const [pl] = await phrase('Plantings')
    await t.store.update({ uid: 'u-admin', role: 'super' }, PLATFORM_ORG, 'auth_phrasemap', pl._id, { es: 'Nuestras siembras' })
    await ensurePlatform(t, env)
    expect(await esOf('Plantings')).toEqual(['Nuestras siembras'])
    const n = await audit()
    await ensurePlatform(t, env)
    expect(await audit()).toBe(n)
  })
})
