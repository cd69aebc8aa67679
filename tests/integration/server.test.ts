/**
 * The built server as a process (build/server.js, what `npm start` and the Docker image run):
 * bad configuration, unreachable or corrupt databases, first start with demo data, restart, SIGTERM.
 * Needs `npm run build` first (npm test does it).
 */
import fs from 'node:fs'
import path from 'node:path'
import { openDatabase } from '#app/db/index.server'
import { createPgSchema, freshOptions, TEST_DB, tmpDir } from '#tests/helpers/db'
import { ROOT, run, startServer } from '#tests/helpers/process'

const server = (env: Record<string, string>) => run(process.execPath, ['build/server.js'], { NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', MQTT_PORT: '0', MQTT_WS_PORT: '0', DEMO_DEVICES: '0', ...env })

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'build/server.js'))) throw new Error('build/server.js is missing: run npm run build first')
})

describe('refuses to start on bad input, with a clear message', () => {
  it('names a bad variable and what it expects', async () => {
    const c = server({ PORT: 'eighty', LOG_LEVEL: 'chatty', DATA_DIR: tmpDir() })
    const { code } = await c.exited
    expect(code).toBe(1)
    expect(c.out()).toMatch(/PORT="eighty": expects a port number/)
    expect(c.out()).toMatch(/LOG_LEVEL="chatty"/)
  })

  it('says when DATABASE_URL does not answer', async () => {
    const c = server({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: tmpDir() })
    expect((await c.exited).code).toBe(1)
    expect(c.out()).toMatch(/the database could not be opened: DATABASE_URL=postgres:\/\/nobody@127\.0\.0\.1:1\/none: the PostgreSQL server does not answer/)
  })

  it('says when the embedded database folder is corrupt, and leaves it as it was', async () => {
    const dir = tmpDir()
    fs.mkdirSync(path.join(dir, 'pglite/global'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'pglite/PG_VERSION'), '17\n')
    fs.writeFileSync(path.join(dir, 'pglite/global/pg_control'), Buffer.alloc(8192, 0xab))
    const before = fs.readFileSync(path.join(dir, 'pglite/global/pg_control'))
    const c = server({ DATA_DIR: dir })
    expect((await c.exited).code).toBe(1)
    expect(c.out()).toMatch(/the embedded database in .* could not be opened .*corrupt/)
    expect(fs.readFileSync(path.join(dir, 'pglite/global/pg_control')).equals(before)).toBe(true)
    expect(fs.existsSync(path.join(dir, 'pglite/canopy.lock'))).toBe(false)
  })
})

describe(`first start, restart and shutdown on ${TEST_DB}`, () => {
  it('seeds the demo once, serves it, stops cleanly on SIGTERM and keeps everything across a restart', async () => {
    const { opts, childEnv, drop } = freshOptions()
    await createPgSchema(opts.pgSchema)
    const dataDir = childEnv.DATA_DIR ?? tmpDir()
    const env = { ...childEnv, DATA_DIR: dataDir }
    try {
      const s1 = await startServer(env)
      expect(s1.out()).toMatch(/demo data seeded/)
      const ready = await fetch(`${s1.url}/readyz`)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toMatchObject({ status: 'ready', database: TEST_DB === 'pg' ? 'pg' : 'pglite' })
      expect((await fetch(`${s1.url}/healthz`)).status).toBe(200)
      const welcome = await (await fetch(`${s1.url}/Welcome`)).text()
      expect(welcome).toContain('<title>Canopy 4.1.0</title>')
      expect(welcome).toMatch(/2<!-- --> facilities on this server/)
      const root = await fetch(`${s1.url}/`, { redirect: 'manual' })
      expect(root.status).toBe(302)
      expect(root.headers.get('location')).toBe('/Welcome')
      const unknown = await fetch(`${s1.url}/no/such/page`, { redirect: 'manual' })
      expect(unknown.status).toBe(302) // private paths need a sign-in first (SPEC §2.2)
      expect(unknown.headers.get('location')).toBe('/Welcome?redirectTo=%2Fno%2Fsuch%2Fpage')
      const asset = welcome.match(/\/build\/_shared\/[^"]+\.js/)![0] // react-dom: well over the 1 kB compression threshold
      const a = await fetch(`${s1.url}${asset}`, { headers: { 'accept-encoding': 'gzip' } })
      expect(a.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(a.headers.get('content-encoding')).toBe('gzip')
      expect(fs.existsSync(path.join(dataDir, 'session-secret'))).toBe(true)

      s1.proc.kill('SIGTERM')
      expect(await s1.exited).toEqual({ code: 0, signal: null })
      expect(s1.out()).toMatch(/"msg":"stopped"/)

      const database = await openDatabase(opts)
      let plants: number
      let audit: number
      try {
        plants = await database.store.count('greenleaf', 'fac_plants')
        audit = (await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0].n
        expect(plants).toBeGreaterThanOrEqual(200)
      } finally {
        await database.close()
      }

      const s2 = await startServer(env)
      expect(s2.out()).not.toMatch(/demo data seeded/)
      expect((await fetch(`${s2.url}/readyz`)).status).toBe(200)
      s2.proc.kill('SIGINT')
      expect((await s2.exited).code).toBe(0)
      const again = await openDatabase(opts)
      try {
        expect(await again.store.count('greenleaf', 'fac_plants')).toBe(plants)
        expect((await again.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0].n).toBe(audit)
      } finally {
        await again.close()
      }
    } finally {
      await drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
