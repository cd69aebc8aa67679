/**
 * Backup and restore of one Canopy install (issue 28; ops/backup.md): the database and the files it
 * points at, taken while the server runs, into a folder an operator can copy away:
 *
 *   manifest.json      what is here: engine, app version, latest migration, time, every file's size and sha256
 *   database.tar.gz    PGlite: its data folder, dumped by the running engine in one exclusive step
 *   database.pgdump    PostgreSQL: pg_dump's custom format of Canopy's schema (one consistent snapshot)
 *   data/…             DATA_DIR's files/ (uploads, documents) and session-secret (sessions, tokens, device keys)
 *
 * PGlite allows one process: while the server holds the folder, `npm run backup` asks it (SIGUSR2, see
 * requestBackup) and the server writes the backup itself. Restore needs the server stopped, and an empty
 * target unless told to replace what is there.
 */
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

/** what of DATA_DIR a backup keeps besides the database (relative paths) */
export const KEPT = ['files', 'session-secret'] as const
export const MANIFEST = 'manifest.json'
/** where `npm run backup` leaves the folder it wants the running server to write to */
export const REQUEST_FILE = 'backup-request.json'

export interface BackupManifest {
  format: 1
  app: string
  engine: 'pglite' | 'pg'
  /** the latest migration applied when the backup was taken */
  migration: number
  createdAt: string
  database: string
  files: Array<{ path: string; size: number; sha256: string }>
}

export class BackupError extends Error {}

export type Source = { engine: 'pglite'; dump: () => Promise<Blob> } | { engine: 'pg'; databaseUrl: string }

/** the schema a DATABASE_URL works in: its search_path option's first entry, else public */
export function schemaOf(databaseUrl: string): string {
  const options = new URL(databaseUrl).searchParams.get('options') ?? ''
  const m = options.match(/search_path\s*=\s*([A-Za-z_][\w$]*)/)
  return m ? m[1] : 'public'
}

/** the URL without its options (pg_restore and psql connect to the database, the schema is named) */
function plainUrl(databaseUrl: string): string {
  const u = new URL(databaseUrl)
  u.searchParams.delete('options')
  return u.toString()
}

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (r.error) throw new BackupError(`${cmd} could not run (${r.error.message}); install PostgreSQL's client programs`)
  if (r.status !== 0) throw new BackupError(`${cmd} failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`)
  return r.stdout
}

function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

function listFiles(root: string, rel = ''): string[] {
  const here = path.join(root, rel)
  if (!fs.existsSync(here)) return []
  if (!fs.statSync(here).isDirectory()) return [rel]
  return fs
    .readdirSync(here)
    .sort()
    .flatMap((name) => listFiles(root, path.join(rel, name)))
}

/** the latest migration applied to a database */
export async function latestMigration(db: { query<T>(sql: string): Promise<{ rows: T[] }> }): Promise<number> {
  return (await db.query<{ v: number | null }>('SELECT max(version)::int AS v FROM canopy_migrations')).rows[0].v ?? 0
}

/** Writes a backup of `source` and DATA_DIR's kept files into `out` (created; must be empty). The manifest comes last. */
export async function writeBackup(o: { source: Source; dataDir: string; out: string; app: string; migration: number; now?: Date }): Promise<BackupManifest> {
  fs.mkdirSync(o.out, { recursive: true })
  if (fs.readdirSync(o.out).length) throw new BackupError(`${o.out} is not empty: a backup goes into a new folder`)
  let database: string
  if (o.source.engine === 'pglite') {
    database = 'database.tar.gz'
    const blob = await o.source.dump()
    fs.writeFileSync(path.join(o.out, database), Buffer.from(await blob.arrayBuffer()))
  } else {
    database = 'database.pgdump'
    run('pg_dump', ['--format=custom', '--no-owner', `--schema=${schemaOf(o.source.databaseUrl)}`, `--file=${path.join(o.out, database)}`, plainUrl(o.source.databaseUrl)])
  }
  for (const rel of KEPT) {
    const from = path.join(o.dataDir, rel)
    if (fs.existsSync(from)) fs.cpSync(from, path.join(o.out, 'data', rel), { recursive: true, preserveTimestamps: true })
  }
  const files = [database, ...listFiles(path.join(o.out, 'data')).map((f) => path.join('data', f))].map((f) => ({ path: f, size: fs.statSync(path.join(o.out, f)).size, sha256: sha256(path.join(o.out, f)) }))
  const manifest: BackupManifest = { format: 1, app: o.app, engine: o.source.engine, migration: o.migration, createdAt: (o.now ?? new Date()).toISOString(), database, files }
  // written last, under a temporary name: a folder with a manifest is a finished backup
  fs.writeFileSync(path.join(o.out, `${MANIFEST}.tmp`), JSON.stringify(manifest, null, 2))
  fs.renameSync(path.join(o.out, `${MANIFEST}.tmp`), path.join(o.out, MANIFEST))
  return manifest
}

/** Reads a backup's manifest and checks every file it lists against its size and checksum. */
export function readBackup(dir: string): BackupManifest {
  const file = path.join(dir, MANIFEST)
  if (!fs.existsSync(file)) throw new BackupError(`${dir} holds no ${MANIFEST}: not a finished backup`)
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest
  if (m.format !== 1) throw new BackupError(`${dir}: backup format ${m.format} is not one this version reads`)
  for (const f of m.files) {
    const p = path.join(dir, f.path)
    if (!fs.existsSync(p) || fs.statSync(p).size !== f.size || sha256(p) !== f.sha256) throw new BackupError(`${dir}: ${f.path} is missing or damaged (size or checksum differs from the manifest)`)
  }
  return m
}

export type Target = { engine: 'pglite'; pgliteDir: string } | { engine: 'pg'; databaseUrl: string }

/**
 * Restores a backup into `target` and DATA_DIR. The server must be stopped (PGlite: its lock file says so).
 * An install that already holds data is refused unless `replace` (its database and kept files are removed first).
 */
export async function restoreBackup(o: { dir: string; target: Target; dataDir: string; replace?: boolean }): Promise<BackupManifest> {
  const m = readBackup(o.dir)
  const filesDir = path.join(o.dataDir, 'files')
  if (!o.replace && listFiles(filesDir).length) throw new BackupError(`${filesDir} already holds files: restore with --replace to overwrite them`)
  if (m.engine !== o.target.engine) throw new BackupError(`this backup is of ${m.engine === 'pg' ? 'PostgreSQL' : 'the embedded database (PGlite)'}; the install is configured for ${o.target.engine === 'pg' ? 'PostgreSQL (DATABASE_URL)' : 'the embedded database'}`)
  if (o.target.engine === 'pglite') {
    const dir = o.target.pgliteDir
    const lock = path.join(dir, 'canopy.lock')
    if (fs.existsSync(lock)) {
      const pid = Number(fs.readFileSync(lock, 'utf8'))
      let alive = false
      try {
        process.kill(pid, 0)
        alive = true
      } catch (e) {
        alive = (e as NodeJS.ErrnoException).code === 'EPERM'
      }
      if (alive) throw new BackupError(`the server (process ${pid}) is using ${dir}: stop it before restoring`)
    }
    if (fs.existsSync(dir) && fs.readdirSync(dir).filter((f) => f !== 'canopy.lock').length) {
      if (!o.replace) throw new BackupError(`${dir} already holds a database: restore with --replace to overwrite it`)
      fs.rmSync(dir, { recursive: true, force: true })
    }
    fs.mkdirSync(dir, { recursive: true })
    const blob = new Blob([fs.readFileSync(path.join(o.dir, m.database))])
    const db = await PGlite.create(dir, { loadDataDir: blob, extensions: { pg_trgm } })
    await db.query('select 1')
    await db.close()
  } else {
    const schema = schemaOf(o.target.databaseUrl)
    const url = plainUrl(o.target.databaseUrl)
    const tables = Number(run('psql', ['-Atq', '-d', url, '-c', `SELECT count(*) FROM information_schema.tables WHERE table_schema = '${schema.replace(/'/g, "''")}'`]).trim())
    if (tables > 0 && !o.replace) throw new BackupError(`schema ${schema} already holds ${tables} tables: restore with --replace to overwrite them`)
    // the dump creates its schema unless it is one PostgreSQL makes itself (public)
    const createsSchema = run('pg_restore', ['--list', path.join(o.dir, m.database)]).split('\n').some((l) => / SCHEMA - /.test(l))
    run('psql', ['-Atq', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', `DROP SCHEMA IF EXISTS "${schema}" CASCADE${createsSchema ? '' : `; CREATE SCHEMA "${schema}"`}`])
    run('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', '-d', url, path.join(o.dir, m.database)])
  }
  for (const rel of KEPT) {
    const to = path.join(o.dataDir, rel)
    const from = path.join(o.dir, 'data', rel)
    fs.rmSync(to, { recursive: true, force: true })
    if (fs.existsSync(from)) fs.cpSync(from, to, { recursive: true, preserveTimestamps: true })
  }
  return m
}

export const ERROR_FILE = 'backup-error.txt'

/**
 * The running server's side of `npm run backup` on PGlite (one process may hold the folder): on SIGUSR2 it
 * reads DATA_DIR/backup-request.json ({ out }) and writes the backup there itself, or ERROR_FILE on failure.
 */
export function answerBackupRequests(o: { dataDir: string; db: { dumpDataDir?(): Promise<Blob>; query<T>(sql: string): Promise<{ rows: T[] }> }; app: string; log: (level: 'info' | 'error', msg: string, extra?: object) => void }): () => void {
  const dump = o.db.dumpDataDir?.bind(o.db)
  if (!dump) return () => {}
  const handler = () => {
    const request = path.join(o.dataDir, REQUEST_FILE)
    let out: string
    try {
      out = String((JSON.parse(fs.readFileSync(request, 'utf8')) as { out: unknown }).out)
      fs.rmSync(request, { force: true })
    } catch {
      o.log('error', 'SIGUSR2 without a backup request (npm run backup sends it)')
      return
    }
    void (async () => {
      try {
        const m = await writeBackup({ source: { engine: 'pglite', dump }, dataDir: o.dataDir, out, app: o.app, migration: await latestMigration(o.db) })
        o.log('info', 'backup written', { out, files: m.files.length })
      } catch (e) {
        o.log('error', 'backup failed', { out, err: (e as Error).message })
        fs.mkdirSync(out, { recursive: true })
        fs.writeFileSync(path.join(out, ERROR_FILE), (e as Error).message)
      }
    })()
  }
  process.on('SIGUSR2', handler)
  return () => process.off('SIGUSR2', handler)
}
