import fs from 'node:fs'
import path from 'node:path'
import { openDatabase } from '#app/db/index.server'
import { MIGRATIONS } from '#app/db/migrations/index'
import { createPgSchema, freshOptions, TEST_DATABASE_URL, TEST_DB } from '#tests/helpers/db'
import { tsx } from '#tests/helpers/process'
import pg from 'pg'

describe(`crash safety on ${TEST_DB}`, () => {
  it('keeps every acknowledged write after kill -9 in the middle of a stream of writes', async () => {
    const { opts, childEnv, drop } = freshOptions()
    await createPgSchema(opts.pgSchema)
    const writer = tsx('tests/fixtures/writer.ts', childEnv)
    try {
      await writer.waitFor(/^ready$/m, 120_000)
      await writer.waitFor(/^ack \w+$/m, 120_000)
      const deadline = Date.now() + 120_000
      while ((writer.out().match(/^ack /gm) ?? []).length < 150) {
        if (Date.now() > deadline || writer.proc.exitCode !== null) throw new Error(`writer stalled:\n${writer.out().slice(-2000)}`)
        await new Promise((r) => setTimeout(r, 20))
      }
      writer.proc.kill('SIGKILL')
      const { signal } = await writer.exited
      expect(signal).toBe('SIGKILL')
      const acked = [...writer.out().matchAll(/^ack (\w+)$/gm)].map((m) => m[1])
      expect(acked.length).toBeGreaterThanOrEqual(150)
      // the embedded database's lock file is left behind by the killed process; it must not block a restart
      const database = await openDatabase(opts)
      try {
        const ids = new Set((await database.store.find('greenleaf', 'fac_waste', {}, 100_000)).map((d) => d._id))
        const missing = acked.filter((id) => !ids.has(id))
        expect(missing).toEqual([])
        const audited = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE collection = 'fac_waste' AND doc_id = ANY($1)`, [acked])
        expect(audited.rows[0].n).toBe(acked.length)
      } finally {
        await database.close()
      }
    } finally {
      writer.proc.kill('SIGKILL')
      await drop()
    }
  })
})

describe.runIf(TEST_DB === 'pg')('two processes migrating one PostgreSQL database', () => {
  it('one waits for the other; both end on the same schema', async () => {
    const { opts, childEnv, drop } = freshOptions()
    await createPgSchema(opts.pgSchema)
    try {
      const a = tsx('tests/fixtures/migrate-slow.ts', childEnv)
      const b = tsx('tests/fixtures/migrate-slow.ts', childEnv)
      const [ra, rb] = await Promise.all([a.exited, b.exited])
      expect([ra.code, rb.code]).toEqual([0, 0])
      const res = [a, b].map((c) => JSON.parse(c.out().trim().split('\n').at(-1)!) as { applied: number[]; start: number; end: number })
      const first = res.find((r) => r.applied.length > 0)!
      const second = res.find((r) => r !== first)!
      expect(first.applied).toContain(990)
      expect(second.applied).toEqual([])
      expect(second.end).toBeGreaterThanOrEqual(first.end - 50) // it waited for the lock rather than racing
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await c.connect()
      const v = await c.query(`SELECT version FROM ${opts.pgSchema}.canopy_migrations ORDER BY 1`)
      expect(v.rows.map((r) => r.version)).toEqual([...MIGRATIONS.map((m) => m.version), 990])
      await c.end()
    } finally {
      await drop()
    }
  })
})

describe.runIf(TEST_DB === 'pglite')('two processes on one embedded database folder', () => {
  it('the second is refused with a message naming the first, and the first is unharmed', async () => {
    const { opts, childEnv, drop } = freshOptions()
    const first = await openDatabase(opts)
    try {
      const second = tsx('tests/fixtures/writer.ts', childEnv)
      const { code } = await second.exited
      expect(code).not.toBe(0)
      expect(second.out()).toMatch(new RegExp(`is in use by process ${process.pid}`))
      expect(fs.existsSync(path.join(opts.dataDir!, 'canopy.lock'))).toBe(true)
      expect((await first.db.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1)
    } finally {
      await first.close()
      await drop()
    }
  })
})
