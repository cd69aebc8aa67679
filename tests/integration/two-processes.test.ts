/**
 * Several processes on one PostgreSQL act as one (issue 30): two real server processes started
 * together on an empty database both come up (migrations and seeding each under their advisory
 * lock: one seeds, the other waits and finds it done), the demo data exists once, and an API token
 * one process issued is accepted by the other although each has its own DATA_DIR and no
 * SESSION_SECRET (the secret is shared through the database). PostgreSQL only: an embedded
 * database serves one process (its folder lock refuses a second, tested in db-open).
 */
import pg from 'pg'
import { createPgSchema, freshOptions, TEST_DATABASE_URL, TEST_DB, tmpDir } from '#tests/helpers/db'
import { startServer } from '#tests/helpers/process'

describe.runIf(TEST_DB === 'pg')('two server processes on one PostgreSQL', () => {
  const { opts, childEnv, drop } = freshOptions()
  const servers: Array<Awaited<ReturnType<typeof startServer>>> = []
  afterAll(async () => {
    for (const s of servers) s.proc.kill('SIGTERM')
    await Promise.all(servers.map((s) => s.exited))
    await drop()
  })

  it('start together on an empty database, seed once, and accept each other’s API tokens', async () => {
    await createPgSchema(opts.pgSchema)
    const env = (dir: string) => ({ ...childEnv, DATA_DIR: dir, DEMO_DATA: '1', SESSION_SECRET: undefined, DB_POOL_MAX: '4' })
    const [a, b] = await Promise.all([startServer(env(tmpDir())), startServer(env(tmpDir()))])
    servers.push(a, b)
    for (const s of [a, b]) expect((await fetch(`${s.url}/readyz`)).status).toBe(200)
    expect(a.out() + b.out()).not.toMatch(/preparing the platform data failed|duplicate key/)

    const c = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await c.connect()
    try {
      const n = await c.query<{ supers: number; seeds: number; secrets: number }>(
        `SELECT (SELECT count(*)::int FROM ${opts.pgSchema}.c_users WHERE doc->>'email' = 'super@canopy.local') AS supers,
                (SELECT count(*)::int FROM ${opts.pgSchema}.canopy_meta WHERE key = 'demo_seed') AS seeds,
                (SELECT count(*)::int FROM ${opts.pgSchema}.canopy_meta WHERE key = 'session_secret') AS secrets`,
      )
      expect(n.rows[0]).toEqual({ supers: 1, seeds: 1, secrets: 1 })
    } finally {
      await c.end()
    }

    // a token from one process opens the other's API (each generated a different secret in its DATA_DIR)
    const login = await fetch(`${a.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'super@canopy.local', password: 'Canopy#Demo1' }) })
    expect(login.status).toBe(200)
    const token = ((await login.json()) as Record<string, string>)['x-access-token']
    for (const s of [a, b]) {
      const me = await fetch(`${s.url}/auth/me`, { headers: { 'x-access-token': token } })
      expect({ url: s.url === a.url ? 'a' : 'b', status: me.status }).toEqual({ url: s.url === a.url ? 'a' : 'b', status: 200 })
    }
  }, 300_000)
})
