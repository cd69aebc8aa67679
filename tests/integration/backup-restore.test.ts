/**
 * Backup and restore (issue 28, ops/backup.md) through the real commands, `npm run backup` / `npm run
 * restore` (scripts/backup.ts), on the engine under test: a seeded install with an uploaded file is backed
 * up while its database is open (on PGlite this test process holds the folder, as the server does, so the
 * command asks it by SIGUSR2), then lost (database and files removed), restored, and compared table by
 * table (row count and a checksum of every row) and file by file. Refusals: an install that holds data
 * without --replace, a damaged backup.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { loadEnv } from '#app/config/env.server'
import { answerBackupRequests } from '#app/db/backup.server'
import { openDatabase, type Database } from '#app/db/index.server'
import { seedDemo } from '#app/seed/index.server'
import { freshOptions, createPgSchema, TEST_DATABASE_URL, TEST_DB, tmpDir } from '#tests/helpers/db'
import { tsx } from '#tests/helpers/process'

type Snapshot = Record<string, { rows: number; md5: string | null }>

async function snapshot(database: Database): Promise<Snapshot> {
  const tables = await database.db.query<{ t: string }>(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`)
  const out: Snapshot = {}
  for (const { t } of tables.rows) {
    const r = await database.db.query<{ rows: number; md5: string | null }>(`SELECT count(*)::int AS rows, md5(string_agg(x::text, '|' ORDER BY x::text)) AS md5 FROM "${t}" x`)
    out[t] = r.rows[0]
  }
  return out
}

function fileDigest(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    const p = path.join(root, rel)
    if (!fs.existsSync(p)) return
    if (fs.statSync(p).isDirectory()) return fs.readdirSync(p).forEach((f) => walk(path.join(rel, f)))
    out[rel] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')
  }
  walk('')
  return out
}

describe(`backup and restore on ${TEST_DB}`, () => {
  const { opts, childEnv, drop } = freshOptions()
  const dataDir = childEnv.DATA_DIR ?? tmpDir()
  const env = { ...childEnv, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }
  const out = path.join(tmpDir('canopy-backup-'), 'b1')
  let before: Snapshot
  let files: Record<string, string>
  afterAll(async () => {
    await drop()
  })

  it('backs up a seeded install while it is open, and a lost install comes back table by table and file by file', async () => {
    await createPgSchema(opts.pgSchema)
    const database = await openDatabase(opts)
    const stop = answerBackupRequests({ dataDir, db: database.db, app: 'test', log: () => {} })
    try {
      await seedDemo(database, loadEnv({ ...env, DEMO_DATA: '1' }))
      fs.mkdirSync(path.join(dataDir, 'files', 'greenleaf', 'uploads'), { recursive: true })
      fs.writeFileSync(path.join(dataDir, 'files', 'greenleaf', 'uploads', 'lab result; lot=7.pdf'), crypto.randomBytes(50_000))
      before = await snapshot(database)
      files = fileDigest(path.join(dataDir, 'files'))
      expect(before.c_fac_plants.rows).toBeGreaterThan(100)
      expect(before.audit_log.rows).toBeGreaterThan(0)

      const b = tsx('scripts/backup.ts', env, ['backup', '--out', out])
      expect(await b.exited, b.out()).toMatchObject({ code: 0 })
      expect(b.out()).toMatch(TEST_DB === 'pg' ? /backup of PostgreSQL/ : /taken by the server, process \d+/)
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'))
      expect(manifest).toMatchObject({ format: 1, engine: TEST_DB, app: expect.any(String) })
      expect(manifest.migration).toBeGreaterThan(0)
      expect(manifest.files.map((f: { path: string }) => f.path)).toContain('data/files/greenleaf/uploads/lab result; lot=7.pdf')
      // the open install is untouched by its backup
      expect(await snapshot(database)).toEqual(before)
    } finally {
      stop()
      await database.close()
    }

    // the loss: database and files gone
    if (TEST_DB === 'pg') {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await c.connect()
      await c.query(`DROP SCHEMA ${opts.pgSchema} CASCADE`)
      await c.end()
    } else {
      fs.rmSync(opts.dataDir!, { recursive: true })
    }
    fs.rmSync(path.join(dataDir, 'files'), { recursive: true })

    const r = tsx('scripts/backup.ts', env, ['restore', out])
    expect(await r.exited, r.out()).toMatchObject({ code: 0 })
    expect(r.out()).toMatch(/restored the backup of/)
    const again = await openDatabase(opts)
    try {
      expect(await snapshot(again)).toEqual(before)
    } finally {
      await again.close()
    }
    expect(fileDigest(path.join(dataDir, 'files'))).toEqual(files)
  })

  it('refuses to restore over an install that holds data unless told to replace it', async () => {
    const r = tsx('scripts/backup.ts', env, ['restore', out])
    expect((await r.exited).code).toBe(1)
    expect(r.out()).toMatch(/already holds (files|a database|\d+ tables): restore with --replace/)
    const database = await openDatabase(opts)
    try {
      await database.db.query(`DELETE FROM c_fac_plants WHERE org = 'greenleaf'`)
    } finally {
      await database.close()
    }
    const rr = tsx('scripts/backup.ts', env, ['restore', out, '--replace'])
    expect(await rr.exited, rr.out()).toMatchObject({ code: 0 })
    const again = await openDatabase(opts)
    try {
      expect((await snapshot(again)).c_fac_plants).toEqual(before.c_fac_plants)
    } finally {
      await again.close()
    }
  })

  it('refuses a damaged backup and changes nothing', async () => {
    const damaged = path.join(path.dirname(out), 'damaged')
    fs.cpSync(out, damaged, { recursive: true })
    const f = path.join(damaged, 'data/files/greenleaf/uploads/lab result; lot=7.pdf')
    const bytes = fs.readFileSync(f)
    bytes[100] ^= 0xff
    fs.writeFileSync(f, bytes)
    const r = tsx('scripts/backup.ts', env, ['restore', damaged, '--replace'])
    expect((await r.exited).code).toBe(1)
    expect(r.out()).toMatch(/lab result; lot=7\.pdf is missing or damaged/)
    expect(fileDigest(path.join(dataDir, 'files'))).toEqual(files)
  })
})
