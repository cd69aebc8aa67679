/**
 * Kiosk mode's own bar (SPEC §2.1; issue 32 item 5, issue 29 item 4): the shared tablet on the floor
 * shows no top bar, drawer or footer, but never traps its user: Home, Back, the menu of the screens
 * they may use (a <details>, so it opens without JavaScript) and Leave kiosk mode, in the page's flow
 * at the top, so nothing covers a table's pager. Every target is at least 44 px. Back is the
 * browser's back inside the app with JavaScript; without it (or on the page the tab entered on) it
 * goes up: from a record to its screen, from a screen to Home. The browser's back button goes back
 * inside the app as usual; only a back that would leave Canopy asks first (in and out of kiosk mode).
 */
import { Link, useLocation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useT } from '../i18n/t'
import type { MenuGroup } from './shell'
import { MenuIcon } from './icons'

const item = 'flex min-h-11 min-w-11 items-center rounded-md px-4'

export function KioskBar({ menu }: { menu: MenuGroup[] }) {
  const t = useT()
  const location = useLocation()
  return (
    <nav aria-label={t('Kiosk')} className="flex flex-wrap items-center gap-2 border-b border-slate-800 bg-slate-900 px-3 py-1">
      <Link to="/Welcome" className={`${item} font-semibold text-canopy-400 hover:bg-slate-800`}>
        {t('Home')}
      </Link>
      <Link to={upFrom(location.pathname)} onClick={(e) => {
        // an earlier page of the app in this tab: the real back (where the user came from)
        if (indexOf(history.state) > 0) {
          e.preventDefault()
          history.back()
        }
      }} className={`${item} border border-slate-600 hover:bg-slate-800`}>
        {t('Back')}
      </Link>
      {/* the page's path as its key: a new screen closes the menu, as a page load does without JavaScript;
          a change of the query only (a table settling its page size just after it loads) leaves it open */}
      <details className="relative" key={location.pathname}>
        <summary className={`${item} cursor-pointer list-none border border-slate-600 hover:bg-slate-800`}>
          <MenuIcon /> <span className="ml-2">{t('Menu')}</span>
        </summary>
        <div className="absolute left-0 z-20 mt-1 max-h-[70vh] w-80 max-w-[90vw] overflow-y-auto rounded-md border border-slate-700 bg-slate-900 p-2 shadow-xl">
          {menu.map((g) => (
            <section key={g.name} aria-label={t(g.name)} className="mb-2">
              <h2 className="px-2 py-1 text-sm font-semibold text-slate-400">{t(g.name)}</h2>
              <ul>
                {g.items.map((i) => (
                  <li key={i.path}>
                    <Link to={i.path} onClick={(e) => e.currentTarget.closest('details')?.removeAttribute('open')} className={`${item} hover:bg-slate-800`}>
                      {t(i.title)}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </details>
      <span className="ml-auto" />
      <form method="post" action="/Preferences" className="inline">
        <input type="hidden" name="intent" value="kiosk" />
        <input type="hidden" name="back" value={location.pathname + location.search} />
        <input type="hidden" name="kiosk" value="off" />
        <button type="submit" className={`${item} bg-canopy-600 text-white hover:bg-canopy-500`}>
          {t('Leave kiosk mode')}
        </button>
      </form>
    </nav>
  )
}

/**
 * A back that would leave the app asks first (SPEC §2.1: "A confirmation to exit the app is offered
 * on the back button"; the shell turns it on in and out of kiosk mode, decision 061). The page the tab
 * entered Canopy on (entry A) gets one guard entry after it, a copy of its state under a key of its
 * own; only a back that lands on A itself (its key) would be the next back out of the app, so only
 * that one asks. The key is read from the state the browser hands the popstate event, never from
 * something an effect updates after a navigation (a back pressed before that effect ran asked by
 * mistake on a slow tablet). A marker beside the key would not do: a table's first load replaces the
 * guard entry's state to set its page size, and the router's replace keeps only its own fields.
 */
export function useExitConfirmation(active: boolean) {
  const [asking, setAsking] = useState(false)
  const entry = useRef<string | null>(null)
  useEffect(() => {
    if (!active || indexOf(history.state) > 0) return
    const key = keyOf(history.state)
    entry.current = key
    history.pushState(guardState(history.state, key), '')
    document.documentElement.dataset.exitGuard = 'on'
    const onPop = (e: PopStateEvent) => {
      if (keyOf(e.state) === key) setAsking(true)
    }
    window.addEventListener('popstate', onPop)
    return () => {
      window.removeEventListener('popstate', onPop)
      delete document.documentElement.dataset.exitGuard
    }
  }, [active])
  return {
    asking,
    stay: () => {
      setAsking(false)
      history.pushState(guardState(history.state, entry.current), '')
    },
    leave: () => {
      setAsking(false)
      history.back()
    },
  }
}

const keyOf = (state: unknown): string | null => {
  const key = (state as { key?: unknown } | null)?.key
  return typeof key === 'string' ? key : null
}

/** The entry page's state under a key of its own (the router reads its location's key from it). */
const guardState = (state: unknown, key: string | null) => ({ ...(state as object | null), key: `${key ?? 'entry'}-guard` })

/** Up one level: /{screen}/{id}/edit → /{screen}; a screen → the start page. */
export function upFrom(pathname: string): string {
  const parts = pathname.split('/').filter(Boolean)
  return parts.length > 1 ? `/${parts[0]}` : '/Welcome'
}

const indexOf = (state: unknown): number => {
  const idx = (state as { idx?: unknown } | null)?.idx
  return typeof idx === 'number' ? idx : 0
}
