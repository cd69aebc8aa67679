/** Child processes for tests: the built server and tsx fixtures, with their output collected. */
import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '../..')

export interface Child {
  proc: ChildProcess
  out: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>
}

export function run(cmd: string, args: string[], env: Record<string, string | undefined>): Child {
  const proc = spawn(cmd, args, { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let buf = ''
  const listeners = new Set<() => void>()
  const onData = (d: Buffer) => {
    buf += d.toString()
    for (const l of listeners) l()
  }
  proc.stdout!.on('data', onData)
  proc.stderr!.on('data', onData)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })))
  return {
    proc,
    out: () => buf,
    exited,
    waitFor: (re, ms = 120_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = buf.match(re)
          if (m) {
            listeners.delete(check)
            clearTimeout(timer)
            resolve(m)
          }
        }
        const timer = setTimeout(() => {
          listeners.delete(check)
          reject(new Error(`timed out waiting for ${re}; output:\n${buf.slice(-3000)}`))
        }, ms)
        listeners.add(check)
        void exited.then(() => setTimeout(() => {
          if (listeners.has(check)) {
            listeners.delete(check)
            clearTimeout(timer)
            reject(new Error(`process exited before ${re}; output:\n${buf.slice(-3000)}`))
          }
        }, 50))
        check()
      }),
  }
}

export const tsx = (file: string, env: Record<string, string | undefined>, args: string[] = []) => run(process.execPath, ['--import', 'tsx', file, ...args], env)

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.listen(0, '127.0.0.1', () => {
      const a = s.address() as net.AddressInfo
      s.close(() => resolve(a.port))
    })
    s.on('error', reject)
  })
}

/** Starts build/server.js and waits until /readyz answers. */
export async function startServer(env: Record<string, string | undefined>): Promise<Child & { url: string }> {
  const port = await freePort()
  const child = run(process.execPath, ['build/server.js'], { NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), MQTT_PORT: '0', MQTT_WS_PORT: '0', DEMO_DEVICES: '0', METRC_EMULATOR_PORT: '0', METRC_SYNC_DATA_MIN: '0', ...env })
  // a server that never says it listens is stopped here, or it would outlive the test run
  await child.waitFor(/Canopy listening on/, 180_000).catch((e: unknown) => {
    child.proc.kill('SIGKILL')
    throw e
  })
  return { ...child, url: `http://127.0.0.1:${port}` }
}
