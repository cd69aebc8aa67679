/**
 * The server-sent events hub: every open /events stream of a browser, by organisation. The
 * store's committed changes are relayed as `table` events to streams of the same organisation
 * only (a platform change reaches nobody's facility stream), and of those only to streams whose
 * user may read that table. Sensor readings go to the streams of users who may see the sensors, notifications to one
 * user's streams (app/bus/notifications.server.ts). On shutdown every stream is ended so the process can drain.
 *
 * The writer's own browser session does not get the `table` event of its own write (its page
 * reloads after the save anyway; a lit Refresh would only say "you saved"). A change relayed from
 * the store directly names that session; a change that comes back from the bus (`{org}/dtupdates`
 * carries only the table name) is matched by `expectEcho`: the writer's session skips as many
 * echoes of that table as it wrote, each remembered for ECHO_MS at most.
 */
import type { Store } from '../db/store.server'
import type { ChangeEvent } from '../db/types'

export interface HubStream {
  org: string
  /** the signed-in user of the page (notifications are addressed to one user) */
  uid?: string
  /** collections the user may read here: a `table` event for any other is not sent to this stream */
  readable?: ReadonlySet<string>
  /** the page's browser session (its hash, as in Actor.session): its own writes are not announced to it */
  session?: string
  send: (event: string, data: unknown) => void
  close: () => void
}

/** the collection whose screens show sensor readings (the Sensors dashboard, the device settings) */
const READINGS_OF = 'sen_devices'

/** Does this stream get this event? A table change only where the user may read that table; a sensor reading only where they may see the sensors. */
function wants(s: HubStream, event: string, data: unknown): boolean {
  if (!s.readable) return true
  if (event === 'reading') return s.readable.has(READINGS_OF)
  if (event !== 'table') return true
  const c = (data as { collection?: unknown } | null)?.collection
  return typeof c === 'string' && s.readable.has(c)
}

/** how long a write waits for its bus echo to be skipped (the broker round trip is milliseconds) */
export const ECHO_MS = 5000

export class EventHub {
  private streams = new Set<HubStream>()
  private detachStore: (() => void) | null = null
  /** `{org}\0{collection}` → writer sessions still to skip one echo each, with when that expires */
  private echoes = new Map<string, Array<{ session: string; until: number }>>()

  constructor(private readonly now: () => number = Date.now) {}

  get size() {
    return this.streams.size
  }

  /** Adds a stream; returns the function that removes it. */
  attach(stream: HubStream): () => void {
    this.streams.add(stream)
    return () => this.streams.delete(stream)
  }

  /**
   * To the organisation's streams that want it. A `table` event skips the session `except` names
   * (the writer's, relayed from the store) or, without it, the sessions waiting for this echo.
   */
  publish(org: string, event: string, data: unknown, except?: string) {
    const skip = event !== 'table' ? null : except ? new Set([except]) : this.takeEchoes(org, (data as { collection?: unknown } | null)?.collection)
    for (const s of this.streams) if (s.org === org && wants(s, event, data) && !(skip && s.session && skip.has(s.session))) s.send(event, data)
  }

  /** A session wrote to this table and the change goes out on the bus: skip its echo for that session once. */
  expectEcho(org: string, collection: string, session: string) {
    const key = `${org}\0${collection}`
    const now = this.now()
    const list = (this.echoes.get(key) ?? []).filter((e) => e.until > now)
    list.push({ session, until: now + ECHO_MS })
    this.echoes.set(key, list)
    // forget tables nobody wrote to lately, so the map stays as small as the last few seconds' writes
    if (this.echoes.size > 1000) for (const [k, l] of this.echoes) if (l.every((e) => e.until <= now)) this.echoes.delete(k)
  }

  /** The sessions that skip this echo: one pending write each is used up. */
  private takeEchoes(org: string, collection: unknown): Set<string> | null {
    if (typeof collection !== 'string') return null
    const key = `${org}\0${collection}`
    const list = this.echoes.get(key)
    if (!list) return null
    const now = this.now()
    const skip = new Set<string>()
    const rest = list.filter((e) => {
      if (e.until <= now) return false
      if (skip.has(e.session)) return true
      skip.add(e.session)
      return false
    })
    if (rest.length) this.echoes.set(key, rest)
    else this.echoes.delete(key)
    return skip.size ? skip : null
  }

  /** To one user's pages in one organisation (a notification); answers how many streams got it. */
  publishToUser(org: string, uid: string, event: string, data: unknown): number {
    let n = 0
    for (const s of this.streams)
      if (s.org === org && s.uid === uid) {
        s.send(event, data)
        n++
      }
    return n
  }

  /** Every open stream, whatever its organisation (e.g. `resync` after the bus reconnects). */
  broadcast(event: string, data: unknown) {
    for (const s of this.streams) s.send(event, data)
  }

  /** Relay committed store changes as `table` events (the collection only: never the record, nor who). */
  relayStore(store: Store) {
    const onChange = (e: ChangeEvent) => this.publish(e.org, 'table', { collection: e.collection }, e.session)
    store.events.on('change', onChange)
    this.detachStore = () => store.events.off('change', onChange)
  }

  closeAll() {
    this.detachStore?.()
    for (const s of [...this.streams]) s.close()
    this.streams.clear()
    this.echoes.clear()
  }
}
