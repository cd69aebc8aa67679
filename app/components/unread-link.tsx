/**
 * A link in the top bar with how many things wait for the user (messages, support replies): the
 * count comes with the page (no JavaScript needed) and follows the event stream's `unread` events
 * of its kind while the page is open.
 */
import { Link } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { UNREAD_EVENT } from './connection'

export interface UnreadBadge {
  kind: string
  href: string
  label: string
  count: number
}

export function UnreadLink({ b }: { b: UnreadBadge }) {
  const [count, setCount] = useState(b.count)
  useEffect(() => setCount(b.count), [b.count])
  useEffect(() => {
    const on = (e: Event) => {
      const d = (e as CustomEvent<{ kind?: string; count?: number }>).detail
      if (d?.kind === b.kind && typeof d.count === 'number') setCount(d.count)
    }
    window.addEventListener(UNREAD_EVENT, on)
    return () => window.removeEventListener(UNREAD_EVENT, on)
  }, [b.kind])
  return (
    <Link to={b.href} className="flex min-h-11 items-center gap-2 rounded-md px-3 hover:bg-slate-800" aria-label={count ? `${b.label}: ${count} unread` : b.label} data-unread-kind={b.kind}>
      {b.label}
      {count ? (
        <span className="rounded-full bg-canopy-600 px-2 text-sm font-semibold text-white" data-testid={`unread-${b.kind}`}>
          {count}
        </span>
      ) : null}
    </Link>
  )
}
