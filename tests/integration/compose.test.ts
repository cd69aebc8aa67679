/**
 * The compose stack (docker-compose.yml, issue 28). No Docker engine runs on the CI machine, so this test
 * reads the file and runs what it says directly: the mosquitto service's own command (the dynamic-security
 * file with Canopy's admin account, then Mosquitto with ops/mosquitto/compose.conf, paths moved to a temp
 * folder and the plugin path to this machine's), then Canopy's server with the canopy service's environment
 * (the database moved to a fresh test schema, the broker's host to 127.0.0.1). Done when /readyz says ready
 * with the bus connected and a simulated device's readings arrive through Mosquitto.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'
import YAML from 'yaml'
import { createPgSchema, freshOptions, TEST_DATABASE_URL, TEST_DB, tmpDir } from '#tests/helpers/db'
import { ROOT, startServer } from '#tests/helpers/process'

type Service = { image?: string; build?: string; environment?: Record<string, string>; volumes?: string[]; command?: string[]; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown; restart?: string }
const compose = YAML.parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service>; volumes: Record<string, unknown> }

/** docker compose's ${NAME:?message} and ${NAME:-default}, from `vars` */
function interpolate(v: string, vars: Record<string, string>): string {
  return v.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_m, name: string, op: string | undefined, rest: string) => {
    if (vars[name] !== undefined && vars[name] !== '') return vars[name]
    if (op === '?') throw new Error(`compose needs ${name}: ${rest}`)
    return op === '-' ? rest : ''
  })
}

describe('docker-compose.yml', () => {
  it('runs Canopy, PostgreSQL and Mosquitto, each with a persistent volume, Canopy waiting for both to be healthy', () => {
    const { canopy, postgres, mosquitto } = compose.services
    expect(Object.keys(compose.services).sort()).toEqual(['canopy', 'mosquitto', 'postgres'])
    expect(Object.keys(compose.volumes).sort()).toEqual(['canopy-data', 'mosquitto-data', 'pg-data'])
    expect(canopy.volumes).toContain('canopy-data:/data')
    expect(postgres.volumes).toContain('pg-data:/var/lib/postgresql/data')
    expect(mosquitto.volumes).toContain('mosquitto-data:/mosquitto/data')
    expect(canopy.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, mosquitto: { condition: 'service_healthy' } })
    for (const s of [postgres, mosquitto]) expect(s.healthcheck).toBeTruthy()
    for (const s of Object.values(compose.services)) expect(s.restart).toBe('unless-stopped')
    // Canopy signs in to Mosquitto as the admin account the mosquitto service creates
    expect(canopy.environment?.MQTT_URL).toBe('mqtt://mosquitto:1883')
    expect(mosquitto.command?.join(' ')).toContain(`dynsec init /mosquitto/data/dynamic-security.json ${canopy.environment?.MQTT_ADMIN_USERNAME} `)
    expect(canopy.environment?.MQTT_ADMIN_PASSWORD).toBe(mosquitto.environment?.MQTT_ADMIN_PASSWORD)
    // no password is written in the file: each must be set
    expect(() => interpolate(canopy.environment!.DATABASE_URL, {})).toThrow(/POSTGRES_PASSWORD/)
  })
})

const PLUGIN = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib', '/usr/local/lib'].map((d) => path.join(d, 'mosquitto_dynamic_security.so')).find((f) => fs.existsSync(f))

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}
const answers = (port: number) => new Promise<boolean>((resolve) => net.connect(port, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(true) }).on('error', () => resolve(false)))
async function until<T>(what: string, ms: number, f: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await f().catch(() => undefined)
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

// the stack's database is PostgreSQL; PGlite has no part in it
describe.runIf(TEST_DB === 'pg' && PLUGIN)('the compose stack, run without a container engine', () => {
  let mosq: ChildProcess | undefined
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  const { opts, childEnv, drop } = freshOptions()
  afterAll(async () => {
    server?.proc.kill('SIGTERM')
    if (server) await server.exited
    mosq?.kill('SIGTERM')
    await drop()
  })

  it('answers /readyz ready with the bus connected, and a simulated device publishes through Mosquitto', async () => {
    const dir = tmpDir('canopy-compose-')
    const port = await freePort()
    const vars = { POSTGRES_PASSWORD: 'unused-here', MQTT_ADMIN_PASSWORD: 'compose-test-admin-pw', ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'Compose-test-1', DEMO_DATA: '1' }
    // Mosquitto: the service's config and command, paths moved here
    const conf = fs
      .readFileSync(path.join(ROOT, 'ops/mosquitto/compose.conf'), 'utf8')
      .replace(/^plugin .*$/m, `plugin ${PLUGIN}`)
      .replaceAll('/mosquitto/data', dir)
      .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
    fs.writeFileSync(path.join(dir, 'canopy.conf'), conf)
    const svc = compose.services.mosquitto
    const cmd = svc.command![2].replaceAll('$$', '$').replaceAll('/mosquitto/data', dir).replaceAll('/mosquitto/config/canopy.conf', path.join(dir, 'canopy.conf')).replace('exec mosquitto', 'exec /usr/sbin/mosquitto')
    mosq = spawn(svc.command![0], [svc.command![1], cmd], { env: { ...process.env, ...Object.fromEntries(Object.entries(svc.environment ?? {}).map(([k, v]) => [k, interpolate(v, vars)])) }, stdio: 'ignore' })
    await until('Mosquitto', 20_000, async () => ((await answers(port)) ? true : undefined))
    expect(fs.existsSync(path.join(dir, 'dynamic-security.json'))).toBe(true)

    // Canopy: the service's environment, the database and broker host moved here
    await createPgSchema(opts.pgSchema)
    const env = Object.fromEntries(Object.entries(compose.services.canopy.environment ?? {}).map(([k, v]) => [k, interpolate(v, vars)]))
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/canopy:unused-here@postgres:5432\/canopy$/)
    Object.assign(env, childEnv, { MQTT_URL: env.MQTT_URL.replace('mosquitto:1883', `127.0.0.1:${port}`), DATA_DIR: tmpDir(), DEMO_DEVICES: '1', DEVICES_SENSOR_EVERY_MS: '300', METRC_EMULATOR_PORT: '0' })
    server = await startServer(env)
    const ready = await until('/readyz ready', 60_000, async () => {
      const r = await fetch(`${server!.url}/readyz`)
      return r.status === 200 ? ((await r.json()) as Record<string, unknown>) : undefined
    })
    expect(ready).toMatchObject({ status: 'ready', database: 'pg', bus: 'connected' })

    // the demo's sensors publish with the keys Canopy issued, which Canopy made Mosquitto clients of
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await c.connect()
    try {
      const n = await until('readings through Mosquitto', 60_000, async () => {
        const r = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${opts.pgSchema}.sensor_readings`)
        return r.rows[0].n > 0 ? r.rows[0].n : undefined
      })
      expect(n).toBeGreaterThan(0)
    } finally {
      await c.end()
    }
    expect(server.out()).not.toMatch(/not authori[sz]ed|bad user name or password/i)
  })
})
