/**
 * npm run seed [-- --reset]
 * Seeds the demo data if it is not there yet; --reset drops everything Canopy stored (audit
 * trail included) and rebuilds it. Stop the server first when using the embedded database.
 */
import { ConfigError, loadEnv } from '../app/config/env.server'
import { connect, openDatabase, pgliteDir } from '../app/db/index.server'
import { dropEverything } from '../app/db/reset.server'
import { seedDemo } from '../app/seed/index.server'
import { LOCK_SEED } from '../app/db/migrate.server'
import { installServerAreas } from '../app/areas/index.server'

async function main() {
  const reset = process.argv.includes('--reset')
  installServerAreas() // the areas' schemas and demo records are part of the seed
  const env = loadEnv()
  const opts = { databaseUrl: env.DATABASE_URL, poolMax: env.DB_POOL_MAX, dataDir: env.DATABASE_URL ? undefined : pgliteDir(env.DATA_DIR) }
  if (reset) {
    const db = await connect(opts)
    await dropEverything(db)
    await db.close()
    process.stdout.write('dropped all Canopy tables\n')
  }
  const database = await openDatabase(opts)
  try {
    // the same lock a starting server seeds under: a server starting meanwhile waits (issue 30)
    const r = await database.db.withAdvisoryLock(LOCK_SEED, () => seedDemo(database, { ...env, DEMO_DATA: '1' }, { force: reset }))
    process.stdout.write(r.seeded ? `seeded ${r.documents} documents in ${r.ms} ms\n` : 'demo data already present (use --reset to rebuild)\n')
  } finally {
    await database.close()
  }
}

main().catch((e) => {
  process.stderr.write(`seed: ${e instanceof ConfigError ? e.message : (e as Error).message}\n`)
  process.exit(1)
})
