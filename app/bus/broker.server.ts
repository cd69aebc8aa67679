/**
 * The embedded MQTT broker (Aedes), started when MQTT_URL is unset: TCP on MQTT_PORT and MQTT over
 * WebSocket on MQTT_WS_PORT. Every client signs in with Canopy credentials (credentials.server.ts)
 * and may only publish and subscribe where acl.ts says. A refused sign-in answers CONNACK 5 ("Not
 * authorized"); a refused publish or subscribe closes that client's connection. A client that
 * publishes faster than MQTT_PUBLISH_PER_SEC (burst: 10 s of it) is disconnected; its bucket is
 * kept by identity, so reconnecting does not refill it. Others are not affected.
 * Every connection is guarded before Aedes reads it (packet-guard.ts, issue 20 item 3): a packet
 * header announcing more than 16 KiB before sign-in, or more than MQTT_MAX_PACKET_BYTES after,
 * closes the connection before the body is buffered; a client has 10 s to sign in. The broker
 * listens on MQTT_HOST (default 127.0.0.1: devices on other machines need MQTT_HOST=0.0.0.0).
 */
import net from 'node:net'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { Aedes } from 'aedes'
import type { Client } from 'aedes'
import { WebSocketServer, createWebSocketStream } from 'ws'
import type { Logger } from 'pino'
import { TokenBuckets } from '../utils/token-bucket'
import { describe, mayPublish, maySubscribe, type BusIdentity } from './acl'
import { guardConnection, MAX_PACKET_BYTES, SIGN_IN_MS } from './packet-guard'

export interface BrokerOptions {
  host: string
  port: number
  wsPort: number
  /** who a username and password are (null: refused) */
  authenticate: (username: string | undefined, password: Buffer | undefined) => Promise<BusIdentity | null>
  /** messages per second per identity (0: no limit) */
  publishPerSec: number
  /** the largest packet a signed-in client may send, in bytes (default 256 KiB; before sign-in: 16 KiB) */
  maxPacketBytes?: number
  /** how long a new connection has to sign in (default 10 s) */
  signInMs?: number
  logger: Logger
}

export interface EmbeddedBroker {
  /** the address its TCP listener is bound to (MQTT_HOST) */
  host: string
  url: string
  wsUrl: string
  port: number
  wsPort: number
  /** connected clients, by identity kind (for tests and the log) */
  clients: () => number
  close: () => Promise<void>
}

const identities = new WeakMap<Client, BusIdentity>()
/** each connection's guard, by the stream Aedes reads (client.conn) */
const guards = new WeakMap<object, { signedIn: () => void }>()
const keyOf = (id: BusIdentity) => describe(id)

export async function startEmbeddedBroker(o: BrokerOptions): Promise<EmbeddedBroker> {
  const log = o.logger.child({ component: 'broker' })
  const buckets = o.publishPerSec > 0 ? new TokenBuckets({ perSec: o.publishPerSec, burst: Math.max(10, o.publishPerSec * 10) }) : null
  const signInMs = o.signInMs ?? SIGN_IN_MS
  const maxPacketBytes = o.maxPacketBytes ?? MAX_PACKET_BYTES
  const aedes = await Aedes.createBroker({ drainTimeout: 30_000, maxTopicLevels: 16, heartbeatInterval: 60_000, connectTimeout: signInMs })

  aedes.authenticate = (client, username, password, done) => {
    o.authenticate(username, password ?? undefined).then(
      (id) => {
        if (!id) {
          log.warn({ client: client.id, username: username?.slice(0, 100) }, 'bus sign-in refused')
          const e = Object.assign(new Error('Not authorized'), { returnCode: 5 })
          return done(e as never, false)
        }
        identities.set(client, id)
        guards.get(client.conn)?.signedIn()
        done(null, true)
      },
      (e: Error) => {
        log.error({ err: e }, 'bus sign-in failed')
        done(Object.assign(new Error('Server unavailable'), { returnCode: 3 }) as never, false)
      },
    )
  }
  aedes.authorizePublish = (client, packet, done) => {
    const id = client ? identities.get(client) : undefined
    if (!client) return done(null) // the broker's own will messages
    if (!id || !mayPublish(id, packet.topic)) {
      log.warn({ who: id ? describe(id) : client.id, topic: packet.topic.slice(0, 200) }, 'bus publish refused')
      return done(new Error('Not authorized'))
    }
    if (buckets && id.kind !== 'server' && buckets.take(keyOf(id)) > 0) {
      log.warn({ who: describe(id) }, 'bus publish rate exceeded: client disconnected')
      return done(new Error('Rate limit exceeded'))
    }
    done(null)
  }
  aedes.authorizeSubscribe = (client, sub, done) => {
    const id = identities.get(client)
    if (!id || !maySubscribe(id, sub.topic)) {
      log.warn({ who: id ? describe(id) : client.id, topic: sub.topic.slice(0, 200) }, 'bus subscribe refused')
      // a negated subscription (SUBACK 128) rather than a dropped connection: clients see the refusal
      return done(null, null)
    }
    done(null, sub)
  }
  aedes.on('clientError', (client, err) => log.debug({ client: client?.id, err: err.message }, 'bus client error'))

  /** hands a connection to Aedes behind its guard */
  const admit = (stream: net.Socket | Duplex, from: string | undefined) => {
    const guard = guardConnection(stream, {
      maxBytes: maxPacketBytes,
      signInMs,
      onRefused: (r) =>
        log.warn(
          { from, ...r },
          r.reason === 'too-large' ? 'bus packet over the limit: connection closed' : r.reason === 'malformed' ? 'bus packet malformed: connection closed' : 'bus client did not sign in in time: connection closed',
        ),
    })
    guards.set(stream, guard)
    aedes.handle(stream as never)
  }
  const sockets = new Set<net.Socket>()
  const tcp = net.createServer({ noDelay: true }, (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    admit(socket, socket.remoteAddress)
  })
  const httpServer = http.createServer((_req, res) => {
    res.writeHead(426, { 'Content-Type': 'text/plain' }).end('MQTT over WebSocket only')
  })
  // a WebSocket message carries one packet (or a few): no frame larger than the largest packet
  const wss = new WebSocketServer({ server: httpServer, maxPayload: maxPacketBytes + 1024 })
  wss.on('connection', (ws, req) => {
    const stream = createWebSocketStream(ws)
    stream.on('error', () => stream.destroy())
    admit(stream, req.socket.remoteAddress)
  })
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject)
    tcp.listen(o.port, o.host, () => resolve())
  })
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(o.wsPort, o.host, () => resolve())
  })
  const { port, address } = tcp.address() as AddressInfo
  const wsPort = (httpServer.address() as AddressInfo).port
  const shown = o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : o.host
  log.info({ host: o.host, port, wsPort }, 'embedded MQTT broker listening')
  return {
    host: address,
    url: `mqtt://${shown}:${port}`,
    wsUrl: `ws://${shown}:${wsPort}`,
    port,
    wsPort,
    clients: () => aedes.connectedClients,
    close: async () => {
      for (const c of wss.clients) c.terminate()
      for (const s of sockets) s.destroy()
      await new Promise<void>((r) => wss.close(() => r()))
      await new Promise<void>((r) => aedes.close(() => r()))
      await Promise.all([new Promise<void>((r) => tcp.close(() => r())), new Promise<void>((r) => httpServer.close(() => r()))])
    },
  }
}
