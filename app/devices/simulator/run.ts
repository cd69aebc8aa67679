/**
 * The device simulator (issue 8 item 7): real MQTT clients that behave like a facility's devices.
 *   scale    `read_weight` on {org}/request/{id} → after `replyDelayMs` a weight on {org}/bcast/{id};
 *            `audio` commands are remembered (`sounds`) and logged
 *   rfid     `scan` on its request topic → a tag on {org}/bcast/{id}
 *   printer  `print` → fetches the label as ZPL from the configured Canopy server (never from the
 *            address in the message: decision 017) with its device credentials, writes it to
 *            `printDir/{org}-{table}-{id}-{time}.zpl`
 *   sensor   every `sensorEveryMs` a reading {type:'reading', data:{code: value}, ts} on its bcast topic
 * A scale or reader named in `silent` hears its requests (and sounds) but never answers: the
 * timeout path of the flows (a failure sound, the reason shown to the user).
 * Malformed requests are logged and ignored. Every client keeps alive 60 s and reconnects every 1 s.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import mqtt, { type MqttClient } from 'mqtt'
import type { Logger } from 'pino'
import { z } from 'zod'
import { sendAtOnce } from '../../bus/no-delay'
import { rfidTag, scaleWeight, seeded, SensorDrift, type DictionaryEntry, type Random } from './behaviour'

export type SimKind = 'scale' | 'rfid' | 'printer' | 'sensor'

export interface SimDevice {
  org: string
  deviceID: string
  kind: SimKind
  /** bus credentials issued by Canopy: `{org}/{deviceID}` and a device key */
  username: string
  password: string
}

export interface SimulatorOptions {
  mqttUrl: string
  /** where printers fetch labels, e.g. http://127.0.0.1:3000 */
  serverUrl: string
  devices: SimDevice[]
  dictionary: DictionaryEntry[]
  printDir: string
  sensorEveryMs?: number
  replyDelayMs?: number
  /** device ids that never answer read_weight or scan (DEVICES_SILENT) */
  silent?: string[]
  logger: Logger
  random?: Random
  fetch?: typeof fetch
}

export interface Simulator {
  /** every audio command received, newest last */
  readonly sounds: Array<{ org: string; deviceID: string; sound: string; at: number }>
  /** label files written */
  readonly printed: string[]
  /** resolves when every client has connected once */
  ready(timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

const REQUEST = z.discriminatedUnion('cmd', [
  z.object({ cmd: z.literal('read_weight'), args: z.string().optional(), uid: z.string().optional() }),
  z.object({ cmd: z.literal('audio'), sound: z.string().max(40) }),
  z.object({ cmd: z.literal('scan'), uid: z.string().optional() }),
  z.object({ cmd: z.literal('print'), template: z.string().max(80), id: z.string().max(80), table: z.string().regex(/^[a-z][a-z0-9_]{0,62}$/), server: z.string().optional(), org: z.string().optional() }),
])

const SAFE = /[^A-Za-z0-9_.-]/g

export function startSimulator(o: SimulatorOptions): Simulator {
  const log = o.logger.child({ component: 'device-simulator' })
  const rnd = o.random ?? seeded(Date.now() & 0xffffffff)
  const doFetch = o.fetch ?? fetch
  const silent = new Set(o.silent ?? [])
  const sounds: Simulator['sounds'] = []
  const printed: string[] = []
  const clients: MqttClient[] = []
  const timers: ReturnType<typeof setInterval>[] = []
  const pending = new Set<ReturnType<typeof setTimeout>>()
  const connected: Promise<void>[] = []
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      pending.delete(t)
      fn()
    }, ms)
    pending.add(t)
  }

  for (const d of o.devices) {
    const client = sendAtOnce(
      mqtt.connect(o.mqttUrl, { username: d.username, password: d.password, clientId: `sim-${d.org}-${d.deviceID}`.replace(SAFE, '_').slice(0, 60), keepalive: 60, reconnectPeriod: 1000, connectTimeout: 10_000 }),
    )
    clients.push(client)
    const bcast = `${d.org}/bcast/${d.deviceID}`
    const requests = `${d.org}/request/${d.deviceID}`
    connected.push(new Promise((resolve) => client.once('connect', () => resolve())))
    client.on('error', (e) => log.warn({ device: d.deviceID, err: e.message }, 'simulated device: bus error'))
    client.on('connect', () => {
      if (d.kind !== 'sensor') client.subscribe(requests, { qos: 0 })
    })
    client.on('message', (topic, payload) => {
      if (topic !== requests) return
      let body: unknown
      try {
        body = JSON.parse(payload.toString('utf8'))
      } catch {
        return log.warn({ device: d.deviceID, sample: payload.toString('utf8').slice(0, 60) }, 'simulated device: request is not JSON; ignored')
      }
      const r = REQUEST.safeParse(body)
      if (!r.success) return log.warn({ device: d.deviceID, issue: r.error.issues[0]?.message }, 'simulated device: unknown request; ignored')
      const m = r.data
      if (m.cmd === 'audio') {
        sounds.push({ org: d.org, deviceID: d.deviceID, sound: m.sound, at: Date.now() })
        if (sounds.length > 1000) sounds.shift()
        log.info({ device: d.deviceID, sound: m.sound }, 'simulated device: beep')
      } else if ((m.cmd === 'read_weight' || m.cmd === 'scan') && silent.has(d.deviceID)) {
        log.info({ device: d.deviceID, cmd: m.cmd }, 'simulated device: silent, not answering')
      } else if (m.cmd === 'read_weight' && d.kind === 'scale') {
        later(o.replyDelayMs ?? 300, () => client.publish(bcast, JSON.stringify({ type: 'weight', data: scaleWeight(rnd) })))
      } else if (m.cmd === 'scan' && d.kind === 'rfid') {
        later(o.replyDelayMs ?? 300, () => client.publish(bcast, JSON.stringify({ type: 'rfid', data: { rfid: rfidTag(rnd) } })))
      } else if (m.cmd === 'print' && d.kind === 'printer') {
        void print(d, m).catch((e: Error) => log.warn({ device: d.deviceID, err: e.message }, 'simulated printer: label not printed'))
      }
    })
    if (d.kind === 'sensor') {
      const drift = new SensorDrift(o.dictionary, rnd)
      const every = o.sensorEveryMs ?? 5000
      const send = () => client.connected && client.publish(bcast, JSON.stringify({ type: 'reading', data: drift.next(), ts: new Date().toISOString() }))
      // spread the sensors over the interval so they do not all publish at once
      later(Math.floor(rnd() * Math.min(every, 2000)), send)
      timers.push(setInterval(send, every))
    }
  }

  async function print(d: SimDevice, m: { template: string; id: string; table: string }) {
    const q = new URLSearchParams({ template: m.template, format: 'zpl' })
    const url = `${o.serverUrl.replace(/\/+$/, '')}/labels/${encodeURIComponent(m.table)}/${encodeURIComponent(m.id)}?${q}`
    const res = await doFetch(url, { headers: { Authorization: 'Basic ' + Buffer.from(`${d.username}:${d.password}`).toString('base64') }, signal: AbortSignal.timeout(10_000) })
    if (!res.ok) throw new Error(`GET label: ${res.status} ${(await res.text()).slice(0, 200)}`)
    await fs.mkdir(o.printDir, { recursive: true })
    const file = path.join(o.printDir, `${d.org}-${m.table}-${m.id}-${Date.now()}.zpl`.replace(/[^A-Za-z0-9_.-]/g, '_'))
    await fs.writeFile(file + '.tmp', Buffer.from(await res.arrayBuffer()))
    await fs.rename(file + '.tmp', file)
    printed.push(file)
    log.info({ device: d.deviceID, file }, 'simulated printer: label printed')
  }

  return {
    sounds,
    printed,
    async ready(timeoutMs = 10_000) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([Promise.all(connected), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('simulated devices did not connect in time')), timeoutMs)))])
      clearTimeout(timer)
    },
    async close() {
      for (const t of timers) clearInterval(t)
      for (const t of pending) clearTimeout(t)
      pending.clear()
      await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)))
    },
  }
}
