/**
 * What a mapped screen shows. Table screens get a read-only, server-rendered page of their
 * collection (the full table screen of SPEC §2.5 replaces it); workflows list the facility's
 * allowed workflows; help pages show their guide.
 */
import { Link } from '@remix-run/react'

interface Column {
  key: string
  label: string
  format: string
  type: string
  align: 'left' | 'center' | 'right'
}
export interface ScreenData {
  title: string
  kind: string
  path: string
  workflows: Array<{ _id: string; name: string; description?: string }> | null
  table: { columns: Column[]; rows: Array<Record<string, unknown>>; total: number; page: number; pages: number; readOnly: boolean } | null
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>
    if ('qty' in o && 'unit' in o) return `${o.qty} ${o.unit}`
    if (Array.isArray(v)) return `${v.length} item${v.length === 1 ? '' : 's'}`
    return JSON.stringify(v)
  }
  return String(v)
}

export function ScreenView({ data }: { data: ScreenData }) {
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
        {data.title}
      </h1>
      {data.workflows ? (
        <ul className="flex flex-col gap-2">
          {data.workflows.map((w) => (
            <li key={w._id} className="rounded-md border border-slate-700 p-3">
              <p className="font-medium">{w.name}</p>
              {w.description ? <p className="text-sm text-slate-400">{w.description}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {data.table ? (
        <>
          <p className="text-sm text-slate-400">
            {data.table.total} record{data.table.total === 1 ? '' : 's'}
            {data.table.readOnly ? ' · read-only' : ''}
          </p>
          {data.table.total === 0 ? (
            <p className="rounded-md border border-slate-700 p-4 text-slate-300">Nothing here yet in this facility.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="min-w-full border-collapse text-sm">
                <thead>
                  <tr>
                    {data.table.columns.map((c) => (
                      <th key={c.key} scope="col" className={`border-b border-slate-700 px-2 py-2 text-${c.align} font-semibold text-slate-200`}>
                        {c.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.table.rows.map((r) => (
                    <tr key={String(r._id)} className="border-b border-slate-800">
                      {data.table!.columns.map((c) => (
                        <td key={c.key} className={`px-2 py-2 text-${c.align}`}>
                          {cell(r[c.key])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {data.table.pages > 1 ? (
            <nav aria-label="Pages" className="flex items-center gap-3">
              {data.table.page > 1 ? <Link to={`?page=${data.table.page - 1}`}>Previous</Link> : null}
              <span>
                Page {data.table.page} of {data.table.pages}
              </span>
              {data.table.page < data.table.pages ? <Link to={`?page=${data.table.page + 1}`}>Next</Link> : null}
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  )
}
