/**
 * npm run backup [-- --out DIR]       a backup of this install (the database and DATA_DIR's files) into DIR
 *                                      (default ./backups/canopy-<time>), taken while the server runs
 * npm run restore -- DIR [--replace]  puts a backup back; stop the server first; --replace overwrites an
 *                                      install that already holds data
 * Reads the same settings as the server (DATABASE_URL or DATA_DIR). How, and what to do before an upgrade:
 * ops/backup.md. The work is in app/db/backup.server.ts.
 */
import fs from 'node:fs'
import path from 'node:path'
import { ConfigError, loadEnv } from '../app/config/env.server'
import { connect, pgliteDir } from '../app/db/index.server'
import { BackupError, ERROR_FILE, MANIFEST, REQUEST_FILE, latestMigration, readBackup, restoreBackup, schemaOf, writeBackup } from '../app/db/backup.server'
import { APP_VERSION } from '../app/version'

const say = (s: string) => process.stdout.write(`${s}\n`)

function liveLockHolder(dir: string): number | undefined {
  const lock = path.join(dir, 'canopy.lock')
  if (!fs.existsSync(lock)) return undefined
  const pid = Number(fs.readFileSync(lock, 'utf8'))
  try {
    process.kill(pid, 0)
    return pid
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined
  }
}

async function backup(out: string) {
  const env = loadEnv()
  if (env.DATABASE_URL) {
    const db = await connect({ databaseUrl: env.DATABASE_URL })
    let migration: number
    try {
      migration = await latestMigration(db)
    } finally {
      await db.close()
    }
    const m = await writeBackup({ source: { engine: 'pg', databaseUrl: env.DATABASE_URL }, dataDir: env.DATA_DIR, out, app: APP_VERSION, migration })
    return say(`backup of PostgreSQL (schema ${schemaOf(env.DATABASE_URL)}) and ${m.files.length - 1} files in ${out}`)
  }
  const dir = pgliteDir(env.DATA_DIR)
  const pid = liveLockHolder(dir)
  if (pid) {
    // the running server holds the embedded database: it writes the backup itself
    fs.mkdirSync(path.dirname(out), { recursive: true })
    fs.writeFileSync(path.join(env.DATA_DIR, REQUEST_FILE), JSON.stringify({ out }))
    process.kill(pid, 'SIGUSR2')
    const end = Date.now() + 30 * 60_000
    while (Date.now() < end) {
      if (fs.existsSync(path.join(out, MANIFEST))) {
        const m = readBackup(out)
        return say(`backup of the embedded database (taken by the server, process ${pid}) and ${m.files.length - 1} files in ${out}`)
      }
      if (fs.existsSync(path.join(out, ERROR_FILE))) throw new BackupError(`the server could not write the backup: ${fs.readFileSync(path.join(out, ERROR_FILE), 'utf8')}`)
      await new Promise((r) => setTimeout(r, 200))
    }
    throw new BackupError(`the server (process ${pid}) did not answer in 30 minutes`)
  }
  const db = await connect({ dataDir: dir })
  try {
    const m = await writeBackup({ source: { engine: 'pglite', dump: () => db.dumpDataDir!() }, dataDir: env.DATA_DIR, out, app: APP_VERSION, migration: await latestMigration(db) })
    say(`backup of the embedded database and ${m.files.length - 1} files in ${out}`)
  } finally {
    await db.close()
  }
}

async function restore(dir: string, replace: boolean) {
  const env = loadEnv()
  const target = env.DATABASE_URL ? ({ engine: 'pg', databaseUrl: env.DATABASE_URL } as const) : ({ engine: 'pglite', pgliteDir: pgliteDir(env.DATA_DIR) } as const)
  const m = await restoreBackup({ dir, target, dataDir: env.DATA_DIR, replace })
  say(`restored the backup of ${m.createdAt} (Canopy ${m.app}, migration ${m.migration}); start the server: it applies newer migrations`)
}

async function main() {
  const [cmd, ...args] = process.argv.slice(2)
  const flag = (name: string) => {
    const i = args.indexOf(name)
    return i >= 0 ? args[i + 1] : undefined
  }
  if (cmd === 'backup') return backup(path.resolve(flag('--out') ?? path.join('backups', `canopy-${new Date().toISOString().replace(/[:.]/g, '-')}`)))
  if (cmd === 'restore' && args[0] && !args[0].startsWith('--')) return restore(path.resolve(args[0]), args.includes('--replace'))
  throw new BackupError('usage: npm run backup [-- --out DIR] | npm run restore -- DIR [--replace]')
}

main().catch((e: unknown) => {
  process.stderr.write(`canopy: ${e instanceof BackupError || e instanceof ConfigError ? e.message : (e as Error).stack}\n`)
  process.exit(1)
})
