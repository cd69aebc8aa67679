/** The read cache of platform records (app/db/read-cache.server.ts): TTL, invalidation by the store's change events, failures not kept. */
import { EventEmitter } from 'node:events'
import { cachedRead, READ_CACHE_TTL_MS } from '#app/db/read-cache.server'
import type { Store } from '#app/db/store.server'

// the cache needs only the store's change events
const storeLike = () => ({ events: new EventEmitter() }) as unknown as Store

describe('cachedRead', () => {
  it('reads once within the time to live, again after it', async () => {
    const store = storeLike()
    let reads = 0
    const read = async () => ++reads
    expect(await cachedRead(store, 'org', 'all', read, 1_000)).toBe(1)
    expect(await cachedRead(store, 'org', 'all', read, 1_000 + READ_CACHE_TTL_MS - 1)).toBe(1)
    expect(await cachedRead(store, 'org', 'all', read, 1_000 + READ_CACHE_TTL_MS)).toBe(2)
  })
  it('drops a collection at once when the store writes it, and only that collection', async () => {
    const store = storeLike()
    let n = 0
    const read = async () => ++n
    await cachedRead(store, 'org', 'a', read, 0)
    await cachedRead(store, 'auth_workflows', 'b', read, 0)
    store.events.emit('change', { collection: 'org' })
    expect(await cachedRead(store, 'org', 'a', read, 1)).toBe(3)
    expect(await cachedRead(store, 'auth_workflows', 'b', read, 1)).toBe(2)
  })
  it('keeps databases apart and does not remember a failed read', async () => {
    const a = storeLike()
    const b = storeLike()
    expect(await cachedRead(a, 'org', 'k', async () => 'a', 0)).toBe('a')
    expect(await cachedRead(b, 'org', 'k', async () => 'b', 0)).toBe('b')
    await expect(cachedRead(a, 'x', 'k', async () => Promise.reject(new Error('down')), 0)).rejects.toThrow('down')
    expect(await cachedRead(a, 'x', 'k', async () => 'up', 0)).toBe('up')
  })
})
