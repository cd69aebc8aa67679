/**
 * The side drawer of SPEC §2.1 (issue 29 item 4; decision 061): the groups of the screens the
 * user is entitled to (the root loader's menu, from app/route-map.ts), the current screen marked
 * `aria-current="page"` and its group open, a filter, and the facility switcher in its head.
 *
 * Wide screens (≥ 1024 px): docked at the left; the top bar's collapse button shrinks it to the
 * groups' icons (saved per user on the server, so the first paint is right). Narrow screens (the
 * 800 px tablet): off-canvas, opened by the top bar's Menu. Without JavaScript the Menu is a link to
 * `#nav-drawer` and CSS `:target` opens it; the filter is a GET form (`?menu=`), answered by the
 * server with the narrowed list. With JavaScript the filter narrows as one types. Styles: tailwind.css.
 */
import { Form, Link, useLocation, useSubmit } from '@remix-run/react'
import { useState } from 'react'
import { useT } from '../i18n/t'
import { GroupIcon } from './drawer-icons'
import { CloseIcon } from './icons'
import { filterMenu, isCurrentScreen, isCurrentView, MENU_FILTER_PARAM, PINNED_GROUP, type MenuEntry, type MenuGroupLike } from './menu-filter'

export const DRAWER_ID = 'nav-drawer'
/** the page beside the drawer: without JavaScript, Close is a link here (the drawer is no longer the :target) */
export const CONTENT_ID = 'shell-content'

/** the drawer's focus ring, inside its controls (tailwind.css `.ring-in`) */
const focus = 'ring-in'

export interface FacilityChoice {
  id: string
  name: string
}

export function SideDrawer({ menu, pinned = [], collapsed, open, hydrated, onClose, facility, facilities }: {
  menu: MenuGroupLike[]
  /** the user's pinned saved views (decision 073): a group above the modules, each a link to the view */
  pinned?: MenuEntry[]
  collapsed: boolean
  /** opened on a narrow screen (with JavaScript; without it, `:target` opens it) */
  open: boolean
  hydrated: boolean
  onClose: () => void
  facility: { id: string | null; name: string | null }
  facilities: FacilityChoice[]
}) {
  const t = useT()
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  const [query, setQuery] = useState(() => params.get(MENU_FILTER_PARAM) ?? '')
  const shown = filterMenu(pinned.length ? [{ name: PINNED_GROUP, items: pinned }, ...menu] : menu, query, t)
  const filtering = query.trim() !== ''
  return (
    <>
      <aside id={DRAWER_ID} className={`drawer border-r border-slate-800 bg-slate-900 ${open ? 'drawer-open' : ''}`} data-collapsed={collapsed ? '' : undefined}>
        <div className="drawer-wide flex items-start gap-2 border-b border-slate-800 p-2">
          <FacilitySwitcher facility={facility} facilities={facilities} hydrated={hydrated} />
          {hydrated ? (
            <button type="button" onClick={onClose} className={`drawer-close flex min-h-11 min-w-11 items-center justify-center rounded-md hover:bg-slate-800 ${focus}`} aria-label={t('Close menu')}>
              <CloseIcon />
            </button>
          ) : (
            <a href={`#${CONTENT_ID}`} className={`drawer-close flex min-h-11 min-w-11 items-center justify-center rounded-md hover:bg-slate-800 ${focus}`} aria-label={t('Close menu')}>
              <CloseIcon />
            </a>
          )}
        </div>
        <nav aria-label={t('Main menu')} className="p-2">
          <form method="get" action={`${location.pathname}#${DRAWER_ID}`} role="search" className="drawer-wide mb-2 flex gap-1" onSubmit={(e) => e.preventDefault()}>
            {[...params].filter(([k]) => k !== MENU_FILTER_PARAM && k !== 'msg').map(([k, v], i) => (
              <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
            ))}
            <label htmlFor="menu-filter" className="sr-only">
              {t('Filter the menu')}
            </label>
            <input
              id="menu-filter"
              type="search"
              name={MENU_FILTER_PARAM}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={t('Filter the menu')}
              autoComplete="off"
              className={`min-h-11 min-w-0 flex-1 rounded-md border border-slate-600 bg-slate-950 px-2 text-slate-100 ${focus}`}
            />
            {hydrated ? null : (
              <button type="submit" className={`min-h-11 rounded-md border border-slate-600 px-3 hover:bg-slate-800 ${focus}`}>
                {t('Filter')}
              </button>
            )}
          </form>
          {shown.map((g) => {
            const isPinned = g.name === PINNED_GROUP
            const currentOf = (path: string) => (isPinned ? isCurrentView(path, location.pathname, location.search) : isCurrentScreen(path, location.pathname))
            const here = g.items.some((i) => currentOf(i.path))
            // collapsed, a group opens beside the drawer only when asked (and closes on a new page);
            // expanded, the current screen's group is open, and every group that matches the filter
            return (
              <details key={collapsed ? `${g.name} ${location.pathname}` : g.name} open={collapsed ? false : filtering || here || isPinned} className="drawer-group mb-1" data-testid={isPinned ? 'pinned-views' : undefined}>
                <summary className={`flex min-h-11 cursor-pointer list-none items-center gap-2 rounded px-2 font-semibold hover:bg-slate-800 ${here ? 'text-canopy-400' : ''} ${focus}`} title={collapsed ? t(g.name) : undefined}>
                  <GroupIcon name={g.name} />
                  <span className="drawer-label">{t(g.name)}</span>
                </summary>
                <ul className="drawer-items">
                  {g.items.map((i, n) => {
                    const current = currentOf(i.path)
                    return (
                      <li key={isPinned ? n : i.path}>
                        <Link
                          to={i.path}
                          aria-current={current ? 'page' : undefined}
                          onClick={onClose}
                          className={`nav-link hover:bg-slate-800 ${current ? 'border-canopy-400 bg-slate-800 font-semibold text-canopy-400' : 'border-transparent'} ${focus}`}
                        >
                          {isPinned ? i.title : t(i.title)}
                        </Link>
                      </li>
                    )
                  })}
                </ul>
              </details>
            )
          })}
          {shown.length === 0 ? (
            <p role="status" className="drawer-wide px-2 py-3 text-slate-400">
              {t('No screen matches')} “{query}”
            </p>
          ) : null}
        </nav>
      </aside>
      {/* narrow screens: the dimmed page behind the open drawer closes it (a link without JavaScript) */}
      {hydrated ? (
        <div className="drawer-backdrop" aria-hidden="true" onClick={onClose} />
      ) : (
        <a href={`#${CONTENT_ID}`} className="drawer-backdrop" tabIndex={-1}>
          <span className="sr-only">{t('Close menu')}</span>
        </a>
      )}
    </>
  )
}

/** The facility in the drawer's head; with more than one, a picker that switches (POST /Facility, then the start page). */
function FacilitySwitcher({ facility, facilities, hydrated }: { facility: { id: string | null; name: string | null }; facilities: FacilityChoice[]; hydrated: boolean }) {
  const t = useT()
  const submit = useSubmit()
  if (facilities.length < 2)
    return (
      <p className="min-w-0 flex-1 px-2 py-1 text-sm">
        <span className="block text-slate-400">{t('Facility')}</span>
        <span className="block truncate font-semibold">{facility.name}</span>
      </p>
    )
  return (
    <Form method="post" action="/Facility" className="flex min-w-0 flex-1 flex-col gap-1 px-1 text-sm">
      <label htmlFor="drawer-facility" className="text-slate-400">
        {t('Facility')}
      </label>
      <div className="flex gap-1">
        <select
          id="drawer-facility"
          name="facility"
          defaultValue={facility.id ?? ''}
          onChange={(e) => submit(e.currentTarget.form)}
          className={`min-h-11 min-w-0 flex-1 rounded-md border border-slate-600 bg-slate-950 px-1 text-slate-100 ${focus}`}
        >
          {facilities.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        {hydrated ? null : (
          <button type="submit" className={`min-h-11 rounded-md border border-slate-600 px-2 hover:bg-slate-800 ${focus}`}>
            {t('Switch')}
          </button>
        )}
      </div>
    </Form>
  )
}
