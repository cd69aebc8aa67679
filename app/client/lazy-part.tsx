/**
 * A part of a page that only some pages show (a help guide, the sensor board, the kiosk bar, …), kept out
 * of the JavaScript every page downloads (decision 071) and still rendered by the server at once:
 * - on the server the module is imported when this file loads, long before a request, so the part
 *   renders in the first pass (never a streamed fallback: pages must work without JavaScript);
 * - the part's wrapper names it (`data-part`); before hydrating, entry.client asks
 *   `preloadPageParts()` to load the parts the server's page shows, so hydration finds them ready;
 * - a part a later navigation shows loads then (a Suspense boundary shows nothing meanwhile).
 */
import { Suspense, type ComponentType } from 'react'

const registry = new Map<string, () => Promise<unknown>>()

export function lazyPart<P extends object>(name: string, load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let Loaded: ComponentType<P> | null = null
  let pending: Promise<void> | null = null
  const preload = () =>
    (pending ??= load().then((c) => {
      Loaded = c
    }))
  registry.set(name, preload)
  if (typeof document === 'undefined') preload().catch(() => {}) // the server renders it at once (a failure shows at render)
  function Inner(props: P) {
    if (Loaded) return <Loaded {...props} />
    // a chunk that does not load leaves the server's markup in place (it works as without JavaScript)
    throw preload().catch(() => new Promise<void>(() => {}))
  }
  function Part(props: P) {
    return (
      <div data-part={name} className="contents">
        <Suspense fallback={null}>
          <Inner {...props} />
        </Suspense>
      </div>
    )
  }
  Part.displayName = `Part(${name})`
  return Part
}

/** Loads the parts this server-rendered document shows; never fails (a part that did not load hydrates later). */
export function preloadPageParts(doc: Document): Promise<unknown> {
  const names = new Set([...doc.querySelectorAll<HTMLElement>('[data-part]')].map((e) => e.dataset.part ?? ''))
  return Promise.allSettled([...names].map((n) => registry.get(n)?.()))
}
