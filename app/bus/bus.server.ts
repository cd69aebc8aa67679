/**
 * The server's own connection to the message bus (the `mqtt` client): keepalive 60 s, reconnect
 * every 1 s (SPEC §9), subscribed to the topics of SPEC §7 for every organisation. Incoming
 * messages are parsed once (JSON, or a plain string where SPEC sends one); a payload that is not
 * valid is logged and dropped, a handler that throws is logged, and nothing here can bring the
 * process down. What is published while the broker is away is held and sent, in order, once the
 * server is connected and subscribed again.
 * `waitFor` is how a device flow waits for a reply (a scale reading, a scan).
 */
import { EventEmitter } from 'node:events'
import mqtt, { type MqttClient } from 'mqtt'
import type { Logger } from 'pino'
import { sendAtOnce } from './no-delay'
import { parseTopic, SERVER_SUBSCRIPTIONS, type ParsedTopic } from './topics'

export const KEEPALIVE_S = 60
export const RECONNECT_MS = 1000
/** the largest payload the server reads (a reading, a reply, a table name) */
const MAX_PAYLOAD = 64 * 1024
/** messages kept while the broker is away (dtupdates, device requests); older ones are dropped */
const MAX_HELD = 10_000

export interface BusMessage extends ParsedTopic {
  topic: string
  /** the parsed JSON, or the text when the payload is not JSON (dtupdates sends a bare name) */
  body: unknown
}

export type BusState = 'connecting' | 'connected' | 'offline'

export interface BusOptions {
  url: string
  username?: string
  password?: string
  logger: Logger
  clientId?: string
}

interface Waiter {
  match: (m: BusMessage) => boolean
  resolve: (m: BusMessage) => void
}

export class Bus extends EventEmitter {
  readonly client: MqttClient
  state: BusState = 'connecting'
  private waiters = new Set<Waiter>()
  private held: Array<[string, string]> = []
  private everConnected = false
  private closing = false
  private readonly log: Logger

  constructor(o: BusOptions) {
    super()
    this.log = o.logger.child({ component: 'bus' })
    this.client = mqtt.connect(o.url, {
      keepalive: KEEPALIVE_S,
      reconnectPeriod: RECONNECT_MS,
      connectTimeout: 10_000,
      clean: true,
      clientId: o.clientId ?? `canopy-server-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
      username: o.username,
      password: o.password,
      resubscribe: false, // subscribed on every connect, below, before the held messages go out
      queueQoSZero: false, // held here instead: sent only once the subscriptions are back
    })
    sendAtOnce(this.client)
    this.client.on('connect', () => {
      this.client.subscribe(SERVER_SUBSCRIPTIONS, { qos: 0 }, (err) => {
        if (err) return this.log.error({ err: err.message }, 'bus subscribe failed')
        this.flush()
      })
      const again = this.everConnected
      this.everConnected = true
      this.setState('connected')
      this.log.info({ url: o.url.replace(/\/\/[^@/]*@/, '//***@') }, again ? 'bus reconnected' : 'bus connected')
      if (again) this.emit('reconnected')
    })
    this.client.on('offline', () => this.setState('offline'))
    this.client.on('close', () => {
      if (this.state === 'connected') this.setState('offline')
    })
    this.client.on('error', (e) => this.log.warn({ err: e.message }, 'bus connection error'))
    this.client.on('message', (topic, payload) => this.receive(topic, payload))
  }

  private setState(s: BusState) {
    if (s === this.state) return
    const before = this.state
    this.state = s
    if (before === 'connected' && s === 'offline' && !this.closing) this.log.warn('bus disconnected; reconnecting every second')
    this.emit('state', s)
  }

  /** Resolves once connected (or rejects after `ms`). */
  ready(ms = 10_000): Promise<void> {
    if (this.state === 'connected') return Promise.resolve()
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.off('state', on)
        reject(new Error(`the message bus did not answer in ${Math.round(ms / 1000)} s`))
      }, ms)
      const on = (s: BusState) => {
        if (s !== 'connected') return
        clearTimeout(t)
        this.off('state', on)
        resolve()
      }
      this.on('state', on)
    })
  }

  private receive(topic: string, payload: Buffer) {
    const parsed = parseTopic(topic)
    if (!parsed) return this.log.warn({ topic: topic.slice(0, 200) }, 'bus message on an unknown topic dropped')
    if (payload.length > MAX_PAYLOAD) return this.log.warn({ topic, bytes: payload.length }, 'bus message too large: dropped')
    const text = payload.toString('utf8')
    let body: unknown = text
    if (/^\s*[[{"]/.test(text)) {
      try {
        body = JSON.parse(text)
      } catch {
        return this.log.warn({ topic, sample: text.slice(0, 80) }, 'bus message is not valid JSON: dropped')
      }
    }
    const m: BusMessage = { ...parsed, topic, body }
    for (const w of [...this.waiters]) {
      try {
        if (w.match(m)) {
          this.waiters.delete(w)
          w.resolve(m)
        }
      } catch (e) {
        this.log.warn({ err: (e as Error).message, topic }, 'bus waiter failed')
      }
    }
    try {
      this.emit('message', m)
    } catch (e) {
      this.log.error({ err: (e as Error).message, topic }, 'bus message handler failed')
    }
  }

  /** Publishes JSON (objects) or text; held while the broker is away (the oldest dropped past MAX_HELD). */
  publish(topic: string, body: unknown): void {
    const payload = typeof body === 'string' ? body : JSON.stringify(body)
    if (this.state !== 'connected' || this.held.length) {
      this.held.push([topic, payload])
      if (this.held.length > MAX_HELD) this.held.splice(0, this.held.length - MAX_HELD)
      return
    }
    this.send(topic, payload)
  }

  private send(topic: string, payload: string) {
    this.client.publish(topic, payload, { qos: 0 }, (err) => {
      if (err) this.log.warn({ err: err.message, topic }, 'bus publish failed')
    })
  }

  /** Sends what was held while the broker was away, in order. */
  private flush() {
    const held = this.held.splice(0)
    if (held.length) this.log.info({ messages: held.length }, 'bus: sending what was held while disconnected')
    for (const [topic, payload] of held) this.send(topic, payload)
  }

  /** The first message that matches, or null after `ms`. */
  waitFor(match: (m: BusMessage) => boolean, ms: number, signal?: AbortSignal): Promise<BusMessage | null> {
    return new Promise((resolve) => {
      const w: Waiter = {
        match,
        resolve: (m) => {
          clearTimeout(t)
          signal?.removeEventListener('abort', abort)
          resolve(m)
        },
      }
      const abort = () => {
        clearTimeout(t)
        this.waiters.delete(w)
        resolve(null)
      }
      const t = setTimeout(abort, ms)
      signal?.addEventListener('abort', abort, { once: true })
      this.waiters.add(w)
    })
  }

  get pending() {
    return this.waiters.size
  }

  async close(): Promise<void> {
    this.closing = true
    for (const w of this.waiters) this.waiters.delete(w)
    await this.client.endAsync(true).catch(() => {})
  }
}
