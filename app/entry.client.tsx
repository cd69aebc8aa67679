import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { bootSucceeded } from './client/boot-watchdog'
import { installAreas } from './areas/index'
import { installServerRetry } from './client/server-retry'
import { preloadPageParts } from './client/lazy-part'

// the business areas' pure rules (the edit form checks them as the server does: decision 022)
installAreas()
// a page's data loads wait out a server restart instead of failing the page (issue 28)
installServerRetry()

// the parts of this page kept out of the common bundle (client/lazy-part.tsx) load before hydration
void preloadPageParts(document).then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    )
    bootSucceeded()
  }),
)

// The service worker caches the shell's files and shows an offline page (public/sw-core.js).
// Not in development: rebuilt files would be served from the cache.
if (process.env.NODE_ENV === 'production' && 'serviceWorker' in navigator) {
  const register = () =>
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      /* private windows and some kiosk browsers refuse; the app works without it */
    })
  // After the page's own loads, so installing never competes with them. This module is
  // imported dynamically and may run after the load event has already fired.
  if (document.readyState === 'complete') void register()
  else window.addEventListener('load', () => void register(), { once: true })
}
