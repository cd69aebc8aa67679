/**
 * Several processes on one PostgreSQL act as one (issue 30): two real server processes started
 * together on an empty database both come up (migrations and seeding each under their advisory
 * lock: one seeds, the other waits and finds it done), the demo data exists once, and an API token
 * one process issued is accepted by the other although each has its own DATA_DIR and no
 * SESSION_SECRET (the secret is shared through the database). A write through one process reaches
 * the event stream of a page the other serves, with each process on its own embedded broker (the
 * change crosses by NOTIFY, events/pg-relay.server.ts). PostgreSQL only: an embedded database serves
 * one process (its folder lock refuses a second, tested in db-open).
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

  it('a write through one process reaches the event stream of a page the other serves', async () => {
    const [a, b] = servers
    expect(a && b, 'the processes of the first test').toBeTruthy()
    // a grower's page on b: its event stream
    const login = await fetch(`${b.url}/Welcome`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ intent: 'login', email: 'grower@greenleaf.demo', password: 'Canopy#Demo1' }) })
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]
    expect(cookie).toMatch(/=/)
    const abort = new AbortController()
    const stream = await fetch(`${b.url}/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: abort.signal })
    expect(stream.status).toBe(200)
    const reader = stream.body!.getReader()
    const seen: string[] = []
    const decoder = new TextDecoder()
    const until = async (want: RegExp, ms: number) => {
      const end = Date.now() + ms
      while (Date.now() < end && !want.test(seen.join(''))) {
        const r = await Promise.race([reader.read(), new Promise<null>((res) => setTimeout(() => res(null), end - Date.now()))])
        if (!r || r.done) break
        seen.push(decoder.decode(r.value))
      }
      return want.test(seen.join(''))
    }
    try {
      expect(await until(/event: ready/, 10_000)).toBe(true)
      // the same grower writes through a's API
      const tok = await fetch(`${a.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'grower@greenleaf.demo', password: 'Canopy#Demo1' }) })
      const token = ((await tok.json()) as Record<string, string>)['x-access-token']
      const made = await fetch(`${a.url}/dt/v1/fac_harvests`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': token }, body: JSON.stringify({ name: 'Relayed across processes' }) })
      expect(made.status, await made.clone().text()).toBeLessThan(300)
      expect(await until(/event: table\ndata: \{"collection":"fac_harvests"\}/, 10_000), seen.join('')).toBe(true)
      expect(a.out() + b.out()).toMatch(/committed changes are shared with the other processes/)
    } finally {
      abort.abort()
      await reader.cancel().catch(() => {})
    }
  }, 60_000)
})
