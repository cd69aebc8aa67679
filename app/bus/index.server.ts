/**
 * Starts the message bus for the process (issue 8): the embedded broker when MQTT_URL is unset,
 * then the server's own client, then the relays:
 *   committed store change ──► {org}/dtupdates (the table name)
 *   {org}/dtupdates ──► hub `table` event to that organisation's pages (every instance's writes;
 *                       not to the writer's own browser session: EventHub.expectEcho)
 *   {org}/notification/{uid}, {org}/bcast/{device} (sensor readings) ──► the handlers given
 *   bus reconnected ──► `onReconnect` (pages refresh: what they missed meanwhile is not lost)
 * Device replies (scale, scan) are awaited by the device flows through `bus.waitFor`.
 * With MQTT_URL and MQTT_ADMIN_USERNAME / MQTT_ADMIN_PASSWORD (a Mosquitto with dynamic security),
 * it first signs in as that admin, makes the server's own client there (`canopy-server`, the same
 * derived password as on the embedded broker, unless MQTT_USERNAME / MQTT_PASSWORD say otherwise),
 * deletes device clients whose key is no longer live, and registers the admin as the device-key
 * provisioner (credentials.server.ts), so every key issued or revoked reaches Mosquitto.
 * An external broker that lets an anonymous client in is refused (anonymous-check.server.ts) unless
 * MQTT_ALLOW_ANONYMOUS=1; one that does not answer at start is checked when it first does.
 */
import type { Logger } from 'pino'
import { ConfigError, type Env } from '../config/env.server'
import type { Database } from '../db/index.server'
import type { ChangeEvent } from '../db/types'
import type { EventHub } from '../events/event-hub.server'
import { acceptsAnonymous, anonymousVerdict } from './anonymous-check.server'
import { startEmbeddedBroker, type EmbeddedBroker } from './broker.server'
import { Bus, type BusMessage } from './bus.server'
import { authenticateBus, deviceKeyProvisioner, liveDeviceUsernames, serverPassword, setDeviceKeyProvisioner, SERVER_USERNAME } from './credentials.server'
import { MosquittoAdmin } from './mosquitto.server'
import { topics } from './topics'

const COLLECTION_RE = /^[a-z][a-z0-9_]{0,62}$/

export interface BusHandlers {
  notification?: (org: string, uid: string, body: unknown) => unknown
  reading?: (org: string, deviceID: string, body: unknown) => unknown
  onReconnect?: () => void
}

export interface RunningBus {
  bus: Bus
  broker: EmbeddedBroker | null
  /** the Mosquitto dynamic-security admin connection, when configured */
  admin: MosquittoAdmin | null
  close: () => Promise<void>
}

export async function startBus(o: { env: Env; database: Database; events: EventHub; logger: Logger; handlers?: BusHandlers }): Promise<RunningBus> {
  const { env, database, events, logger } = o
  const log = logger.child({ component: 'bus' })
  let broker: EmbeddedBroker | null = null
  let admin: MosquittoAdmin | null = null
  if (!env.MQTT_ADMIN_USERNAME !== !env.MQTT_ADMIN_PASSWORD) throw new ConfigError('MQTT_ADMIN_USERNAME and MQTT_ADMIN_PASSWORD: expects both or neither')
  let url = env.MQTT_URL
  let username = env.MQTT_USERNAME
  let password = env.MQTT_PASSWORD
  if (!url) {
    if (env.MQTT_ADMIN_USERNAME) log.warn('MQTT_ADMIN_USERNAME is set but MQTT_URL is not: the embedded broker needs no admin; ignored')
    broker = await startEmbeddedBroker({
      host: env.MQTT_HOST,
      port: env.MQTT_PORT,
      wsPort: env.MQTT_WS_PORT,
      publishPerSec: env.MQTT_PUBLISH_PER_SEC,
      maxPacketBytes: env.MQTT_MAX_PACKET_BYTES,
      authenticate: (u, p) => authenticateBus(database, env.SESSION_SECRET, u, p),
      logger,
    })
    url = broker.url
    username = SERVER_USERNAME
    password = serverPassword(env.SESSION_SECRET)
  }
  const allowAnonymous = env.MQTT_ALLOW_ANONYMOUS === '1'
  /** the external broker's answer to a client without credentials (null: it did not answer) */
  const anonymous = broker ? false : await acceptsAnonymous(url)
  if (anonymous) {
    const v = anonymousVerdict(url, allowAnonymous)
    if (v.refuse) throw new ConfigError(v.refuse)
    log.warn(v.warn)
  }
  if (!broker && env.MQTT_ADMIN_USERNAME && env.MQTT_ADMIN_PASSWORD) {
    const server = { username: username ?? SERVER_USERNAME, password: password ?? serverPassword(env.SESSION_SECRET) }
    ;({ username, password } = server)
    admin = await MosquittoAdmin.start({
      url,
      username: env.MQTT_ADMIN_USERNAME,
      password: env.MQTT_ADMIN_PASSWORD,
      logger,
      onConnect: async (a) => {
        await a.ensureServerClient(server.username, server.password)
        await a.reconcile(await liveDeviceUsernames(database))
      },
    })
    setDeviceKeyProvisioner(admin)
  }
  const bus = new Bus({ url, username, password, logger })

  const onChange = (e: ChangeEvent) => {
    // the writer's own page does not get this write's echo back (decision 015)
    if (e.session) events.expectEcho(e.org, e.collection, e.session)
    bus.publish(topics.dtupdates(e.org), e.collection)
  }
  database.store.events.on('change', onChange)

  bus.on('message', (m: BusMessage) => {
    void route(m).catch((e: Error) => log.warn({ err: e.message, topic: m.topic }, 'bus message handling failed'))
  })
  async function route(m: BusMessage) {
    if (m.kind === 'dtupdates') {
      const name = typeof m.body === 'string' ? m.body.trim() : ''
      if (!COLLECTION_RE.test(name)) return log.warn({ topic: m.topic, sample: String(m.body).slice(0, 60) }, 'dtupdates without a table name: dropped')
      events.publish(m.org, 'table', { collection: name })
    } else if (m.kind === 'notification') {
      await o.handlers?.notification?.(m.org, m.subject, m.body)
    } else if (m.kind === 'bcast') {
      const b = m.body as { type?: unknown } | null
      if (b && typeof b === 'object' && b.type === 'reading') await o.handlers?.reading?.(m.org, m.subject, m.body)
    }
  }
  bus.on('reconnected', () => o.handlers?.onReconnect?.())
  if (anonymous === null) {
    // not reachable at start: checked as soon as the server's own connection gets through
    const check = (s: string) => {
      if (s !== 'connected') return
      bus.off('state', check)
      void acceptsAnonymous(url).then(async (yes) => {
        if (yes === null) return bus.on('state', check) // gone again before the check: at the next connect
        if (!yes) return
        const v = anonymousVerdict(url, allowAnonymous)
        if (!v.refuse) return log.warn(v.warn)
        log.error(`${v.refuse} The message bus is closed until Canopy is restarted.`)
        await bus.close()
      })
    }
    bus.on('state', check)
  }

  try {
    await bus.ready(10_000)
  } catch (e) {
    // an external broker that is down at start: carry on; the client keeps retrying every second
    log.warn({ err: (e as Error).message }, 'message bus not reachable yet; retrying in the background')
  }
  return {
    bus,
    broker,
    admin,
    close: async () => {
      database.store.events.off('change', onChange)
      await bus.close()
      await broker?.close()
      if (admin && deviceKeyProvisioner() === admin) setDeviceKeyProvisioner(null)
      await admin?.close()
    },
  }
}
