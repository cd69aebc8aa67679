/**
 * Issue 8, "tests for broker ACLs, both brokers": the same table of sign-in, subscribe and publish
 * cases runs against the embedded broker and against a private Mosquitto started here from
 * ops/mosquitto/mosquitto.conf (ports and dynsec file rewritten to a temp folder), which Canopy
 * provisions as its dynamic-security admin (app/bus/mosquitto.server.ts). Keys are issued once,
 * through credentials.server.ts, and reach both brokers. Then what only Mosquitto does: the
 * server's own client made there, a revoked key dropping an open connection, a Mosquitto that is
 * away refusing key changes, and stale clients deleted when the admin reconnects. A device publishes
 * only on its own topic on both (issue 20 item 4; on Mosquitto through a role of its own), and the
 * roles an older Canopy made are narrowed when the admin reconnects. The private Mosquitto refuses
 * anonymous clients, so startBus accepts it without MQTT_ALLOW_ANONYMOUS (issue 20 item 8).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { startEmbeddedBroker, type EmbeddedBroker } from '#app/bus/broker.server'
import { authenticateBus, deviceKeyProvisioner, issueDeviceKey, revokeDeviceKeys } from '#app/bus/credentials.server'
import { startBus, type RunningBus } from '#app/bus/index.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const A = 'greenleaf'
const B = 'harbor'
const ADMIN_PW = 'dynsec-admin-test-pw'
// Debian's package puts the broker in /usr/sbin, which is not on every user's PATH
const MOSQUITTO = fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto'
// the shipped config names Debian's x86-64 path; elsewhere the test uses the plugin it finds
const PLUGIN = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib', '/usr/local/lib']
  .map((d) => path.join(d, 'mosquitto_dynamic_security.so'))
  .find((f) => fs.existsSync(f))
const silent = pino({ level: 'silent' })
// the names Canopy gives its roles on Mosquitto (app/bus/mosquitto.server.ts), written out: they are part of the contract with the operator's file
const orgRole = (org: string) => `canopy-org-${org}`
const deviceRole = (org: string, deviceID: string) => `canopy-device-${org}/${deviceID}`
const actor = { uid: 'u-test', requestId: 'mosquitto-acl-test' }

let t: TestDatabase
let env: Env
let dir: string
let mosq: ChildProcess | null = null
let mosqPort = 0
let mosqLog = ''
let run: RunningBus
let embedded: EmbeddedBroker
const clients: MqttClient[] = []
/** keys issued once (before the cases), valid on both brokers */
const keys: Record<string, { username: string; password: string }> = {}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port
      s.close(() => resolve(p))
    })
  })

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.once('connect', () => (s.destroy(), resolve(true)))
    s.once('error', () => resolve(false))
  })

/** A private Mosquitto from the shipped config, on `port`, keeping its dynsec file in `dir`. */
async function startMosquitto(port: number): Promise<ChildProcess> {
  const wsPort = await freePort()
  const conf = fs
    .readFileSync(path.resolve('ops/mosquitto/mosquitto.conf'), 'utf8')
    .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
    .replace(/^listener 9001$/m, `listener ${wsPort} 127.0.0.1`)
    .replace(/^plugin \/.*$/m, (line) => (PLUGIN ? `plugin ${PLUGIN}` : line))
    .replace(/^plugin_opt_config_file .*$/m, `plugin_opt_config_file ${path.join(dir, 'dynsec.json')}`)
  // run as whoever runs the tests (as root, Mosquitto would switch to the user `mosquitto`)
  fs.writeFileSync(path.join(dir, 'mosquitto.conf'), `${conf}\nuser ${os.userInfo().username}\n`)
  const child = spawn(MOSQUITTO, ['-c', path.join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (d) => (mosqLog += d))
  child.stderr!.on('data', (d) => (mosqLog += d))
  const end = Date.now() + 10_000
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > end) throw new Error(`mosquitto did not start:\n${mosqLog}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return child
}

async function stopMosquitto() {
  const c = mosq
  mosq = null
  if (!c || c.exitCode !== null) return
  const exited = new Promise((r) => c.once('exit', r))
  c.kill('SIGTERM')
  await exited
}

function connect(url: string, o: IClientOptions): Promise<{ c: MqttClient; err?: Error }> {
  return new Promise((resolve) => {
    const c = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...o })
    clients.push(c)
    c.once('connect', () => resolve({ c }))
    c.once('error', (err) => resolve({ c, err }))
  })
}
const signIn = async (url: string, who: { username: string; password: string }) => {
  const r = await connect(url, who)
  if (r.err) throw new Error(`${who.username} could not sign in: ${r.err.message}`)
  return r.c
}
/** the QoS granted: 128 is a refusal (mqtt.js reports it as a subscribe error) */
const granted = (c: MqttClient, topic: string) =>
  new Promise<number>((resolve, reject) =>
    c.subscribe(topic, { qos: 0 }, (e, g) => (e ? (/Subscribe error/.test(e.message) ? resolve(128) : reject(e)) : resolve(g![0].qos))),
  )
/** every message `c` receives from now on */
const inbox = (c: MqttClient) => {
  const got: Array<[string, string]> = []
  c.on('message', (tp, p) => got.push([tp, p.toString()]))
  return got
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const until = async (f: () => boolean | Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms
  while (!(await f())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await sleep(25)
  }
}

beforeAll(async () => {
  t = await openTestDatabase()
  dir = tmpDir('canopy-mosquitto-')
  const init = spawnSync('mosquitto_ctrl', ['dynsec', 'init', path.join(dir, 'dynsec.json'), 'admin', ADMIN_PW], { encoding: 'utf8' })
  if (init.status !== 0) throw new Error(`mosquitto_ctrl dynsec init failed: ${init.stderr || init.error}`)
  mosqPort = await freePort()
  mosq = await startMosquitto(mosqPort)
  env = {
    ...loadEnv({ DATA_DIR: tmpDir() }),
    HOST: '127.0.0.1',
    MQTT_URL: `mqtt://127.0.0.1:${mosqPort}`,
    MQTT_ADMIN_USERNAME: 'admin',
    MQTT_ADMIN_PASSWORD: ADMIN_PW,
  }
  await t.schemas.put(actor, { key: 'fac_notes', label: 'Notes', items: [{ key: 'text', label: 'Text' }] })
  run = await startBus({ env, database: t, events: new EventHub(), logger: silent })
  embedded = await startEmbeddedBroker({
    host: '127.0.0.1',
    port: 0,
    wsPort: 0,
    publishPerSec: 0,
    authenticate: (u, p) => authenticateBus(t, env.SESSION_SECRET, u, p),
    logger: silent,
  })
  for (const [org, dev] of [
    [A, 'SEN-1'],
    [A, 'SEN-2'],
    [B, 'SEN-B'],
  ])
    keys[`${org}/${dev}`] = await issueDeviceKey(t, org, dev, 'u-admin')
})

afterAll(async () => {
  for (const c of clients) c.end(true)
  await run?.close()
  await embedded?.close()
  await stopMosquitto()
  await t?.cleanup()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

const brokers = [
  ['embedded broker', () => embedded.url],
  ['Mosquitto (dynamic security)', () => `mqtt://127.0.0.1:${mosqPort}`],
] as const

/** What a device of A may subscribe to: 0 granted, 128 refused. */
const SUBSCRIBE_CASES: Array<[string, 0 | 128]> = [
  [`${A}/dtupdates`, 0],
  [`${A}/#`, 0],
  [`${A}/bcast/+`, 0],
  [`${A}/request/SEN-1`, 0],
  [`${A}/scanreq/+/0`, 0],
  [`${B}/dtupdates`, 128],
  [`${B}/#`, 128],
  [`${B}/bcast/SEN-B`, 128],
  ['#', 128],
  ['+/dtupdates', 128],
  ['+/#', 128],
  ['+/bcast/+', 128],
  [`+/request/SEN-1`, 128],
  [A, 128],
  ['$SYS/#', 128],
  ['$CONTROL/dynamic-security/v1/response', 128],
  ['$CONTROL/#', 128],
]

/** Topics device SEN-1 of A publishes to: does B's (or A's) listener receive it? Only its own topic (issue 20 item 4). */
const PUBLISH_CASES: Array<[topic: string, listener: 'A' | 'B', arrives: boolean]> = [
  [`${A}/bcast/SEN-1`, 'A', true],
  // as another device of its facility, or as the server or a user
  [`${A}/bcast/SEN-2`, 'A', false],
  [`${A}/dtupdates`, 'A', false],
  [`${A}/notification/u-green`, 'A', false],
  [`${A}/scanresp/u-green/0`, 'A', false],
  [`${A}/request/SEN-2`, 'A', false],
  [`${B}/bcast/SEN-B`, 'B', false],
  [`${B}/dtupdates`, 'B', false],
  [`${B}/request/SEN-B`, 'B', false],
  [A, 'A', false],
]

describe.each(brokers)('%s', (_name, urlOf) => {
  describe('sign-in', () => {
    it('a device key signs in as that device', async () => {
      expect((await connect(urlOf(), keys[`${A}/SEN-1`])).err).toBeUndefined()
    })

    it.each([
      ['a wrong key', () => ({ username: `${A}/SEN-1`, password: keys[`${A}/SEN-1`].password.slice(0, -2) + 'xx' })],
      ["another device's key", () => ({ username: `${A}/SEN-2`, password: keys[`${A}/SEN-1`].password })],
      ["the key under B's name", () => ({ username: `${B}/SEN-1`, password: keys[`${A}/SEN-1`].password })],
      ['no credentials', () => ({})],
      ['a made-up device', () => ({ username: `${A}/NOPE`, password: `cdk_${'x'.repeat(43)}` })],
    ])('%s is Not authorized', async (_w, creds) => {
      expect((await connect(urlOf(), creds())).err?.message).toMatch(/Not authorized/i)
    })
  })

  describe("ACL: a device of A stays under A's topics", () => {
    it.each(SUBSCRIBE_CASES)('subscribe %s → SUBACK %i', async (filter, want) => {
      const c = await signIn(urlOf(), keys[`${A}/SEN-1`])
      expect(await granted(c, filter)).toBe(want)
    })

    it.each(PUBLISH_CASES)('publish %s: %s’s listener receives it: %s', async (topic, listener, arrives) => {
      const ear = await signIn(urlOf(), listener === 'A' ? keys[`${A}/SEN-2`] : keys[`${B}/SEN-B`])
      expect(await granted(ear, `${listener === 'A' ? A : B}/#`)).toBe(0)
      const got = inbox(ear)
      const c = await signIn(urlOf(), keys[`${A}/SEN-1`])
      c.publish(topic, 'forged?')
      // a marker the listener's side may send, after: once it is through, the first one has been dealt with
      const marker = await signIn(urlOf(), listener === 'A' ? keys[`${A}/SEN-2`] : keys[`${B}/SEN-B`])
      const markerTopic = listener === 'A' ? `${A}/bcast/SEN-2` : `${B}/bcast/SEN-B`
      await sleep(100)
      marker.publish(markerTopic, 'marker')
      await until(() => got.some(([tp]) => tp === markerTopic))
      expect(got.some(([tp, p]) => tp === topic && p === 'forged?')).toBe(arrives)
    })

    it('a device cannot give itself rights through $CONTROL (dynamic-security commands)', async () => {
      const c = await signIn(urlOf(), keys[`${A}/SEN-1`])
      const username = `${A}/ROGUE-${Math.random().toString(36).slice(2, 8)}`
      c.publish('$CONTROL/dynamic-security/v1', JSON.stringify({ commands: [{ command: 'createClient', username, password: 'rogue-pw-123' }] }))
      await sleep(300)
      expect((await connect(urlOf(), { username, password: 'rogue-pw-123' })).err?.message).toMatch(/Not authorized/i)
    })
  })

  describe('key changes', () => {
    it('a new key replaces the old one; a revoked key is refused', async () => {
      const dev = `ROT-${Math.random().toString(36).slice(2, 8)}`
      const first = await issueDeviceKey(t, A, dev, 'u-admin')
      expect((await connect(urlOf(), first)).err).toBeUndefined()
      const second = await issueDeviceKey(t, A, dev, 'u-admin')
      expect((await connect(urlOf(), first)).err?.message).toMatch(/Not authorized/i)
      expect((await connect(urlOf(), second)).err).toBeUndefined()
      expect(await revokeDeviceKeys(t, A, dev)).toBe(1)
      expect((await connect(urlOf(), second)).err?.message).toMatch(/Not authorized/i)
    })
  })
})

describe('Mosquitto only', () => {
  const url = () => `mqtt://127.0.0.1:${mosqPort}`

  it("Canopy's server client was made there and relays dtupdates; the admin is the key provisioner", async () => {
    expect(run.bus.state).toBe('connected')
    expect(deviceKeyProvisioner()).toBe(run.admin)
    const c = await signIn(url(), keys[`${A}/SEN-2`])
    expect(await granted(c, `${A}/dtupdates`)).toBe(0)
    const got = inbox(c)
    await t.store.insert(actor, A, 'fac_notes', { text: 'via a provisioned mosquitto' })
    await until(() => got.some(([tp, p]) => tp === `${A}/dtupdates` && p === 'fac_notes'))
  })

  it("a user's access token cannot sign in (stock Mosquitto cannot check it: decision 014)", async () => {
    const token = signAccessToken(env.SESSION_SECRET, { sub: 'u-green', orig: 'u-green', org: A, role: 'user' })
    expect((await connect(url(), { username: `${A}/u-green`, password: token })).err?.message).toMatch(/Not authorized/i)
    expect((await connect(embedded.url, { username: `${A}/u-green`, password: token })).err).toBeUndefined()
  })

  it("an odd name under A's organisation is granted there (acl.ts refuses it), yet reaches nothing of B", async () => {
    const c = await signIn(url(), keys[`${A}/SEN-1`])
    expect(await granted(c, `${A}/../${B}/#`)).toBe(0)
    const got = inbox(c)
    const b = await signIn(url(), keys[`${B}/SEN-B`])
    b.publish(`${B}/bcast/SEN-B`, 'for B only')
    await sleep(300)
    expect(got).toEqual([])
    const e = await signIn(embedded.url, keys[`${A}/SEN-1`])
    expect(await granted(e, `${A}/../${B}/#`)).toBe(128)
  })

  it('revoking a key drops the device’s open connection', async () => {
    const k = await issueDeviceKey(t, A, 'KICK-1', 'u-admin')
    const c = await signIn(url(), k)
    const closed = new Promise<void>((r) => c.once('close', () => r()))
    await revokeDeviceKeys(t, A, 'KICK-1')
    await closed
  })

  it("roles and clients an older Canopy made (an organisation role that may publish under all of it) are narrowed when the admin connects", async () => {
    const admin = run.admin!
    const old = await issueDeviceKey(t, A, 'OLD-1', 'u-admin')
    // what Canopy before issue 20 made: the device's client with its organisation's role only, and that role publishing under {org}/#
    // (the first check below shows the old shape is in place)
    await admin.run([
      { command: 'removeClientRole', username: old.username, rolename: deviceRole(A, 'OLD-1') },
      { command: 'deleteRole', rolename: deviceRole(A, 'OLD-1') },
      { command: 'addRoleACL', rolename: orgRole(A), acltype: 'publishClientSend', topic: `${A}/#`, allow: true, priority: -1 },
      { command: 'addRoleACL', rolename: orgRole(A), acltype: 'publishClientSend', topic: A, allow: false, priority: 10 },
    ])
    /** what the facility hears when OLD-1 sends a forged table change, then a reading of its own on the same connection (in order) */
    const forge = async () => {
      const ear = await signIn(url(), keys[`${A}/SEN-2`])
      expect(await granted(ear, `${A}/#`)).toBe(0)
      const got = inbox(ear)
      const c = await signIn(url(), old)
      c.publish(`${A}/dtupdates`, 'forged-by-OLD-1')
      c.publish(`${A}/bcast/OLD-1`, 'own reading')
      await until(() => got.some(([tp]) => tp === `${A}/bcast/OLD-1`))
      return got
    }
    expect(await forge()).toEqual([
      [`${A}/dtupdates`, 'forged-by-OLD-1'],
      [`${A}/bcast/OLD-1`, 'own reading'],
    ])
    // Mosquitto restarts; the admin signs in again and reconciles
    await stopMosquitto()
    await until(() => !admin.up)
    const back = new Promise<void>((r) => admin.once('up', () => r()))
    mosq = await startMosquitto(mosqPort)
    await back
    expect(await forge()).toEqual([[`${A}/bcast/OLD-1`, 'own reading']])
    const [roles, client] = await admin.run([
      { command: 'listRoles', verbose: true, count: -1 },
      { command: 'getClient', username: old.username },
    ])
    const aclsOf = (name: string) => (roles.data as { roles: Array<{ rolename: string; acls: Array<{ acltype: string; topic: string; allow: boolean }> }> }).roles.find((r) => r.rolename === name)?.acls.map((a) => `${a.allow ? 'allow' : 'deny'} ${a.acltype} ${a.topic}`)
    expect(aclsOf(orgRole(A))?.sort()).toEqual([`allow subscribePattern ${A}/#`, `deny subscribeLiteral ${A}`])
    expect(aclsOf(deviceRole(A, 'OLD-1'))).toEqual([`allow publishClientSend ${A}/bcast/OLD-1`])
    expect((client.data as { client: { roles: Array<{ rolename: string }> } }).client.roles.map((r) => r.rolename).sort()).toEqual([deviceRole(A, 'OLD-1'), orgRole(A)].sort())
    await until(() => run.bus.state === 'connected', 10_000)
  })

  it('while Mosquitto is away keys cannot change (UNAVAILABLE, nothing stored); when it is back, clients whose key died meanwhile are deleted', async () => {
    const survivor = await issueDeviceKey(t, B, 'LIVE-1', 'u-admin')
    const stale = await issueDeviceKey(t, B, 'STALE-1', 'u-admin')
    await stopMosquitto()
    await until(() => !run.admin!.up)
    await expect(issueDeviceKey(t, B, 'NEW-1', 'u-admin')).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    await expect(revokeDeviceKeys(t, B, 'LIVE-1')).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    const rows = await t.db.query<{ device_id: string; revoked: boolean }>('SELECT device_id, revoked_at IS NOT NULL AS revoked FROM device_keys WHERE org = $1 AND device_id IN ($2, $3)', [B, 'NEW-1', 'LIVE-1'])
    expect(rows.rows).toEqual([{ device_id: 'LIVE-1', revoked: false }])
    // revoked behind the broker's back (a script, another instance with no admin configured)
    await t.db.query('UPDATE device_keys SET revoked_at = now() WHERE org = $1 AND device_id = $2', [B, 'STALE-1'])
    const back = new Promise<void>((r) => run.admin!.once('up', () => r()))
    mosq = await startMosquitto(mosqPort)
    await back
    expect((await connect(url(), stale)).err?.message).toMatch(/Not authorized/i)
    expect((await connect(url(), survivor)).err).toBeUndefined()
    await until(() => run.bus.state === 'connected', 10_000)
  })
})
