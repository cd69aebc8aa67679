/**
 * A record's own page (issue 33 item 4; data from screens/record-page.server.ts): its fields in the
 * form's sections, read-only; the actions it offers as plain links; its files, its label, the records
 * that name it, its last changes and its METRC pushes. Links only: it works without JavaScript.
 */
import { Link } from '@remix-run/react'
import { formatDateTime } from '../format/format'
import { useT } from '../i18n/t'
import type { RecordPageData } from '../screens/record-page.server'
import { LongText } from './ui'

const link = 'inline-flex min-h-11 items-center text-canopy-400 underline'
const button = 'inline-flex min-h-11 items-center rounded-md border border-slate-600 px-4 hover:bg-slate-800'
const ACTION = { insert: 'Created', update: 'Changed', delete: 'Deleted' } as Record<string, string>
const PUSH_TONE: Record<string, string> = { confirmed: 'text-canopy-400', failed: 'text-red-300', discarded: 'text-slate-400' }

function Panel({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2 rounded-md border border-slate-700 p-3 break-inside-avoid">
      <h2 id={id} className="text-lg font-semibold text-canopy-400">
        {title}
      </h2>
      {children}
    </section>
  )
}

export function RecordView({ data: d }: { data: RecordPageData }) {
  const t = useT()
  const when = (at: string) => formatDateTime(at, { timeZone: d.timeZone })
  return (
    <section className="flex max-w-5xl flex-col gap-4 p-4" aria-labelledby="screen-title">
      <div className="flex flex-col gap-1">
        <p className="text-sm text-slate-400">{t(d.table)}</p>
        <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
          {d.name}
        </h1>
      </div>
      <nav aria-label={t('Record actions')} className="flex flex-wrap gap-2 print:hidden">
        {d.actions.map((a) => (
          <Link key={a.href} to={a.href} className={a.label === 'Edit' ? 'inline-flex min-h-11 items-center rounded-md bg-canopy-600 px-5 font-medium text-white hover:bg-canopy-500' : button}>
            {t(a.label)}
          </Link>
        ))}
        <Link to={d.back} className={link}>
          {t('Back to the table')}
        </Link>
      </nav>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="flex flex-col gap-4 lg:col-span-2">
          {d.sections.map((sec, i) => (
            <section key={sec.title ?? i} aria-label={sec.title ? t(sec.title) : t('Details')} className="flex flex-col gap-2">
              {sec.title ? <h2 className="border-b border-slate-700 pb-1 text-base font-semibold text-canopy-400">{t(sec.title)}</h2> : null}
              <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2">
                {sec.fields.map((f, j) => (
                  <div key={j} className="flex min-w-0 flex-col">
                    <dt className="text-sm text-slate-400">{f.label}</dt>
                    <dd className="break-words">{f.value ? <LongText text={f.value} showAll={t('Show all')} /> : <span className="text-slate-500">—</span>}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>

        <div className="flex flex-col gap-4">
          <Panel id="record-related" title={t('Related records')}>
            {d.related.length ? (
              <ul className="flex flex-col gap-3">
                {d.related.map((r) => (
                  <li key={`${r.table}-${r.field}`}>
                    <p className="font-medium">
                      {t(r.table)} <span className="text-sm text-slate-400">({t(r.field)})</span>
                    </p>
                    <ul className="flex flex-col">
                      {r.rows.map((x) => (
                        <li key={x.href}>
                          <Link to={x.href} className={link}>
                            {x.name}
                          </Link>
                        </li>
                      ))}
                    </ul>
                    <Link to={r.all} className="text-sm text-canopy-400 underline">
                      {t('All')} {r.count}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-slate-400">{t('No other record names this one.')}</p>
            )}
          </Panel>

          {d.files.length || d.label ? (
            <Panel id="record-files" title={t('Files')}>
              <ul className="flex flex-col">
                {d.files.map((f) => (
                  <li key={f.href}>
                    <span className="text-sm text-slate-400">{t(f.label)}: </span>
                    <a href={f.href} className={link}>
                      {f.name}
                    </a>
                  </li>
                ))}
                {d.label ? (
                  <li>
                    <span className="text-sm text-slate-400">{t('Label')}: </span>
                    <a href={d.label.pdf} target="_blank" rel="noreferrer" className={link}>
                      PDF
                    </a>
                  </li>
                ) : null}
              </ul>
            </Panel>
          ) : null}

          <Panel id="record-changes" title={t('Last changes')}>
            {d.changes.length ? (
              <ol className="flex flex-col gap-1 text-sm">
                {d.changes.map((c, i) => (
                  <li key={i}>
                    <strong>{t(ACTION[c.action] ?? c.action)}</strong> · {when(c.at)} · {c.who}
                    {c.fields.length ? <span className="text-slate-400"> — {c.fields.join(', ')}</span> : null}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="text-slate-400">{t('No audit history')}</p>
            )}
            <Link to={d.history} className={link}>
              {t('History')}
            </Link>
          </Panel>

          {d.pushes.length ? (
            <Panel id="record-metrc" title={t('METRC')}>
              <ul className="flex flex-col gap-1 text-sm">
                {d.pushes.map((p, i) => (
                  <li key={i}>
                    <span className={PUSH_TONE[p.status] ?? 'text-amber-300'}>{t(p.status)}</span> · {p.label || p.endpoint} · {when(p.at)}
                    {p.message ? <span className="block text-slate-400">{p.message}</span> : null}
                  </li>
                ))}
              </ul>
            </Panel>
          ) : null}
        </div>
      </div>
    </section>
  )
}
