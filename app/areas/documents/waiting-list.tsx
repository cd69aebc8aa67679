/** The policies waiting for the signed-in user to read and acknowledge (policiesWaitingFor). */
import { Link } from '@remix-run/react'
import type { WaitingPolicy } from './policies.server'

export function WaitingList({ items, empty }: { items: WaitingPolicy[]; empty?: string }) {
  if (!items.length) return empty ? <p className="text-slate-300">{empty}</p> : null
  return (
    <section aria-labelledby="waiting-title" className="rounded-md border border-amber-500 bg-amber-950/40 p-3">
      <h2 id="waiting-title" className="font-semibold text-amber-200">
        {items.length === 1 ? '1 policy waits for you to read and acknowledge' : `${items.length} policies wait for you to read and acknowledge`}
      </h2>
      <ul className="mt-2 flex flex-col gap-1">
        {items.map((p) => (
          <li key={p.id}>
            <Link to={`/PolDocs/${p.id}/read`} className="flex min-h-11 items-center gap-2 text-amber-100 underline">
              {p.title}
              <span className="text-xs text-amber-300/80">
                {p.docNo ? `${p.docNo} · ` : ''}version {p.version}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
