/**
 * Above a read-only Metrc table: when it was last synced from METRC and whether that is current,
 * METRC unreachable (since when), a key METRC refuses, and "Sync now" — a POST form, so it works
 * without JavaScript; with it, the button says "Syncing…" until the run ends and the page reloads
 * its data. On /MetrcLicense administrators also get the METRC connection form (the key is
 * write-only: only its last four characters are shown).
 */
import { Form, useNavigation } from '@remix-run/react'
import type { MetrcSyncPanel } from '../../metrc/sync/panel'
import { useT } from '../../i18n/t'
import { Button } from '../ui'

export function MetrcSyncBar({ panel }: { panel: MetrcSyncPanel }) {
  const t = useT()
  const nav = useNavigation()
  const posting = nav.state !== 'idle' && nav.formData?.get('intent') === 'metrc-sync'
  const syncing = posting || panel.status === 'running'
  const linking = nav.state !== 'idle' && nav.formData?.get('intent') === 'metrc-link'
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-700 p-3" data-testid="metrc-sync">
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm" role="status">
          {panel.lastOk ? (
            <>
              {t('Last synced')} {panel.lastOk}
              {', '}
              <span className={panel.current ? 'text-canopy-400' : 'text-amber-300'}>{t(panel.current ? 'current' : 'stale')}</span>
            </>
          ) : (
            t('Not synced from METRC yet')
          )}
          {panel.lastOk ? <span className="text-slate-400">{` · ${panel.rowsSeen} ${t('rows from METRC')}, ${panel.rowsChanged} ${t('changed')}`}</span> : null}
        </p>
        {panel.canSync ? (
          <Form method="post" replace preventScrollReset>
            <input type="hidden" name="intent" value="metrc-sync" />
            <Button type="submit" tone="plain" disabled={syncing} aria-busy={syncing}>
              {t(syncing ? 'Syncing…' : 'Sync now')}
            </Button>
          </Form>
        ) : null}
      </div>
      {!panel.configured ? <p className="text-sm text-slate-400">{t('METRC is not configured on this server.')}</p> : !panel.linked ? <p className="text-sm text-slate-400">{t('This facility is not linked to METRC yet. An administrator links it on the License screen.')}</p> : null}
      {panel.linkStatus === 'failing' ? (
        <p className="text-sm text-red-300" role="alert">
          {t('METRC refuses this facility’s API key since')} {panel.failingSince}. {t('Syncs are stopped until an administrator enters a new key.')}
        </p>
      ) : panel.status === 'error' && panel.error ? (
        <p className="text-sm text-red-300" role="alert">
          {t('METRC could not be synced since')} {panel.errorSince}: {panel.error}
        </p>
      ) : null}
      {panel.connection ? (
        <Form method="post" className="flex flex-wrap items-end gap-2" aria-label={t('METRC connection')}>
          <input type="hidden" name="intent" value="metrc-link" />
          <label className="flex flex-col text-sm">
            {t('State')}
            <select name="state" defaultValue={panel.connection.state} className="min-h-11 rounded border border-slate-600 bg-slate-900 px-2">
              {panel.connection.states.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col text-sm">
            {t('License')}
            <input name="license" defaultValue={panel.connection.license} required maxLength={60} className="min-h-11 rounded border border-slate-600 bg-slate-900 px-2" />
          </label>
          <label className="flex flex-col text-sm">
            {t('METRC user API key')}
            <input name="key" type="password" autoComplete="off" maxLength={200} placeholder={panel.connection.keyHint ? `••••${panel.connection.keyHint}` : ''} className="min-h-11 rounded border border-slate-600 bg-slate-900 px-2" />
          </label>
          <Button type="submit" disabled={linking}>
            {t('Check and save')}
          </Button>
        </Form>
      ) : null}
    </div>
  )
}
