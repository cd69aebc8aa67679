import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { APP_NAME, APP_VERSION } from '../version'

export const meta: MetaFunction = () => [{ title: `${APP_NAME} ${APP_VERSION}` }]

/** The public start page (SPEC §2.2). Sign-in arrives with the sign-in issue. */
export async function loader({ context }: LoaderFunctionArgs) {
  const orgs = await context.database.store.count('auth', 'org').catch(() => 0)
  return { version: APP_VERSION, facilities: Math.max(0, orgs - 1), database: context.database.db.kind }
}

export default function Welcome() {
  const data = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center gap-6 p-8">
      <header>
        <h1 className="text-3xl font-semibold text-canopy-400">
          {APP_NAME} <span className="text-slate-400">{data.version}</span>
        </h1>
        <p className="mt-2 text-lg text-slate-300">The console for licensed cultivation, distribution, testing and compliance teams.</p>
      </header>
      <section aria-label="Status" className="rounded-lg border border-slate-800 bg-slate-900 p-4 text-slate-300">
        <p>
          {data.facilities} facilities on this server · data in {data.database === 'pglite' ? 'the embedded database' : 'PostgreSQL'}
        </p>
      </section>
    </main>
  )
}
