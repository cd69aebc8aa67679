/**
 * Pages that survive a server restart (issue 28; SPEC §8). A page's data requests
 * (Remix's GET `?_data=` loads: navigations, revalidation after a save or a Refresh; and its `/__manifest`
 * route discovery) that get no answer —
 * the server is restarting, or a proxy in front says 502/503/504 — are not allowed to fail: the page keeps what
 * it shows, the shell says so, and the request is tried again, backing off from 1 s to
 * 15 s, until the server answers; then the page gets its data as if nothing happened. Form posts are never
 * repeated (the first one may have reached the server); an aborted request (the user went elsewhere) stops.
 *
 * Why the server is out of reach (`ReachDetail.why`, decision 060): `unanswered` — no response at all (SPEC §8
 * "No response: 'Server unreachable'"); `proxy` — something in front of Canopy answered 502/503/504 for it, or
 * Canopy itself timed out (503): the server is there but not accessible ('Server is not accessible, please try
 * again later').
 */
export const REACH_EVENT = 'canopy:reach'
export type ReachWhy = 'unanswered' | 'proxy'
export type ReachDetail = { reachable: true } | { reachable: false; why: ReachWhy }
const RETRY_STATUSES = new Set([502, 503, 504])
let last: ReachDetail = { reachable: true }
/** What the last data request found (for a component that mounts while the server is already out of reach). */
export const currentReach = (): ReachDetail => last
export const FIRST_WAIT_MS = 1000
export const MAX_WAIT_MS = 15_000

/**
 * A form post (Remix's POST `?_data=`) answered 502/503/504 by something other than Canopy (no `X-Remix-*`
 * header): the server did not answer it, so it fails like a post that got no response at all — a TypeError,
 * as `fetch` rejects then — and a route's clientAction can say so (client/unreachable-action.ts).
 */
export class ServerUnreachableError extends TypeError {
  constructor(readonly status: number) {
    super(`the server did not answer (${status} from in front of it)`)
    this.name = 'TypeError'
  }
}

function kindOf(input: RequestInfo | URL, init: RequestInit | undefined, origin: string): 'data-get' | 'data-post' | 'other' {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase()
  try {
    const u = new URL(url, origin)
    if (u.origin !== origin) return 'other'
    // Remix's data loads, and its route discovery before a navigation (lazy route discovery: /__manifest)
    if (method === 'GET') return u.searchParams.has('_data') || u.pathname === '/__manifest' ? 'data-get' : 'other'
    return u.searchParams.has('_data') ? 'data-post' : 'other'
  } catch {
    return 'other'
  }
}

const fromCanopy = (r: Response) => r.headers.has('X-Remix-Error') || r.headers.has('X-Remix-Catch') || r.headers.has('X-Remix-Response')

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true })
  })

/** Wraps `win.fetch` once; returns a function that undoes it. */
export function installServerRetry(win: Window & typeof globalThis = window): () => void {
  const original = win.fetch
  let told: ReachDetail = { reachable: true }
  const tell = (detail: ReachDetail) => {
    last = detail
    if (told.reachable === detail.reachable && (detail.reachable || (!told.reachable && told.why === detail.why))) return
    told = detail
    win.dispatchEvent(new CustomEvent<ReachDetail>(REACH_EVENT, { detail }))
  }
  const wrapped: typeof fetch = async (input, init) => {
    const kind = kindOf(input, init, win.location.origin)
    if (kind === 'other') return original.call(win, input, init)
    if (kind === 'data-post') {
      const r = await original.call(win, input, init)
      if (RETRY_STATUSES.has(r.status) && !fromCanopy(r)) throw new ServerUnreachableError(r.status)
      return r
    }
    const signal = init?.signal ?? (typeof input === 'object' && 'signal' in input ? input.signal : undefined)
    let wait = FIRST_WAIT_MS
    for (;;) {
      let why: ReachWhy = 'unanswered'
      try {
        const r = await original.call(win, input, init)
        if (!RETRY_STATUSES.has(r.status)) {
          tell({ reachable: true })
          return r
        }
        why = 'proxy'
      } catch (e) {
        if (signal?.aborted) throw e
      }
      tell({ reachable: false, why })
      await sleep(wait, signal)
      wait = Math.min(MAX_WAIT_MS, wait * 2)
    }
  }
  win.fetch = wrapped
  return () => {
    if (win.fetch === wrapped) win.fetch = original
  }
}
