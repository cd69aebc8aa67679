/**
 * A Canopy server of a test's own (the production build on a free port, PGlite in a data folder or a fresh
 * PostgreSQL schema) that the test may stop and start again: the restart and server-message tests.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { E2E } from './env'

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

export interface Running {
  proc: ChildProcess
  ready: Promise<void>
  exited: Promise<unknown>
}

export function startServer(env: Record<string, string>): Running {
  const proc: ChildProcess = spawn(process.execPath, ['build/server.js'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise((resolve) => proc.on('exit', resolve))
  const ready = (async () => {
    const end = Date.now() + 180_000
    while (Date.now() < end) {
      if (proc.exitCode !== null) throw new Error(`server exited: ${out.slice(-2000)}`)
      const ok = await fetch(`http://127.0.0.1:${env.PORT}/readyz`).then((r) => r.ok).catch(() => false)
      if (ok) return
      await new Promise((r) => setTimeout(r, 300))
    }
    throw new Error(`server not ready: ${out.slice(-2000)}`)
  })()
  return { proc, ready, exited }
}

export async function stopServer(s: Running): Promise<void> {
  s.proc.kill('SIGTERM')
  await s.exited
}

/** The environment of an own server on `engine`, and how to remove its data afterwards. */
export async function ownServerEnv(engine: 'pglite' | 'pg', label: string): Promise<{ env: Record<string, string>; base: string; drop: () => Promise<void> }> {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `canopy-${label}-`))
  const schema = `${label}_${process.pid}_${Date.now()}`
  const env: Record<string, string> = { NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: '0', MQTT_WS_PORT: '0', DATA_DIR: dataDir, DEMO_DEVICES: '0', METRC_EMULATOR_PORT: '0', METRC_DEMO_LINKS: '0', LOG_LEVEL: 'warn' }
  if (engine === 'pg') {
    const c = new pg.Client({ connectionString: E2E.databaseUrl })
    await c.connect()
    await c.query(`CREATE SCHEMA ${schema}`)
    await c.end()
    const u = new URL(E2E.databaseUrl)
    u.searchParams.set('options', `-c search_path=${schema},public`)
    env.DATABASE_URL = u.toString()
  }
  const drop = async () => {
    if (engine === 'pg') {
      const c = new pg.Client({ connectionString: E2E.databaseUrl })
      await c.connect()
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await c.end()
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return { env, base: `http://127.0.0.1:${port}`, drop }
}
