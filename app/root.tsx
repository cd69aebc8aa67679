import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { IconSprite } from './components/icons'
import { json } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from '@remix-run/react'
import { findUser } from './auth/accounts.server'
import { facilitiesOf, visibleRoutes } from './auth/entitlements'
import { activeOrgs } from './auth/flow.server'
import { getPrefs } from './auth/preferences.server'
import { pinnedViews } from './screens/saved-views.server'
import { workflowPath, workflowsOf } from './auth/screens.server'
import { Shell, type MenuGroup } from './components/shell'
import { PublicBar } from './components/public-bar'
import { ContentTarget, SkipLink } from './components/skip-link'
import { phrasesFor } from './i18n/phrases.server'
import { MODULES } from './route-map'
import { guard, messageFor } from './auth/guard.server'
import { metrcKeyBanner } from './metrc/sync/banner.server'
import { logoOf } from './files/logo.server'
import { unreadBadges } from './areas/unread.server'
import { whatsNewFor } from './areas/release-notes/notes.server'
import { lazyPart } from './client/lazy-part'
import { IdleNotice } from './components/idle-notice'
import { BOOT_WATCHDOG } from './client/boot-watchdog'
import { useNonce } from './client/nonce'
import { skipRevalidationWhenUnreachable } from './client/unreachable-action'
import stylesheet from './tailwind.css'
import { APP_NAME, APP_VERSION } from './version'

// shown until dismissed after a release: loaded only by the pages that show it (decision 071)
const WhatsNewNotice = lazyPart('whats-new', () => import('./areas/release-notes/whats-new').then((m) => m.WhatsNewNotice))

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
  { rel: 'apple-touch-icon', href: '/icons/icon-192.png' },
]

export const meta: MetaFunction = () => [{ title: `${APP_NAME} ${APP_VERSION}` }]
/** a post that reached no server (client/unreachable-action.ts): the shell's data is not asked for again either */
export const shouldRevalidate = skipRevalidationWhenUnreachable

/** Every page passes the route guard (SPEC §2.2) here; the result is what the shell shows. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const g = await guard(request, context)
  const url = new URL(request.url)
  const u = g.user
  const done = !!u && g.session?.step === 'done'
  const facility = g.session?.facility ?? null
  const orgs = u ? await activeOrgs(context.database) : []
  const facilityName = facility ? (orgs.find((o) => o._id === facility)?.fullName ?? facility) : null
  const menu = done ? await menuOf(context, u, facility ?? '') : []
  const prefs = done ? await getPrefs(context.database, u.uid, facility) : { light: false, lang: 'en' as const, collapsed: false, density: 'comfortable' as const }
  const mine = u ? facilitiesOf(u, orgs.map((o) => o._id)) : []
  return json(
    {
      user: u ? { uid: u.uid, email: u.email, role: u.role, firstname: u.firstname ?? '', lastname: u.lastname ?? '' } : null,
      step: g.session?.step ?? null,
      facility,
      facilityName,
      kiosk: g.session?.kiosk ?? false,
      actingFor: g.session && g.session.orig_uid !== g.session.uid ? ((await findUser(context.database, g.session.orig_uid))?.email ?? g.session.orig_uid) : null,
      message: messageFor(g.message ?? url.searchParams.get('msg')),
      idleSeconds: context.env.IDLE_TIMEOUT_S,
      light: prefs.light,
      lang: prefs.lang,
      phrases: await phrasesFor(context.database, prefs.lang),
      menu,
      // the saved views this user pinned here, of the screens the menu offers them (decision 073)
      pinned: done && facility ? (await pinnedViews(context.database, u.uid, facility)).filter((v) => menu.some((g) => g.items.some((i) => i.path === v.screen))).map((v) => ({ path: v.href, title: v.name })) : [],
      unread: done && facility ? await unreadBadges(context, u.uid, facility, menu.flatMap((g) => g.items.map((i) => i.path)), url) : [],
      facilities: mine.length,
      // the drawer's facility switcher (decision 061): only for someone with a choice
      facilityChoices: done && mine.length > 1 ? orgs.filter((o) => mine.includes(o._id)).map((o) => ({ id: o._id, name: o.fullName })) : [],
      drawerCollapsed: prefs.collapsed,
      // the table screen's density (decision 064), read there through the root's data
      density: prefs.density,
      metrcBanner: done ? await metrcKeyBanner(context, u, facility) : null,
      logo: done ? await logoOf(context.env.DATA_DIR, facility) : null,
      // release notes published since this person last looked (not in kiosk mode: a shared screen)
      whatsNew: done && !g.session?.kiosk ? await whatsNewFor(context.database, u.uid) : null,
    },
    { headers: g.headers },
  )
}

/** The drawer: each module's entitled screens, Workflows first where the facility allows some, then Super Admin. */
async function menuOf(context: LoaderFunctionArgs['context'], user: NonNullable<Awaited<ReturnType<typeof guard>>['user']>, facility: string): Promise<MenuGroup[]> {
  const routes = visibleRoutes(user, facility)
  const workflows = await workflowsOf(context.database, facility)
  // groups keep module order; a route's `group` (e.g. Facilities, or Dashboards for the Sensors dashboard) names where it shows
  const groups = new Map<string, MenuGroup['items']>()
  const add = (name: string, item: MenuGroup['items'][number]) => groups.set(name, [...(groups.get(name) ?? []), item])
  for (const m of MODULES) {
    const mine = routes.filter((r) => r.module === m.code)
    if (workflows.has(m.code) && mine.length) add(m.name, { path: workflowPath(m.code), title: 'Workflows' })
    for (const r of mine) add(r.group ?? m.name, { path: r.path, title: r.title })
  }
  for (const r of routes.filter((x) => x.module === 'admin')) add(r.group ?? 'Administration', { path: r.path, title: r.title })
  for (const r of routes.filter((x) => x.module === 'super')) add('Super Admin', { path: r.path, title: r.title })
  return [...groups].map(([name, items]) => ({ name, items }))
}

export type RootData = ReturnType<typeof useRootData>
export function useRootData() {
  return useRouteLoaderData<typeof loader>('root')
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData()
  const nonce = useNonce()
  // the saved theme is on the first byte: no flash of the wrong one
  return (
    <html lang={data?.lang ?? 'en'} className={data?.light ? 'light' : 'dark'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#14532d" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: BOOT_WATCHDOG }} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-950 text-slate-100 antialiased">
        {/* every icon's drawing, once per page (components/icons.tsx) */}
        <IconSprite />
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  const data = useRootData()
  return (
    <>
      <SkipLink />
      {data?.user && data.actingFor ? (
        <form method="post" action="/Impersonate" role="status" className="flex flex-wrap items-center justify-center gap-3 bg-amber-900 px-4 py-2 text-amber-50">
          <span>
            Acting as <strong>{data.user.email}</strong>; you are {data.actingFor}.
          </span>
          <input type="hidden" name="intent" value="stop" />
          <button type="submit" className="min-h-11 rounded-md border border-amber-200 px-3">
            Stop acting as this user
          </button>
        </form>
      ) : null}
      <Page>
        <Outlet />
      </Page>
      {data?.user && data.step === 'done' ? <IdleNotice seconds={data.idleSeconds} uid={data.user.uid} /> : null}
    </>
  )
}

function Page({ children }: { children: React.ReactNode }) {
  const data = useRootData()
  // logged out: a top bar with the title and Login (SPEC §2.1); mid sign-in (EULA, credentials, facility): the page alone
  if (!data?.user)
    return (
      <>
        <PublicBar />
        <ContentTarget>{children}</ContentTarget>
      </>
    )
  if (data.step !== 'done') return <ContentTarget>{children}</ContentTarget>
  return (
    <Shell
      data={{
        fullName: `${data.user.firstname} ${data.user.lastname}`.trim() || data.user.email,
        facility: data.facility,
        facilityName: data.facilityName,
        facilities: data.facilities,
        facilityChoices: data.facilityChoices,
        drawerCollapsed: data.drawerCollapsed,
        kiosk: data.kiosk,
        light: data.light,
        lang: data.lang,
        menu: data.menu,
        pinned: data.pinned,
        message: data.message,
        metrcBanner: data.metrcBanner,
        logo: data.logo,
        unread: data.unread,
      }}
      notice={data.whatsNew ? <WhatsNewNotice n={data.whatsNew} /> : null}
    >
      {children}
    </Shell>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const text = isRouteErrorResponse(error) ? (typeof error.data === 'string' && error.data ? error.data : error.statusText) : 'Something went wrong on our side. Please try again.'
  // inside the shell when the user is signed in (the root loader succeeded), bare otherwise
  return (
    <Page>
      <main className="mx-auto max-w-xl p-8">
        <h1 className="text-2xl font-semibold">
          {status === 404 ? 'Page not found' : status === 403 ? 'Not allowed' : status === 400 ? 'Bad request' : 'Error'} ({status})
        </h1>
        <p className="mt-2 text-slate-300">{text}</p>
        <a className="mt-4 inline-block text-canopy-400 underline" href="/Welcome">
          Back to the start page
        </a>
      </main>
    </Page>
  )
}
