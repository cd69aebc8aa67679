/**
 * The built server (`build/server.js`) on a fresh embedded database with the demo data, on a free
 * loopback port, for the scenarios that measure it from outside (the table screen, the dashboards
 * in Chromium). No MQTT ports, devices or METRC emulator; `stop()` ends it and removes its data.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port
      s.close(() => resolve(p))
    })
  })
}

/** `cwd`: the checkout whose build runs (default this one; the screen's previous release is another); `env`: added to the server's. */
export async function startBuiltServer(log: (m: string) => void, label: string, o: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ base: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-server-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['build/server.js'], { cwd: o.cwd ?? process.cwd(), env: { ...process.env, NODE_ENV: 'production', PORT: String(port), MQTT_PORT: '0', MQTT_WS_PORT: '0', DEMO_DEVICES: '0', METRC_EMULATOR: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ...o.env }, stdio: 'ignore' })
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  log(`${label}: starting the built server (first start seeds the demo)`)
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`)
      if (i > 240) throw new Error('the server did not become ready')
      try {
        if ((await fetch(`${base}/readyz`)).ok) break
      } catch {
        /* not yet */
      }
      await new Promise((r) => setTimeout(r, 500))
    }
  } catch (e) {
    await stop()
    throw e
  }
  return { base, stop }
}
