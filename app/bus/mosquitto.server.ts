/**
 * Canopy's credentials and ACL on a Mosquitto (issue 8), through its dynamic-security plugin: the
 * server signs in as the dynsec admin (MQTT_ADMIN_USERNAME / MQTT_ADMIN_PASSWORD) and sends commands
 * to `$CONTROL/dynamic-security/v1`. What it keeps there (ops/mosquitto/README.md for the operator):
 * - role `canopy-org-{org}` per organisation: subscribe `{org}/#`, but not the bare topic `{org}`
 *   — acl.ts's device rule. Dynsec checks a subscription's wildcards against the role's filter
 *   literally (a `+` or `#` in the request only matches a `+` or `#` in the ACL), so `#`, `+/…`
 *   and `{other}/…` are refused (SUBACK 128), like the embedded broker does. No publishing;
 * - role `canopy-device-{org}/{deviceID}` per device: publish its own `{org}/bcast/{deviceID}`
 *   only (issue 20 item 4: a device never speaks for another one);
 * - client `{org}/{deviceID}` per device with a live key, password the key, both roles; a new key
 *   replaces the client (its open connection is dropped), a revoked key deletes it and its role;
 * - role `canopy-server` (publish and subscribe `#`, which never matches `$CONTROL/…` or `$SYS/…`)
 *   and the client the server's own bus connection signs in with.
 * Users' access tokens cannot be checked by a stock Mosquitto: no client is made for users
 * (docs/decisions/014-mosquitto-dynsec.md). Roles Canopy owns are made exactly what these rules
 * say whenever they are ensured, and on every (re)connect of the admin (`reconcile`), so roles and
 * clients an older Canopy made (organisation roles that could publish) are narrowed.
 */
import crypto from 'node:crypto'
import { EventEmitter } from 'node:events'
import mqtt, { type MqttClient } from 'mqtt'
import type { Logger } from 'pino'
import { AppError } from '../utils/errors'
import type { DeviceKeyProvisioner } from './credentials.server'
import { SEGMENT_RE, topics } from './topics'

export const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1'
export const SERVER_ROLE = 'canopy-server'
/** the text name that marks a client as a device Canopy made (reconcile only ever deletes those) */
const DEVICE_TEXT = 'canopy device'
const TIMEOUT_MS = 5000

const ORG_ROLE = 'canopy-org-'
const DEVICE_ROLE = 'canopy-device-'
/** commands per control message: a batch stays well under a broker's max_packet_size (256 KiB in ops/) */
const BATCH = 100

export const orgRole = (org: string) => `${ORG_ROLE}${org}`
export const deviceRole = (org: string, deviceID: string) => `${DEVICE_ROLE}${org}/${deviceID}`

export interface DynsecAcl {
  acltype: 'publishClientSend' | 'publishClientReceive' | 'subscribeLiteral' | 'subscribePattern' | 'unsubscribeLiteral' | 'unsubscribePattern'
  topic: string
  allow: boolean
  priority?: number
}

/** The ACLs of an organisation's role: subscriptions under `{org}/`, nothing else (acl.ts, devices). */
export function orgAcls(org: string): DynsecAcl[] {
  if (!SEGMENT_RE.test(org)) throw new AppError('BAD_INPUT', 'organisation ids are plain names (letters, digits, _ . : @ -)')
  return [
    { acltype: 'subscribePattern', topic: `${org}/#`, allow: true },
    // `{org}/#` also matches `{org}` itself, which acl.ts does not allow: denied first
    { acltype: 'subscribeLiteral', topic: org, allow: false, priority: 10 },
  ]
}

/** The ACLs of a device's own role: publishing on its own topic (acl.ts). */
export function deviceAcls(org: string, deviceID: string): DynsecAcl[] {
  if (!SEGMENT_RE.test(org) || !SEGMENT_RE.test(deviceID)) throw new AppError('BAD_INPUT', 'organisation and device ids are plain names (letters, digits, _ . : @ -)')
  return [{ acltype: 'publishClientSend', topic: topics.bcast(org, deviceID), allow: true }]
}

const aclKey = (a: DynsecAcl) => JSON.stringify([a.acltype, a.topic, a.allow, a.priority ?? -1])

/**
 * The commands that make a role exactly `want`: created with its ACLs when `have` is undefined (no
 * such role), else what it lacks added and what it has beyond removed.
 */
export function roleCommands(rolename: string, want: DynsecAcl[], have: DynsecAcl[] | undefined): Command[] {
  const add = (a: DynsecAcl): Command => ({ command: 'addRoleACL', rolename, acltype: a.acltype, topic: a.topic, allow: a.allow, priority: a.priority ?? -1 })
  if (!have) return [{ command: 'createRole', rolename, textname: 'Canopy' }, ...want.map(add)]
  const wanted = new Set(want.map(aclKey))
  const kept = new Set(have.map(aclKey))
  // removeRoleACL names an ACL by type and topic (one per pair): a wrong rule on a wanted topic goes, then comes back right
  return [
    ...have.filter((a) => !wanted.has(aclKey(a))).map((a): Command => ({ command: 'removeRoleACL', rolename, acltype: a.acltype, topic: a.topic })),
    ...want.filter((a) => !kept.has(aclKey(a))).map(add),
  ]
}

const SERVER_ACLS: DynsecAcl[] = [
  { acltype: 'publishClientSend', topic: '#', allow: true },
  { acltype: 'subscribePattern', topic: '#', allow: true },
]

export type Command = Record<string, unknown> & { command: string }
interface Response {
  command: string
  error?: string
  data?: unknown
  correlationData?: string
}

export interface MosquittoAdminOptions {
  url: string
  username: string
  password: string
  logger: Logger
}

export class MosquittoAdmin extends EventEmitter implements DeviceKeyProvisioner {
  /** signed in and listening for answers */
  up = false
  private readonly client: MqttClient
  private readonly pending = new Map<string, { resolve: (r: Response[]) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>()
  private readonly log: Logger
  private readonly knownRoles = new Set<string>()

  private constructor(
    private readonly o: MosquittoAdminOptions,
    client: MqttClient,
  ) {
    super()
    this.client = client
    this.log = o.logger.child({ component: 'mosquitto-admin' })
    client.on('message', (topic, payload) => {
      if (topic !== `${CONTROL_TOPIC}/response`) return
      let body: { responses?: Response[] }
      try {
        body = JSON.parse(payload.toString('utf8'))
      } catch {
        return this.log.warn('dynamic-security answered with something that is not JSON')
      }
      const rs = Array.isArray(body.responses) ? body.responses : []
      const id = rs.find((r) => typeof r.correlationData === 'string')?.correlationData?.split(':')[0]
      if (id) this.settle(id)?.resolve(rs)
    })
    client.on('error', (e) => this.log.warn({ err: e.message }, 'Mosquitto admin connection error'))
  }

  /**
   * Connects as the dynsec admin, reconnecting every second. Rejects when Mosquitto refuses the
   * admin (a configuration error); when it is only unreachable, resolves after `waitMs` anyway and
   * every command fails (UNAVAILABLE) until it answers. `onConnect` runs after every (re)connect.
   */
  static async start(o: MosquittoAdminOptions & { waitMs?: number; onConnect?: (admin: MosquittoAdmin) => Promise<unknown> }): Promise<MosquittoAdmin> {
    const client = mqtt.connect(o.url, {
      username: o.username,
      password: o.password,
      clientId: `canopy-admin-${process.pid}-${crypto.randomBytes(3).toString('hex')}`,
      reconnectPeriod: 1000,
      connectTimeout: TIMEOUT_MS,
      clean: true,
      resubscribe: false,
    })
    const admin = new MosquittoAdmin(o, client)
    const ready = new Promise<void>((resolve, reject) => {
      const refused = (e: Error & { code?: number }) => {
        if (e.code === 5 || e.code === 4 || e.code === 135 || e.code === 134) reject(new Error(`Mosquitto refused the admin ${o.username}: ${e.message} (check MQTT_ADMIN_USERNAME / MQTT_ADMIN_PASSWORD)`))
      }
      client.on('error', refused)
      admin.once('up', () => {
        client.off('error', refused)
        resolve()
      })
    })
    client.on('connect', () => {
      admin.knownRoles.clear() // the operator may have changed the file meanwhile: roles are checked again
      void (async () => {
        const granted = await client.subscribeAsync(`${CONTROL_TOPIC}/response`, { qos: 1 })
        if (granted[0]?.qos === 128) throw new Error(`${o.username} may not read ${CONTROL_TOPIC}/response: is it the dynamic-security admin?`)
        admin.up = true
        admin.log.info('signed in to Mosquitto as its dynamic-security admin')
        await o.onConnect?.(admin)
        admin.emit('up')
      })().catch((e: Error) => {
        admin.log.error({ err: e.message }, 'Mosquitto provisioning after connect failed')
        admin.emit('up')
      })
    })
    client.on('close', () => (admin.up = false))
    const waited = await Promise.race([ready.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), o.waitMs ?? 10_000).unref())]).catch(async (e: Error) => {
      await client.endAsync(true).catch(() => {})
      throw new AppError('UNAVAILABLE', e.message)
    })
    if (!waited) admin.log.warn('Mosquitto not reachable yet: device keys cannot be issued or revoked until it answers')
    return admin
  }

  /** Sends commands in one message (the plugin runs them in order); one answer per command. */
  async run(commands: Command[]): Promise<Response[]> {
    if (!this.up) throw new AppError('UNAVAILABLE', 'Mosquitto is not reachable; nothing was changed')
    const id = crypto.randomBytes(8).toString('hex')
    const sent = commands.map((c, i) => ({ ...c, correlationData: `${id}:${i}` }))
    const answer = new Promise<Response[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new AppError('UNAVAILABLE', 'Mosquitto did not answer; nothing was changed'))
      }, TIMEOUT_MS)
      this.pending.set(id, { resolve, reject, timer })
    })
    try {
      await this.client.publishAsync(CONTROL_TOPIC, JSON.stringify({ commands: sent }), { qos: 1 })
    } catch (e) {
      this.settle(id)?.reject(new AppError('UNAVAILABLE', `Mosquitto is not reachable (${(e as Error).message}); nothing was changed`))
    }
    return answer
  }

  /** Forgets a command in flight; returns its callbacks, if it was still waiting. */
  private settle(id: string) {
    const p = this.pending.get(id)
    if (!p) return undefined
    this.pending.delete(id)
    clearTimeout(p.timer)
    return p
  }

  /** Runs commands; errors that `ok` accepts are fine, any other is thrown. */
  private async runChecked(commands: Command[], ok: (r: Response) => boolean = () => false): Promise<Response[]> {
    const rs = await this.run(commands)
    const bad = rs.find((r) => r.error && !ok(r))
    if (bad) {
      this.log.error({ command: bad.command, error: bad.error }, 'Mosquitto refused a dynamic-security command')
      throw new AppError('UNAVAILABLE', `Mosquitto refused ${bad.command}: ${bad.error}`)
    }
    return rs
  }

  /** Runs many commands in batches of BATCH (one control message each), checked as runChecked does. */
  private async runBatches(commands: Command[], ok: (r: Response) => boolean = () => false): Promise<void> {
    for (let i = 0; i < commands.length; i += BATCH) await this.runChecked(commands.slice(i, i + BATCH), ok)
  }

  /** Makes a role exactly these ACLs: created, or an existing one (an older Canopy's) corrected. */
  async ensureRole(rolename: string, acls: DynsecAcl[]): Promise<void> {
    if (this.knownRoles.has(rolename)) return
    const [got] = await this.runChecked([{ command: 'getRole', rolename }], (r) => /not found/i.test(r.error ?? ''))
    const have = got.error ? undefined : ((got.data as { role?: { acls?: DynsecAcl[] } } | undefined)?.role?.acls ?? [])
    const commands = roleCommands(rolename, acls, have)
    if (commands.length) await this.runChecked(commands, (r) => r.command === 'createRole' && /already exists/i.test(r.error ?? ''))
    this.knownRoles.add(rolename)
  }

  /** The organisation's role, the device's own role and a client for the device with this key; an older client (and its connection) is replaced. */
  async setDeviceKey(org: string, deviceID: string, key: string): Promise<void> {
    await this.ensureRole(orgRole(org), orgAcls(org))
    await this.ensureRole(deviceRole(org, deviceID), deviceAcls(org, deviceID))
    const username = `${org}/${deviceID}`
    await this.runChecked(
      [
        { command: 'deleteClient', username },
        {
          command: 'createClient',
          username,
          password: key,
          textname: DEVICE_TEXT,
          roles: [
            { rolename: orgRole(org), priority: -1 },
            { rolename: deviceRole(org, deviceID), priority: -1 },
          ],
        },
      ],
      (r) => r.command === 'deleteClient' && /not found/i.test(r.error ?? ''),
    )
    this.log.info({ username }, 'device client set on Mosquitto')
  }

  /** Deletes the device's client (its open connection is dropped), then its role. Nothing to delete is fine. */
  async removeDevice(org: string, deviceID: string): Promise<void> {
    const username = `${org}/${deviceID}`
    // the client first: a role deleted while a client holds it leaves a blank role on the client (Mosquitto 2.0)
    await this.runChecked(
      [
        { command: 'deleteClient', username },
        { command: 'deleteRole', rolename: deviceRole(org, deviceID) },
      ],
      (r) => /not found/i.test(r.error ?? ''),
    )
    this.knownRoles.delete(deviceRole(org, deviceID))
    this.log.info({ username }, 'device client removed from Mosquitto')
  }

  /**
   * The client the server's own bus connection uses (role `canopy-server`). An existing client
   * keeps its connections unless the password no longer works (another Canopy instance already
   * set it, or the secret changed).
   */
  async ensureServerClient(username: string, password: string): Promise<void> {
    await this.ensureRole(SERVER_ROLE, SERVER_ACLS)
    const [created] = await this.runChecked(
      [{ command: 'createClient', username, password, textname: 'canopy server', roles: [{ rolename: SERVER_ROLE, priority: -1 }] }],
      (r) => /already exists/i.test(r.error ?? ''),
    )
    if (!created.error) return
    if (await this.signsIn(username, password)) return
    // removed first: adding a role a client already has is an error ("Internal error" in 2.0)
    await this.runChecked(
      [
        { command: 'setClientPassword', username, password },
        { command: 'removeClientRole', username, rolename: SERVER_ROLE },
        { command: 'addClientRole', username, rolename: SERVER_ROLE, priority: -1 },
      ],
      (r) => r.command === 'removeClientRole',
    )
  }

  private async signsIn(username: string, password: string): Promise<boolean> {
    const c = mqtt.connect(this.o.url, { username, password, reconnectPeriod: 0, connectTimeout: TIMEOUT_MS, clientId: `canopy-probe-${crypto.randomBytes(3).toString('hex')}` })
    const ok = await new Promise<boolean>((resolve) => {
      c.once('connect', () => resolve(true))
      c.once('error', () => resolve(false))
      c.once('close', () => resolve(false))
    })
    await c.endAsync(true).catch(() => {})
    return ok
  }

  /**
   * Brings what Canopy owns on Mosquitto in line with the database and today's rules (on every
   * (re)connect of the admin): device clients whose key is no longer live (revoked while this
   * process was not provisioning, e.g. by a script) are deleted with their roles; organisation
   * roles are made exactly orgAcls (an older Canopy's could publish under the whole
   * organisation); every live device client gets its own role (deviceAcls) if it lacks it.
   * `live` holds `{org}/{deviceID}` names. Answers the device clients deleted.
   */
  async reconcile(live: Set<string>): Promise<string[]> {
    const [rs, cs] = await this.runChecked([
      { command: 'listRoles', verbose: true, count: -1 },
      { command: 'listClients', verbose: true, count: -1 },
    ])
    const roles = new Map(((rs.data as { roles?: Array<{ rolename: string; acls?: DynsecAcl[] }> } | undefined)?.roles ?? []).map((r) => [r.rolename, r.acls ?? []]))
    const clients = ((cs.data as { clients?: Array<{ username: string; textname?: string; roles?: Array<{ rolename: string }> }> } | undefined)?.clients ?? []).filter((c) => c.textname === DEVICE_TEXT)
    const gone = clients.filter((c) => !live.has(c.username)).map((c) => c.username)
    const kept = clients.filter((c) => live.has(c.username))
    const liveRoles = new Set(kept.map((c) => `${DEVICE_ROLE}${c.username}`))
    const commands: Command[] = [
      // clients before roles: a role deleted while a client holds it leaves a blank role on the client
      ...gone.map((username): Command => ({ command: 'deleteClient', username })),
      ...[...roles.keys()].filter((r) => r.startsWith(DEVICE_ROLE) && !liveRoles.has(r)).map((rolename): Command => ({ command: 'deleteRole', rolename })),
    ]
    for (const [rolename, acls] of roles) {
      const org = rolename.startsWith(ORG_ROLE) ? rolename.slice(ORG_ROLE.length) : ''
      if (SEGMENT_RE.test(org)) commands.push(...roleCommands(rolename, orgAcls(org), acls))
    }
    for (const c of kept) {
      const [org, deviceID] = c.username.split('/')
      if (!SEGMENT_RE.test(org ?? '') || !SEGMENT_RE.test(deviceID ?? '')) continue
      const rolename = deviceRole(org, deviceID)
      commands.push(...roleCommands(rolename, deviceAcls(org, deviceID), roles.get(rolename)))
      if (!c.roles?.some((r) => r.rolename === rolename)) commands.push({ command: 'addClientRole', username: c.username, rolename, priority: -1 })
    }
    if (commands.length) await this.runBatches(commands, (x) => /not found/i.test(x.error ?? ''))
    const narrowed = commands.filter((c) => c.command !== 'deleteClient' && c.command !== 'deleteRole').length
    if (gone.length) this.log.warn({ clients: gone.length }, 'Mosquitto: device clients without a live key deleted')
    if (narrowed) this.log.info({ commands: narrowed }, "Mosquitto: Canopy's roles brought in line with its rules")
    return gone
  }

  async close(): Promise<void> {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new AppError('UNAVAILABLE', 'the Mosquitto admin connection was closed'))
    await this.client.endAsync(true).catch(() => {})
  }
}
