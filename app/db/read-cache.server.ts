/**
 * Platform records that every page reads and few people change (organisations, workflows): the
 * read is kept per database for 10 s and dropped at once when this process writes that
 * collection (the store's change events). Another process's change shows within the 10 s.
 * Callers share the cached value: they must not change it.
 */
import type { Store } from './store.server'

export const READ_CACHE_TTL_MS = 10_000
const MAX_KEYS = 10_000

type Entry = { value: Promise<unknown>; at: number }
const caches = new WeakMap<Store, Map<string, Map<string, Entry>>>()

function cacheOf(store: Store): Map<string, Map<string, Entry>> {
  let c = caches.get(store)
  if (!c) {
    const fresh = new Map<string, Map<string, Entry>>()
    c = fresh
    caches.set(store, fresh)
    store.events.on('change', (e: { collection: string }) => fresh.delete(e.collection))
  }
  return c
}

/** `read()` of `collection` under `key`, or its value from the last 10 s. */
export function cachedRead<T>(store: Store, collection: string, key: string, read: () => Promise<T>, now = Date.now()): Promise<T> {
  const all = cacheOf(store)
  let byKey = all.get(collection)
  if (!byKey) all.set(collection, (byKey = new Map()))
  const hit = byKey.get(key)
  if (hit && now - hit.at < READ_CACHE_TTL_MS) return hit.value as Promise<T>
  if (byKey.size > MAX_KEYS) byKey.clear()
  const value = read()
  const entry = { value, at: now }
  byKey.set(key, entry)
  // a failed read is not remembered
  value.catch(() => byKey!.get(key) === entry && byKey!.delete(key))
  return value
}
