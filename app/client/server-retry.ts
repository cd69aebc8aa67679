/**
 * Pages that survive a server restart (issue 28; SPEC §8 'Server unreachable'). A page's data requests
 * (Remix's GET `?_data=` loads: navigations, revalidation after a save or a Refresh; and its `/__manifest`
 * route discovery) that get no answer —
 * the server is restarting, or a proxy in front says 502/504 — are not allowed to fail: the page keeps what
 * it shows, the shell says the server is unreachable, and the request is tried again, backing off from 1 s to
 * 15 s, until the server answers; then the page gets its data as if nothing happened. Form posts are never
 * repeated (the first one may have reached the server); an aborted request (the user went elsewhere) stops.
 */
export const REACH_EVENT = 'canopy:reach'
export type ReachDetail = { reachable: boolean }
const RETRY_STATUSES = new Set([502, 504])
export const FIRST_WAIT_MS = 1000
export const MAX_WAIT_MS = 15_000

function isDataGet(input: RequestInfo | URL, init: RequestInit | undefined, origin: string): boolean {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase()
  if (method !== 'GET') return false
  try {
    const u = new URL(url, origin)
    // Remix's data loads, and its route discovery before a navigation (lazy route discovery: /__manifest)
    return u.origin === origin && (u.searchParams.has('_data') || u.pathname === '/__manifest')
  } catch {
    return false
  }
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true })
  })

/** Wraps `win.fetch` once; returns a function that undoes it. */
export function installServerRetry(win: Window & typeof globalThis = window): () => void {
  const original = win.fetch
  let down = false
  const tell = (reachable: boolean) => {
    if (down === !reachable) return
    down = !reachable
    win.dispatchEvent(new CustomEvent<ReachDetail>(REACH_EVENT, { detail: { reachable } }))
  }
  const wrapped: typeof fetch = async (input, init) => {
    if (!isDataGet(input, init, win.location.origin)) return original.call(win, input, init)
    const signal = init?.signal ?? (typeof input === 'object' && 'signal' in input ? input.signal : undefined)
    let wait = FIRST_WAIT_MS
    for (;;) {
      try {
        const r = await original.call(win, input, init)
        if (!RETRY_STATUSES.has(r.status)) {
          tell(true)
          return r
        }
      } catch (e) {
        if (signal?.aborted) throw e
      }
      tell(false)
      await sleep(wait, signal)
      wait = Math.min(MAX_WAIT_MS, wait * 2)
    }
  }
  win.fetch = wrapped
  return () => {
    if (win.fetch === wrapped) win.fetch = original
  }
}
