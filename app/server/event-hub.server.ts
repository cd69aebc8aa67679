/**
 * The server-sent events hub: every open /events stream of a browser, by organisation. The
 * store's committed changes are relayed as `table` events to streams of the same organisation
 * only (a platform change reaches nobody's facility stream), and of those only to streams whose
 * user may read that table. Sensor readings go to the streams of users who may see the sensors, notifications to one
 * user's streams (app/bus/notifications.server.ts). On shutdown every stream is ended so the process can drain.
 */
import type { Store } from '../db/store.server'
import type { ChangeEvent } from '../db/types'

export interface HubStream {
  org: string
  /** the signed-in user of the page (notifications are addressed to one user) */
  uid?: string
  /** collections the user may read here: a `table` event for any other is not sent to this stream */
  readable?: ReadonlySet<string>
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

export class EventHub {
  private streams = new Set<HubStream>()
  private detachStore: (() => void) | null = null

  get size() {
    return this.streams.size
  }

  /** Adds a stream; returns the function that removes it. */
  attach(stream: HubStream): () => void {
    this.streams.add(stream)
    return () => this.streams.delete(stream)
  }

  publish(org: string, event: string, data: unknown) {
    for (const s of this.streams) if (s.org === org && wants(s, event, data)) s.send(event, data)
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

  /** Relay committed store changes as `table` events (collection and action, never the record). */
  relayStore(store: Store) {
    const onChange = (e: ChangeEvent) => this.publish(e.org, 'table', { collection: e.collection, action: e.action })
    store.events.on('change', onChange)
    this.detachStore = () => store.events.off('change', onChange)
  }

  closeAll() {
    this.detachStore?.()
    for (const s of [...this.streams]) s.close()
    this.streams.clear()
  }
}
