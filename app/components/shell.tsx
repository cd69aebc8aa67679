/**
 * The shell of SPEC §2.1: top bar (menu toggle, collapse, title with version, theme, Support, user
 * menu), the side drawer built from entitlements (side-drawer.tsx; decision 061), breadcrumbs, the
 * footer (connection, user, facility, kiosk, logo), and kiosk mode (bars and drawer hidden;
 * kiosk-bar.tsx: Home, Back, the menu and Leave kiosk mode in the page's flow). The back button
 * that would leave the app asks first, in and out of kiosk mode (JavaScript only). The user menu
 * is a <details>: it opens without JS.
 */
import { Link, useFetcher, useLocation, useRevalidator } from '@remix-run/react'
import { useEffect, useState, type ReactNode } from 'react'
import { Breadcrumbs } from './breadcrumbs'
import { CollapseIcon } from './drawer-icons'
import { DRAWER_ID, SideDrawer, type FacilityChoice } from './side-drawer'
import { ConfirmDialog } from './dialogs'
import { ContentTarget } from './skip-link'
import { KeyboardShortcuts, ShortcutsHelp } from './keyboard-shortcuts'
import { KioskBar, useExitConfirmation } from './kiosk-bar'
import { useBusState, useServerConnection, type ConnectionState } from './connection'
import { Toaster } from './toasts'
import { MetrcKeyBanner } from './metrc-banner'
import { UnreadLink, type UnreadBadge } from './unread-link'
import type { MetrcKeyBanner as KeyBanner } from '../metrc/sync/banner.server'
import { useT } from '../i18n/t'
import { APP_NAME, APP_VERSION } from '../version'
import { MenuIcon, UserIcon } from './icons'

export interface MenuGroup {
  name: string
  items: Array<{ path: string; title: string }>
}

export interface ShellData {
  fullName: string
  facility: string | null
  facilityName: string | null
  facilities: number
  /** the facilities the drawer's switcher offers (only when there are more than one) */
  facilityChoices?: FacilityChoice[]
  /** the drawer shrunk to icons (a saved preference) */
  drawerCollapsed?: boolean
  kiosk: boolean
  light: boolean
  lang: 'en' | 'es'
  menu: MenuGroup[]
  /** the saved views this user pinned in this facility (decision 073): the drawer's first group */
  pinned?: Array<{ path: string; title: string }>
  /** a message for the user (SPEC §8 toasts), rendered on the server so it shows without JavaScript */
  message?: string | null
  /** admins: the facility's METRC key stopped working (issue 9) */
  metrcBanner?: KeyBanner | null
  /** the organisation's logo when it has one (files/logo.server.ts), else Canopy's is shown */
  logo?: string | null
  /** top-bar links with what waits for the user (messages, …), live over the event stream */
  unread?: UnreadBadge[]
}

function PostButton({ intent, fields, children, className = '' }: { intent: string; fields: Record<string, string>; children: ReactNode; className?: string }) {
  const location = useLocation()
  return (
    <form method="post" action="/Preferences" className="inline">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="back" value={location.pathname + location.search} />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className={`min-h-11 rounded-md px-3 ${className}`}>
        {children}
      </button>
    </form>
  )
}

/** Footer status: the page came from the server, so 'Connected' without JavaScript; live with it. */
function ConnectionStatus({ state }: { state: ConnectionState }) {
  const t = useT()
  const bus = useBusState()
  const [label, colour] =
    state === 'disrupted' ? [t('Disconnected'), 'text-red-400'] : state === 'connecting' ? [t('Connecting'), 'text-amber-300'] : state === 'reconnected' ? [t('Reconnected'), 'text-canopy-300'] : [t('Connected'), 'text-canopy-400']
  return (
    <span role="status" aria-label={t('Server connection')} data-connection={state}>
      <span aria-hidden="true" className={colour}>
        ●
      </span>{' '}
      {label}
      {bus === 'offline' || bus === 'connecting' ? (
        <span data-bus={bus} className="ml-2 text-amber-300">
          · {t('Devices offline')}
        </span>
      ) : null}
    </span>
  )
}

/** `notice`: a business area's notice above the page (the release notes' What's new), from the root. */
export function Shell({ data, children, notice }: { data: ShellData; children: ReactNode; notice?: ReactNode }) {
  const t = useT()
  const location = useLocation()
  const exit = useExitConfirmation(true)
  const revalidator = useRevalidator()
  // back after a break: what was saved meanwhile was not announced, so the page reads its data again
  const connection = useServerConnection(t, () => revalidator.revalidate())
  const [hydrated, setHydrated] = useState(false)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const collapse = useFetcher()
  // the saved value, or the one being saved (the button answers at once)
  const collapsed = collapse.formData ? collapse.formData.get('collapsed') === 'yes' : !!data.drawerCollapsed
  useEffect(() => setHydrated(true), [])
  // a new page closes the off-canvas drawer, as a page load does without JavaScript
  useEffect(() => setDrawerOpen(false), [location.pathname])
  useEffect(() => {
    if (!drawerOpen) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setDrawerOpen(false)
        document.getElementById('menu-toggle')?.focus()
      }
    }
    window.addEventListener('keydown', onKey)
    document.querySelector<HTMLElement>(`#${DRAWER_ID} a, #${DRAWER_ID} button, #${DRAWER_ID} input`)?.focus()
    return () => window.removeEventListener('keydown', onKey)
  }, [drawerOpen])
  const leaveDialog = <ConfirmDialog open={exit.asking} title={t('Leave Canopy?')} message={t('Do you want to leave the app?')} confirmLabel={t('Leave')} cancelLabel={t('Stay')} onConfirm={exit.leave} onCancel={exit.stay} />
  if (data.kiosk) {
    return (
      <div className="kiosk min-h-screen text-lg">
        {leaveDialog}
        {hydrated ? <KeyboardShortcuts /> : null}
        <Toaster serverMessage={data.message} />
        <KioskBar menu={data.menu} />
        {data.metrcBanner ? <MetrcKeyBanner b={data.metrcBanner} /> : null}
        <ContentTarget>{children}</ContentTarget>
      </div>
    )
  }
  const barButton = 'flex min-h-11 min-w-11 items-center justify-center rounded-md px-3 hover:bg-slate-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-canopy-400'
  return (
    <div className="flex min-h-screen flex-col">
      {leaveDialog}
      {hydrated ? <KeyboardShortcuts /> : null}
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-800 bg-slate-900 px-3 py-1">
        {/* narrow screens: the menu toggle opens the off-canvas drawer (without JavaScript a link to it, opened by :target) */}
        {hydrated ? (
          <button id="menu-toggle" type="button" className={`${barButton} lg:hidden`} aria-label={t('Menu')} aria-controls={DRAWER_ID} aria-expanded={drawerOpen} onClick={() => setDrawerOpen((v) => !v)}>
            <MenuIcon />
          </button>
        ) : (
          <a id="menu-toggle" href={`#${DRAWER_ID}`} className={`${barButton} lg:hidden`} aria-label={t('Menu')} aria-controls={DRAWER_ID}>
            <MenuIcon />
          </a>
        )}
        {/* wide screens: collapse the drawer to icons; saved per user on the server */}
        <collapse.Form method="post" action="/Preferences" className="hidden lg:block">
          <input type="hidden" name="intent" value="drawer" />
          <input type="hidden" name="collapsed" value={collapsed ? 'no' : 'yes'} />
          <input type="hidden" name="back" value={location.pathname + location.search} />
          {hydrated ? <input type="hidden" name="js" value="1" /> : null}
          <button type="submit" className={barButton} aria-label={t('Side menu')} aria-controls={DRAWER_ID} aria-expanded={!collapsed} title={collapsed ? t('Expand the menu') : t('Collapse the menu')}>
            <CollapseIcon collapsed={collapsed} />
          </button>
        </collapse.Form>
        <Link to="/Welcome" className="mr-auto px-2 text-lg font-semibold text-canopy-400">
          {APP_NAME} {APP_VERSION}
        </Link>
        <PostButton intent="theme" fields={{ light: data.light ? 'no' : 'yes' }} className="hover:bg-slate-800">
          {data.light ? t('Dark theme') : t('Light theme')}
        </PostButton>
        {(data.unread ?? []).filter((b) => b.kind !== 'support').map((b) => (
          <UnreadLink key={b.kind} b={b} />
        ))}
        {/* Support opens a ticket that knows the page it came from; with unread answers it shows how many */}
        <UnreadLink b={{ kind: 'support', count: 0, ...(data.unread ?? []).find((b) => b.kind === 'support'), label: t('Support'), href: `/SupportTicket?from=${encodeURIComponent(location.pathname + location.search)}` }} />
        <details className="relative">
          <summary className="flex min-h-11 cursor-pointer list-none items-center rounded-md px-3 hover:bg-slate-800" aria-label={`${t('User menu')}: ${data.fullName}`}>
            <UserIcon /> <span className="ml-2">{data.fullName}</span>
          </summary>
          <div className="absolute right-0 z-20 mt-1 flex w-56 flex-col gap-1 rounded-md border border-slate-700 bg-slate-900 p-2 shadow-xl">
            <Link to="/ChangePassword" className="flex min-h-11 items-center rounded px-3 hover:bg-slate-800">
              {t('Change Password')}
            </Link>
            <Link to="/ReleaseNotes" className="flex min-h-11 items-center rounded px-3 hover:bg-slate-800">
              {t('Release notes')}
            </Link>
            <PostButton intent="lang" fields={{ lang: data.lang === 'es' ? 'en' : 'es' }} className="w-full text-left hover:bg-slate-800">
              {data.lang === 'es' ? 'English' : 'Español'}
            </PostButton>
            <form method="post" action="/Welcome">
              <input type="hidden" name="intent" value="logout" />
              <button type="submit" className="min-h-11 w-full rounded-md px-3 text-left hover:bg-slate-800">
                {t('Logout')}
              </button>
            </form>
          </div>
        </details>
      </header>
      {data.metrcBanner ? <MetrcKeyBanner b={data.metrcBanner} /> : null}
      {notice}
      <Toaster serverMessage={data.message} />
      <div className="flex flex-1">
        <SideDrawer
          menu={data.menu}
          pinned={data.pinned ?? []}
          collapsed={collapsed}
          open={drawerOpen}
          hydrated={hydrated}
          onClose={() => setDrawerOpen(false)}
          facility={{ id: data.facility, name: data.facilityName }}
          facilities={data.facilityChoices ?? []}
        />
        <ContentTarget className="min-w-0 flex-1">
          <Breadcrumbs menu={data.menu} />
          {children}
        </ContentTarget>
      </div>
      <footer className="flex flex-wrap items-center gap-3 border-t border-slate-800 bg-slate-900 px-3 py-1 text-sm text-slate-300">
        <ConnectionStatus state={connection} />
        <span>{data.fullName}</span>
        {data.facilities > 1 ? (
          <Link to="/Facility" className="underline">
            {data.facilityName}
          </Link>
        ) : (
          <span>{data.facilityName}</span>
        )}
        <span className="ml-auto" />
        <ShortcutsHelp />
        <PostButton intent="kiosk" fields={{ kiosk: 'on' }} className="border border-slate-600 hover:bg-slate-800">
          {t('Kiosk')}
        </PostButton>
        {/* the organisation's logo, or Canopy's when it has none: never a request that answers 404 (issue 32) */}
        <img src={data.logo ?? '/favicon.svg'} alt={t('Organisation logo')} width={28} height={28} className="h-7 w-7" />
      </footer>
    </div>
  )
}
