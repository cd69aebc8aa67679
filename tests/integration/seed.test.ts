import { loadEnv } from '#app/config/env.server'
import { openDatabase } from '#app/db/index.server'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, TEST_DB, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { tsx } from '#tests/helpers/process'

let t: TestDatabase
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(() => t?.cleanup())

const auditCount = async (db = t.db) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0].n

describe(`demo seed on ${TEST_DB}`, () => {
  it('seeds once, changes nothing when run again, and --reset rebuilds the same data from scratch', async () => {
    const env = loadEnv({ DATA_DIR: tmpDir() })
    const first = await seedDemo(t, env)
    expect(first.seeded).toBe(true)
    expect(first.documents).toBeGreaterThan(4000)
    const plants = await t.store.count('greenleaf', 'fac_plants')
    const audit = await auditCount()
    expect(await seedDemo(t, env)).toMatchObject({ seeded: false, documents: 0 })
    expect(await seedDemo(t, env, { force: true })).toMatchObject({ seeded: true, documents: 0 })
    expect(await auditCount()).toBe(audit)

    // the super user exists with a password hash kept outside the document
    const [sup] = await t.store.find('auth', 'users', { email: env.ADMIN_EMAIL })
    expect(sup).toMatchObject({ role: 'super' })
    expect(JSON.stringify(sup)).not.toMatch(/scrypt|hash|password/i)
    const pw = await t.db.query<{ hash: string }>('SELECT hash FROM auth_passwords WHERE uid = $1', [sup.uid])
    expect(pw.rows[0].hash).toMatch(/^scrypt\$/)

    await t.close()
    const child = tsx('scripts/seed.ts', { ...t.childEnv, DATA_DIR: t.childEnv.DATA_DIR ?? tmpDir() }, ['--reset'])
    const r = await child.exited
    expect(child.out()).toMatch(/dropped all Canopy tables/)
    expect(child.out()).toMatch(/seeded \d+ documents/)
    expect(r.code).toBe(0)

    const again = await openDatabase(t.opts)
    try {
      expect(await again.store.count('greenleaf', 'fac_plants')).toBe(plants)
      // a fresh trail: the rebuilt demo's own rows only
      expect(await auditCount(again.db)).toBeLessThanOrEqual(audit)
      expect(await auditCount(again.db)).toBeGreaterThan(4000)
    } finally {
      await again.close()
    }
    // seeds the demo twice and rebuilds it in a child process: minutes on a loaded two-core machine
  }, 300_000)

  it('without demo data a real install still gets the lobby and its first super user, and refuses the demo password', async () => {
    const db = await openTestDatabase()
    try {
      const dir = tmpDir()
      const refuse = loadEnv({ DATA_DIR: dir, NODE_ENV: 'production', DEMO_DATA: '0' })
      await expect(seedDemo(db, refuse)).rejects.toThrow(/ADMIN_PASSWORD is the documented demo default/)
      const env = loadEnv({ DATA_DIR: dir, NODE_ENV: 'production', DEMO_DATA: '0', ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'Str0ng!Pass' })
      expect(await seedDemo(db, env)).toMatchObject({ seeded: false, documents: 0 })
      expect((await db.store.find('auth', 'users', {})).map((u) => [u.email, u.role])).toEqual([['ops@example.com', 'super']])
      expect((await db.store.find('auth', 'org', {})).map((o) => o._id)).toEqual(['lobby'])
      expect(await db.store.count('greenleaf', 'fac_plants')).toBe(0)
      expect((await db.db.query('SELECT uid FROM auth_passwords')).rows).toEqual([{ uid: 'u-super' }])
    } finally {
      await db.cleanup()
    }
  })
})
