/**
 * The table screen's Scan (SPEC §3 scanner settings `id:prt` / `id:more`; decision 060), shown when the
 * table has such a setting: the user's scanner is asked for a code and the record holding it has its label
 * printed (`prt`) or opens (`more`). A plain form post to /devices/record: without JavaScript the server waits
 * for the scan and redirects (to the record, or back here); with it the page stays and says what happened.
 */
import { useNavigate } from '@remix-run/react'
import { useState, type FormEvent } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { useT } from '../../i18n/t'

type Reply = { id?: string; then?: 'prt' | 'more'; href?: string; printer?: string; errors?: Array<{ message?: string }>; error?: { message?: string } }
type State = { kind: 'idle' } | { kind: 'waiting' } | { kind: 'done' | 'error'; text: string }

export function ScanBar({ screen, then }: { screen: string; then: 'prt' | 'more' }) {
  const t = useT()
  const navigate = useNavigate()
  const hydrated = useHydrated()
  const [state, setState] = useState<State>({ kind: 'idle' })
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    if (!hydrated) return
    e.preventDefault()
    setState({ kind: 'waiting' })
    try {
      const res = await fetch('/devices/record', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ screen }) })
      const body = (await res.json().catch(() => null)) as Reply | null
      if (!res.ok || !body) return setState({ kind: 'error', text: body?.errors?.[0]?.message ?? body?.error?.message ?? t('The device request failed. Try again.') })
      if (body.then === 'more' && body.href) return navigate(body.href)
      setState({ kind: 'done', text: `${t('Label sent to')} ${body.printer ?? ''} (${body.id ?? ''})` })
    } catch {
      setState({ kind: 'error', text: t('The device request failed. Try again.') })
    }
  }
  return (
    <form method="post" action="/devices/record" onSubmit={onSubmit} className="flex flex-wrap items-center gap-3" aria-label={t('Scan')}>
      <input type="hidden" name="screen" value={screen} />
      <button type="submit" disabled={state.kind === 'waiting'} className="min-h-11 rounded-md border border-canopy-500 px-4 py-2 text-canopy-300 hover:bg-canopy-900 disabled:opacity-60">
        {then === 'prt' ? t('Scan to print a label') : t('Scan to open a record')}
      </button>
      <p role="status" aria-live="polite" className={state.kind === 'error' ? 'text-red-300' : 'text-slate-300'}>
        {state.kind === 'waiting' ? t('Waiting for a scan…') : state.kind === 'done' || state.kind === 'error' ? state.text : ''}
      </p>
    </form>
  )
}
