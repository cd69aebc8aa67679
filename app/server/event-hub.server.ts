/**
 * The server-sent events hub: every open /events stream of a browser, by organisation. The
 * store's committed changes are relayed as `table` events to streams of the same organisation
 * only (a platform change reaches nobody's facility stream). Device messages (MQTT) will be
 * relayed through the same hub. On shutdown every stream is ended so the process can drain.
 */
import type { Store } from '../db/store.server'
import type { ChangeEvent } from '../db/types'

export interface HubStream {
  org: string
  send: (event: string, data: unknown) => void
  close: () => void
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
    for (const s of this.streams) if (s.org === org) s.send(event, data)
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
