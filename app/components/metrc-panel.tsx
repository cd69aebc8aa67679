/**
 * Above a Metrc table (issue 9): the facility's METRC link and this table's sync — last synced,
 * current or stale, METRC unreachable since when, a key METRC stopped taking, the open drift of the
 * Canopy table compared with it (a link to /MetrcDrift), the facility's pushes (a link to
 * /MetrcOutbox) — with "Sync now" and, for admins, the link form. Plain forms: they work without
 * JavaScript; with it, a running Sync now shows its progress (rows read, requests) until the page
 * comes back with the result.
 */
import { Link } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { CREDENTIAL_STATES } from '../auth/messages'
import { METRC_SYNC_EVENT } from './connection'
import type { MetrcPanel as Panel } from '../metrc/sync/panel.server'
import { useT } from '../i18n/t'
import { Notice } from './ui'

const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '')

const OUTCOME: Record<string, { tone: 'success' | 'error'; text: string }> = {
  linked: { tone: 'success', text: 'This facility is now linked to METRC.' },
  license: { tone: 'error', text: 'State License was incorrect.' },
  key: { tone: 'error', text: 'METRC did not accept that API key.' },
  incomplete: { tone: 'error', text: 'Choose the state and enter the license and the API key.' },
  none: { tone: 'error', text: 'METRC is not set up on this server.' },
}

/** With JavaScript, a running Sync now's progress (server-sent `metrc-sync` events) until the page comes back. */
function useSyncProgress(collection: string) {
  const [progress, setProgress] = useState<{ requests: number; rows: number } | null>(null)
  useEffect(() => {
    const on = (e: Event) => {
      const d = (e as CustomEvent<{ collection?: string; requests?: number; rows?: number; done?: boolean }>).detail
      if (d?.collection !== collection) return
      // done: the tab that posted is about to show the result; another tab of the same user stops showing it
      setProgress(d.done ? null : { requests: Number(d.requests) || 0, rows: Number(d.rows) || 0 })
    }
    window.addEventListener(METRC_SYNC_EVENT, on)
    return () => window.removeEventListener(METRC_SYNC_EVENT, on)
  }, [collection])
  return { progress, started: () => setProgress({ requests: 0, rows: 0 }) }
}

export function MetrcPanel({ p, screen }: { p: Panel; screen: string }) {
  const t = useT()
  const outcome = p.outcome ? OUTCOME[p.outcome] : null
  const sync = useSyncProgress(p.collection)
  return (
    <section aria-label={t('METRC')} className="flex flex-col gap-2 rounded-md border border-slate-700 bg-slate-900/60 p-3 text-sm" data-testid="metrc-panel">
      {outcome ? <Notice tone={outcome.tone}>{t(outcome.text)}</Notice> : null}
      {!p.link ? (
        <p>{t('This facility is not linked to METRC yet.')}</p>
      ) : (
        <>
          <p>
            {t('METRC license')} <strong>{p.link.license}</strong> ({p.link.state}){p.emulated ? ` · ${t('demo METRC')}` : ''}
          </p>
          {p.link.status === 'failing' ? (
            <p role="alert" className="text-red-300">
              {t('METRC stopped accepting this facility’s API key')} {when(p.link.failingSince)}: {p.link.lastError} {t('An admin must enter a new key.')}
            </p>
          ) : null}
          <p data-testid="metrc-sync-state" data-current={p.current ? 'yes' : 'no'}>
            {p.sync?.okAt ? (
              <>
                {t('Last synced')} {when(p.sync.okAt)} · {p.current ? t('current') : t('not current')}
                {p.sync.status !== 'failed' ? ` · ${p.sync.seen} ${t('records')}, ${p.sync.changed} ${t('changed')}` : ''}
              </>
            ) : (
              t('Not synced yet.')
            )}
          </p>
          {p.drift ? (
            <p data-testid="metrc-drift-count">
              {p.drift} {t('open drift with METRC')} ·{' '}
              <Link to="/MetrcDrift" className="text-canopy-400 underline">
                {t('Reconcile')}
              </Link>
            </p>
          ) : null}
          {p.sync?.status === 'failed' && p.sync.refused ? (
            <p role="alert" className="text-amber-300" data-testid="metrc-sync-refused">
              {t('METRC refused this list for this facility’s key:')} {p.sync.error} {t('The key’s METRC user needs the permission')} <strong>{p.sync.refused}</strong>.{' '}
              {t('Every other Metrc table keeps syncing.')}
            </p>
          ) : p.sync?.status === 'failed' ? (
            <p role="alert" className="text-amber-300">
              {p.sync.okAt ? `${t('METRC could not be reached since')} ${when(p.sync.okAt)}: ` : ''}
              {p.sync.error}
            </p>
          ) : null}
          {p.sync?.note ? <p data-testid="metrc-sync-note">{p.sync.note}</p> : null}
          <p data-testid="metrc-outbox-summary">
            <a href="/MetrcOutbox" className="text-canopy-400 underline">
              {t('METRC Outbox')}
            </a>
            : {p.outbox.queued} {t('queued')}
            {p.outbox.attention ? <span className="text-amber-300"> · {p.outbox.attention} {t('need attention')}</span> : null}
          </p>
          <form method="post" action="/metrc/sync" onSubmit={sync.started} className="flex flex-wrap items-center gap-3">
            <input type="hidden" name="screen" value={screen} />
            <button type="submit" className="min-h-11 rounded-md border border-canopy-500 px-3">
              {t('Sync now')}
            </button>
            {p.kind === 'data' ? (
              <button type="submit" name="full" value="1" className="min-h-11 rounded-md border border-canopy-700 px-3" title={t('Reads every record of this table from METRC again, not only what changed; what METRC no longer lists is removed')}>
                {t('Read all again')}
              </button>
            ) : null}
            {sync.progress ? (
              <span role="status" data-testid="metrc-sync-progress">
                {t('Syncing with METRC…')} {sync.progress.rows} {t('records read')}, {sync.progress.requests} {t('requests')}
              </span>
            ) : null}
          </form>
        </>
      )}
      {p.canLink && p.configured ? (
        <details open={!p.link || p.link.status === 'failing'} id="metrc-link">
          <summary className="min-h-11 cursor-pointer py-2">{p.link ? t('Change the METRC credentials') : t('Link this facility to METRC')}</summary>
          <form method="post" action="/metrc/link" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="screen" value={screen} />
            <span className="flex flex-col">
              <label htmlFor="metrc-state">{t('State')}</label>
              <select id="metrc-state" name="state" defaultValue={p.link?.state ?? ''} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-2" required>
                <option value="">{t('Choose…')}</option>
                {CREDENTIAL_STATES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </span>
            <span className="flex flex-col">
              <label htmlFor="metrc-license">{t('State License')}</label>
              <input id="metrc-license" name="license" defaultValue={p.link?.license ?? ''} required maxLength={60} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-2" />
            </span>
            <span className="flex flex-col">
              <label htmlFor="metrc-key">{t('METRC API Key')}</label>
              <input id="metrc-key" name="key" type="password" autoComplete="off" required maxLength={200} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-2" />
            </span>
            <button type="submit" className="min-h-11 rounded-md border border-slate-500 px-3">
              {t('Save and check')}
            </button>
          </form>
        </details>
      ) : null}
    </section>
  )
}
