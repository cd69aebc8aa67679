/**
 * The peer of the api scenario's throughput row (issue 7): Directus, installed from npm OUTSIDE
 * this repository (bench/README.md: "Peer: Directus"), serving the same PostgreSQL rows.
 *
 * - Found in BENCH_DIRECTUS_DIR (default ../peers/directus beside the repository); not installed →
 *   the row is skipped with the reason. PostgreSQL only (Directus does not run on PGlite).
 * - Data: schema `<bench schema>_directus` on the bench's server, table `plants` = the bench plants
 *   as columns (id, org, the document's fields, cts, ts), every organisation's rows, with the index
 *   the Canopy list call uses, `(org, cts, id)`. Rebuilt when its row count differs from the
 *   collection's. Directus's own tables live in that schema too (`directus bootstrap`, once).
 * - Directus runs as its own process (`node …/@directus/api/dist/cli/run.js start`, so without its
 *   update check), on a free loopback port, with an admin's static token, its cache and rate
 *   limiter off (as Canopy's are for the benchmark); stopped at the end.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { once } from 'node:events'
import type { Engine } from './lib'

export const DIRECTUS_VERSION = '11.3.5' // the last 11.x whose engines field accepts Node 20
const TOKEN = 'bench-peer-static-token'

export interface RunningPeer {
  name: string
  base: string
  headers: Record<string, string>
  /** the list call of the throughput row: org0's plants in one room, 20, newest first */
  listUrl(org: string, room: string): string
  stop(): Promise<void>
}

export const directusDir = () => path.resolve(process.env.BENCH_DIRECTUS_DIR || path.join('..', 'peers', 'directus'))

/** Why Directus cannot be measured here, or null when it can be started. */
export function directusMissing(engine: Engine): string | null {
  const dir = directusDir()
  if (!engine.pg) return 'Directus needs a PostgreSQL server (not measured on PGlite)'
  if (!fs.existsSync(path.join(dir, 'node_modules/@directus/api/dist/cli/run.js')))
    return `Directus is not installed in ${dir} (bench/README.md, "Peer: Directus", says how; BENCH_DIRECTUS_DIR names another folder)`
  return null
}

/** Loads the peer's copy of the rows (if needed), bootstraps Directus (once) and starts it. */
export async function startDirectus(engine: Engine, log: (m: string) => void): Promise<RunningPeer> {
  const dir = directusDir()
  const { db } = engine.database
  const schema = `${engine.pg!.schema}_directus`
  const src = `${engine.pg!.schema}.c_${engine.collection}`
  const want = (await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${src}`)).rows[0].n
  const have = await db
    .query<{ n: string }>(`SELECT count(*)::text AS n FROM ${schema}.plants`)
    .then((r) => r.rows[0].n)
    .catch(() => null)
  if (have !== want) {
    log(`api: loading ${Number(want).toLocaleString('en-US')} rows into ${schema}.plants for Directus`)
    await db.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    await db.query(`DROP TABLE IF EXISTS ${schema}.plants`)
    await db.query(`CREATE TABLE ${schema}.plants AS
      SELECT id, org, doc ->> 'tag' AS tag, doc ->> 'strain' AS strain, doc ->> 'strain_ref' AS strain_ref, doc ->> 'room' AS room,
        doc ->> 'phase' AS phase, (doc ->> 'planted')::timestamptz AS planted, doc -> 'weight' AS weight, (doc ->> 'count')::int AS count,
        doc ->> 'notes' AS notes, doc ->> 'IsUsed' AS is_used, doc ->> 'octs' AS octs, cts, ts
      FROM ${src}`)
    await db.query(`ALTER TABLE ${schema}.plants ADD PRIMARY KEY (id)`)
    await db.query(`CREATE INDEX plants_org_cts_id ON ${schema}.plants (org, cts, id)`)
    await db.query(`VACUUM ANALYZE ${schema}.plants`)
  }
  // not this process's environment: Directus reads many variables (DB_*, CACHE_*, …) of its own
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DB_CLIENT: 'pg',
    DB_CONNECTION_STRING: engine.pg!.url,
    DB_SEARCH_PATH: schema,
    SECRET: 'bench-peer-secret-not-for-production',
    ADMIN_EMAIL: 'bench-admin@example.com',
    ADMIN_PASSWORD: 'bench-peer-password',
    LOG_LEVEL: 'warn',
    TELEMETRY: 'false',
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    NODE_ENV: 'production' as const,
    PUBLIC_URL: 'http://127.0.0.1',
  }
  const cli = path.join(dir, 'node_modules/@directus/api/dist/cli/run.js')
  const booted = await db
    .query(`SELECT 1 FROM ${schema}.directus_users LIMIT 1`)
    .then((r) => r.rows.length > 0)
    .catch(() => false)
  if (!booted) {
    log(`api: directus bootstrap in schema ${schema}`)
    const r = spawnSync(process.execPath, [cli, 'bootstrap'], { cwd: dir, env, encoding: 'utf8', timeout: 180_000 })
    if (r.status !== 0) throw new Error(`directus bootstrap failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout).slice(-500)}`)
  }
  const set = await db.query(`UPDATE ${schema}.directus_users SET token = $1 WHERE email = $2`, [TOKEN, env.ADMIN_EMAIL])
  if (!set.rowCount) throw new Error(`no Directus user ${env.ADMIN_EMAIL} in ${schema}: drop that schema and run again (it is bootstrapped anew)`)

  const port = await freePort()
  const child = spawn(process.execPath, [cli, 'start'], { cwd: dir, env: { ...env, HOST: '127.0.0.1', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (b) => (output = (output + b).slice(-4000)))
  child.stderr!.on('data', (b) => (output = (output + b).slice(-4000)))
  const base = `http://127.0.0.1:${port}`
  const stop = () => stopChild(child)
  try {
    const t = Date.now()
    for (;;) {
      if (child.exitCode !== null) throw new Error(`directus exited with ${child.exitCode}: ${output.slice(-500)}`)
      const ok = await fetch(`${base}/server/health`).then((r) => r.ok, () => false)
      if (ok) break
      if (Date.now() - t > 90_000) throw new Error(`directus did not answer /server/health within 90 s: ${output.slice(-500)}`)
      await new Promise((r) => setTimeout(r, 500))
    }
    log(`api: Directus ${DIRECTUS_VERSION} on ${base} (${((Date.now() - t) / 1000).toFixed(1)} s to start)`)
  } catch (e) {
    await stop()
    throw e
  }
  return {
    name: `Directus ${readVersion(dir)}`,
    base,
    headers: { authorization: `Bearer ${TOKEN}` },
    listUrl: (org, room) => `${base}/items/plants?filter[org][_eq]=${encodeURIComponent(org)}&filter[room][_eq]=${encodeURIComponent(room)}&sort=-cts,id&limit=20`,
    stop,
  }
}

function readVersion(dir: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/directus/package.json'), 'utf8')) as { version: string }).version
  } catch {
    return '?'
  }
}

async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1')
  await once(s, 'listening')
  const port = (s.address() as net.AddressInfo).port
  await new Promise((r) => s.close(r))
  return port
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const t = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await once(child, 'exit').catch(() => {})
  clearTimeout(t)
}
