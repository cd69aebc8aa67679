/**
 * What a mapped screen shows, by kind: a read-only, server-rendered page of a table (the full
 * table screen of SPEC §2.5 replaces it), the allowed workflows, a help guide, the /Table
 * directory, or an HTML document shown in a sandbox (no scripts, no access to Canopy).
 */
import { Link, useLocation } from '@remix-run/react'
import type { ScreenData, TableData, HtmlDoc } from '../screens/screen-data.server'
import { formatCell } from '../format/format'
import { HelpView } from './help-view'
import { useT } from '../i18n/t'

/** A column's display format: its own, else the one its field type implies. */
const formatOf = (c: TableData['columns'][number]) => c.format || (['date', 'currency', 'measure', 'check'].includes(c.type) ? c.type : c.type === 'array' ? 'array' : '')

function PageLink({ page, children }: { page: number; children: string }) {
  const { search } = useLocation()
  const q = new URLSearchParams(search)
  q.set('page', String(page))
  return <Link to={`?${q}`}>{children}</Link>
}

function TableView({ table }: { table: TableData }) {
  const t = useT()
  return (
    <>
      <p className="text-sm text-slate-400">
        {table.total} record{table.total === 1 ? '' : 's'}
        {table.readOnly ? ' · read-only' : ''}
      </p>
      {table.total === 0 ? (
        <p className="rounded-md border border-slate-700 p-4 text-slate-300">{t('Nothing here yet in this facility.')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full border-collapse text-sm">
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c.key} scope="col" className={`border-b border-slate-700 px-2 py-2 text-${c.align} font-semibold text-slate-200`}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r) => (
                <tr key={String(r._id)} className="border-b border-slate-800">
                  {table.columns.map((c) => (
                    <td key={c.key} className={`px-2 py-2 text-${c.align}`}>
                      {formatCell(r[c.key], formatOf(c), { timeZone: table.timeZone })}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {table.pages > 1 ? (
        <nav aria-label="Pages" className="flex items-center gap-3">
          {table.page > 1 ? <PageLink page={table.page - 1}>Previous</PageLink> : null}
          <span>
            Page {table.page} of {table.pages}
          </span>
          {table.page < table.pages ? <PageLink page={table.page + 1}>Next</PageLink> : null}
        </nav>
      ) : null}
    </>
  )
}

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
          <TableView table={data.table} />
        </>
      )}
    </section>
  )
}
