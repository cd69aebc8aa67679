/**
 * The reconciliation screen's body (/MetrcDrift): one row per open drift with Canopy's value, the
 * last value both sides agreed on, METRC's value and which side moved; "Keep Canopy's" and "Take
 * METRC's" are two submit buttons of one plain form per row (no JavaScript needed). Below, the
 * latest decisions.
 */
import type { DriftScreen, DriftView as Row } from '../../metrc/drift/list.server'
import { useT } from '../../i18n/t'
import { Notice } from '../ui'

const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '')
const MOVED: Record<Row['moved'], string> = { canopy: 'Canopy changed', metrc: 'METRC changed', both: 'Both changed', unknown: 'Never matched' }

function Value({ v }: { v: string | null }) {
  const t = useT()
  return v === null ? <span className="text-slate-400">{t('(none)')}</span> : <>{v}</>
}

export function DriftView({ title, path, canResolve, done, drift }: { title: string; path: string; canResolve: boolean; done: 'canopy' | 'metrc' | null; drift: DriftScreen }) {
  const t = useT()
  const cell = 'border-b border-slate-800 px-2 py-2 align-top'
  const head = 'border-b border-slate-600 px-2 py-2 text-left font-medium text-slate-300'
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
        {t(title)}
      </h1>
      {done === 'canopy' ? <Notice tone="success">{t('Canopy’s value kept: the change is queued for METRC.')}</Notice> : null}
      {done === 'metrc' ? <Notice tone="success">{t('METRC’s value taken: the Canopy record was updated.')}</Notice> : null}
      <p className="text-slate-300">{t('After each sync, Canopy’s records are compared with METRC’s records of the same tag. Last synced is the value both sides last agreed on: it shows which side moved.')}</p>
      <ul className="text-sm text-slate-400" data-testid="drift-checks">
        {drift.checks.map((c) => (
          <li key={c.table}>
            {t(c.table)}: {c.checkedAt ? `${t('compared after the sync of')} ${when(c.checkedAt)}` : t('not synced yet')}
          </li>
        ))}
      </ul>
      {!canResolve ? <p className="text-sm text-slate-400">{t('Only admins and compliance staff decide drift; you may read it.')}</p> : null}
      {drift.open.length === 0 ? (
        <p data-testid="drift-none">{t('No open drift: Canopy and METRC agree.')}</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full min-w-[48rem] border-collapse text-sm" data-testid="drift-open">
            <caption className="pb-2 text-left text-slate-300">
              {t('Open drift')}: {drift.openTotal}
              {drift.openTotal > drift.open.length ? ` (${t('the oldest')} ${drift.open.length})` : ''}
            </caption>
            <thead>
              <tr>
                <th className={head}>{t('Table')}</th>
                <th className={head}>{t('Tag')}</th>
                <th className={head}>{t('Field')}</th>
                <th className={head}>{t('Canopy value')}</th>
                <th className={head}>{t('Last synced value')}</th>
                <th className={head}>{t('METRC value')}</th>
                <th className={head}>{t('Who moved')}</th>
                <th className={head}>{t('Found')}</th>
                {canResolve ? <th className={head}>{t('Decide')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {drift.open.map((r) => (
                <tr key={r.id} data-drift={r.id} data-tag={r.tag}>
                  <td className={cell}>{t(r.table)}</td>
                  <td className={`${cell} font-mono`} id={`drift-${r.id}-tag`}>
                    {r.tag}
                  </td>
                  <td className={cell} id={`drift-${r.id}-field`}>
                    {t(r.field)}
                  </td>
                  <td className={cell} data-col="canopy">
                    <Value v={r.canopy} />
                  </td>
                  <td className={cell} data-col="synced">
                    <Value v={r.synced} />
                  </td>
                  <td className={cell} data-col="metrc">
                    <Value v={r.metrc} />
                  </td>
                  <td className={cell}>{t(MOVED[r.moved])}</td>
                  <td className={cell}>{when(r.detectedAt)}</td>
                  {canResolve ? (
                    <td className={cell}>
                      <form method="post" action={path} className="flex flex-wrap gap-2">
                        <input type="hidden" name="id" value={r.id} />
                        <button type="submit" name="side" value="canopy" aria-describedby={`drift-${r.id}-tag drift-${r.id}-field`} className="min-h-11 rounded-md border border-canopy-500 px-3">
                          {t('Keep Canopy’s')}
                        </button>
                        <button type="submit" name="side" value="metrc" aria-describedby={`drift-${r.id}-tag drift-${r.id}-field`} className="min-h-11 rounded-md border border-slate-500 px-3">
                          {t('Take METRC’s')}
                        </button>
                      </form>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {drift.decided.length ? (
        <div className="relative overflow-x-auto">
          <table className="w-full min-w-[40rem] border-collapse text-sm" data-testid="drift-decided">
            <caption className="pb-2 text-left text-slate-300">{t('Latest decisions')}</caption>
            <thead>
              <tr>
                <th className={head}>{t('Tag')}</th>
                <th className={head}>{t('Field')}</th>
                <th className={head}>{t('Canopy value')}</th>
                <th className={head}>{t('METRC value')}</th>
                <th className={head}>{t('Winner')}</th>
                <th className={head}>{t('Decided by')}</th>
                <th className={head}>{t('When')}</th>
              </tr>
            </thead>
            <tbody>
              {drift.decided.map((r) => (
                <tr key={r.id} data-drift={r.id} data-tag={r.tag}>
                  <td className={`${cell} font-mono`}>{r.tag}</td>
                  <td className={cell}>{t(r.field)}</td>
                  <td className={cell}>
                    <Value v={r.canopy} />
                  </td>
                  <td className={cell}>
                    <Value v={r.metrc} />
                  </td>
                  <td className={cell} data-col="winner">
                    {r.side === 'canopy' ? t('Canopy (queued for METRC)') : t('METRC')}
                  </td>
                  <td className={cell}>{r.resolvedBy}</td>
                  <td className={cell}>{when(r.resolvedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  )
}
