/**
 * What a mapped screen shows, by kind: the table screen of SPEC §2.5, the allowed workflows, a help guide, the /Table
 * directory, or an HTML document shown in a sandbox (no scripts, no access to Canopy).
 */
import { Link } from '@remix-run/react'
import type { ScreenData, HtmlDoc } from '../screens/screen-data.server'
import { TableScreen } from './table/table-screen'
import { DeleteConfirmView } from './table/delete-confirm'
import { lazyPart } from '../client/lazy-part'
import { ScanBar } from './table/scan-bar'
import { useT } from '../i18n/t'

// screens other than tables load their parts when they show them: a table page does not download them (decision 071)
const HelpView = lazyPart('help-view', () => import('./help-view').then((m) => m.HelpView))
const SensorBoard = lazyPart('sensor-board', () => import('./sensors/sensor-board').then((m) => m.SensorBoard))
const MetrcPanel = lazyPart('metrc-panel', () => import('./metrc-panel').then((m) => m.MetrcPanel))

/** Stored HTML is shown in a sandboxed frame: it cannot run scripts or reach the signed-in page. */
export function HtmlFrame({ doc, className = 'min-h-[60vh]' }: { doc: HtmlDoc; className?: string }) {
  const srcDoc = `<!doctype html><meta charset="utf-8"><base target="_blank"><style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:8px;color:#0f172a;background:#fff}</style>${doc.html}`
  return <iframe title={doc.title} srcDoc={srcDoc} sandbox="allow-popups allow-popups-to-escape-sandbox" className={`w-full rounded-md border border-slate-700 bg-white ${className}`} />
}

export function ScreenView({ data }: { data: ScreenData }) {
  const t = useT()
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
        {t(data.title)}
      </h1>
      {data.kind === 'workflows' ? (
        <ul className="flex flex-col gap-2">
          {data.workflows.map((w) => (
            <li key={w._id} className="rounded-md border border-slate-700 p-3">
              <p className="font-medium">{w.name}</p>
              {w.description ? <p className="text-sm text-slate-400">{w.description}</p> : null}
            </li>
          ))}
        </ul>
      ) : data.kind === 'help' ? (
        data.help ? <HelpView page={data.help} /> : null
      ) : data.kind === 'tables' ? (
        <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {data.tables.map((x) => (
            <li key={x.name}>
              <Link to={`/Table?name=${encodeURIComponent(x.name)}`} className="flex min-h-11 items-center rounded px-3 hover:bg-slate-800">
                {t(x.title)}
              </Link>
            </li>
          ))}
        </ul>
      ) : data.kind === 'html' ? (
        data.doc ? (
          <HtmlFrame doc={data.doc} />
        ) : data.docs.length ? (
          <ul className="flex flex-col gap-1">
            {data.docs.map((d) => (
              <li key={d.name}>
                <Link to={`/DisplayHTML?name=${encodeURIComponent(d.name)}`} className="flex min-h-11 items-center rounded px-3 hover:bg-slate-800">
                  {d.title}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-300">{t('No documents are published for display yet.')}</p>
        )
      ) : data.kind === 'delete' ? (
        <DeleteConfirmView confirm={data.confirm} />
      ) : (
        <>
          {data.intro ? <HtmlFrame doc={data.intro} className="h-32" /> : null}
          {data.path === '/SupportTicket' ? (
            <p className="text-slate-300">
              {t('Looking for how to do something?')}{' '}
              <Link to="/HelpTutorials" className="text-canopy-400 underline">
                {t('Read the tutorials')}
              </Link>
            </p>
          ) : null}
          {'sensors' in data && data.sensors ? <SensorBoard board={data.sensors} /> : null}
          {'metrc' in data && data.metrc ? <MetrcPanel p={data.metrc} screen={data.path} /> : null}
          {'scan' in data && data.scan && data.scan.then !== 'fill' ? <ScanBar screen={data.path} then={data.scan.then} /> : null}
          <TableScreen data={data.table} path={data.path} org={data.table.org} />
        </>
      )}
    </section>
  )
}
