/*
 * Canopy's service worker (served at /sw.js with this build's asset list in self.CANOPY_BUILD).
 * - Precaches the shell: the offline page, icons, the entry and root scripts and the stylesheet.
 * - /build/* files are fingerprinted: cache first, then the network (and keep what it returns).
 * - Pages (navigations) always go to the network: data is never served stale from a cache; when
 *   the network fails, the offline page is shown instead.
 * - Nothing else is cached: no API answers, no event streams, no form posts.
 */
// a service worker: self, caches and fetch are its globals (eslint.config.js)
const BUILD = self.CANOPY_BUILD
const SHELL = 'canopy-shell-' + BUILD.version
const ASSETS = 'canopy-assets'

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((c) => c.addAll(BUILD.precache)).then(() => self.skipWaiting()))
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('canopy-shell-') && k !== SHELL).map((k) => caches.delete(k))))
      // fingerprinted assets of older builds are no longer referenced: keep only this build's
      .then(() => caches.open(ASSETS))
      .then((c) => c.keys().then((reqs) => Promise.all(reqs.filter((r) => !BUILD.precache.includes(new URL(r.url).pathname)).map((r) => c.delete(r)))))
      .then(() => self.clients.claim()),
  )
})

self.addEventListener('fetch', (event) => {
  const req = event.request
  if (req.method !== 'GET') return
  const url = new URL(req.url)
  if (url.origin !== self.location.origin) return
  if (req.mode === 'navigate') {
    event.respondWith(fetch(req).catch(() => caches.match('/offline.html', { cacheName: SHELL })))
    return
  }
  if (url.pathname.startsWith('/build/')) {
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone()
              caches.open(ASSETS).then((c) => c.put(req, copy))
            }
            return res
          }),
      ),
    )
  }
})
