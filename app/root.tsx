import type { LinksFunction, MetaFunction } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError } from '@remix-run/react'
import stylesheet from './tailwind.css'
import { APP_NAME, APP_VERSION } from './version'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export const meta: MetaFunction = () => [{ title: `${APP_NAME} ${APP_VERSION}` }]

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
  return <Outlet />
}

export function ErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const text = isRouteErrorResponse(error) ? error.statusText || (typeof error.data === 'string' ? error.data : '') : 'Something went wrong on our side. Please try again.'
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-semibold">
        {status === 404 ? 'Page not found' : status === 403 ? 'Not allowed' : 'Error'} ({status})
      </h1>
      <p className="mt-2 text-slate-300">{text}</p>
      <a className="mt-4 inline-block text-canopy-400 underline" href="/Welcome">
        Back to the start page
      </a>
    </main>
  )
}
