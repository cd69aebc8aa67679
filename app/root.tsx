import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from '@remix-run/react'
import { findUser } from './auth/accounts.server'
import { activeOrgs } from './auth/flow.server'
import { guard } from './auth/guard.server'
import { messageFor } from './auth/rules'
import { IdleNotice } from './components/idle-notice'
import stylesheet from './tailwind.css'
import { APP_NAME, APP_VERSION } from './version'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [{ title: `${APP_NAME} ${APP_VERSION}` }]

/** Every page passes the route guard (SPEC §2.2) here; the result is what the shell shows. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const g = await guard(request, context)
  const url = new URL(request.url)
  const u = g.user
  const facilityName = g.session?.facility ? (await activeOrgs(context.database)).find((o) => o._id === g.session!.facility)?.fullName ?? g.session.facility : null
  return json(
    {
      user: u ? { uid: u.uid, email: u.email, role: u.role, firstname: u.firstname ?? '', lastname: u.lastname ?? '' } : null,
      step: g.session?.step ?? null,
      facility: g.session?.facility ?? null,
      facilityName,
      kiosk: g.session?.kiosk ?? false,
      actingFor: g.session && g.session.orig_uid !== g.session.uid ? ((await findUser(context.database, g.session.orig_uid))?.email ?? g.session.orig_uid) : null,
      message: messageFor(g.message ?? url.searchParams.get('msg')),
      idleSeconds: context.env.IDLE_TIMEOUT_S,
    },
    { headers: g.headers },
  )
}

export type RootData = ReturnType<typeof useRootData>
export function useRootData() {
  return useRouteLoaderData<typeof loader>('root')
}

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-950 text-slate-100 antialiased">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

export default function App() {
  const data = useRootData()
  return (
    <>
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
      <Outlet />
      {data?.user && data.step === 'done' ? <IdleNotice seconds={data.idleSeconds} /> : null}
    </>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const text = isRouteErrorResponse(error) ? (typeof error.data === 'string' && error.data ? error.data : error.statusText) : 'Something went wrong on our side. Please try again.'
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-semibold">
        {status === 404 ? 'Page not found' : status === 403 ? 'Not allowed' : status === 400 ? 'Bad request' : 'Error'} ({status})
      </h1>
      <p className="mt-2 text-slate-300">{text}</p>
      <a className="mt-4 inline-block text-canopy-400 underline" href="/Welcome">
        Back to the start page
      </a>
    </main>
  )
}
