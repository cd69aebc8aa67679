/**
 * A dashboard (decision 042): the period (links and a GET form, so it works without JavaScript),
 * KPI tiles, charts and lists, every figure a link to its records. With JavaScript, tooltips and a
 * live refresh over the event stream.
 */
import { Form, Link, useLoaderData } from '@remix-run/react'
import { SHORTCUT_LABELS } from '../../format/date-ranges'
import type { Board, ListBlock } from './board'
import { ChartCard } from './charts/charts'
import { KpiTile } from './charts/kpi-tile'
import { Tooltip, useLiveRefresh } from './live'
import { PERIOD_SHORTCUTS } from './period'

const btn = 'inline-flex min-h-[44px] items-center rounded-md border border-slate-600 px-3 text-sm hover:bg-slate-800'
const btnOn = 'inline-flex min-h-[44px] items-center rounded-md border border-canopy-500 bg-canopy-900 px-3 text-sm text-canopy-50'

export function PeriodPicker({ board }: { board: Board }) {
  const p = board.period
  return (
    <div className="flex flex-wrap items-end gap-2" role="group" aria-label="Period">
      <nav aria-label="Period shortcuts" className="flex flex-wrap gap-1">
        {PERIOD_SHORTCUTS.map((s) => (
          <Link key={s} to={`${board.path}?range=${s}`} className={p.range === s ? btnOn : btn} aria-current={p.range === s ? 'true' : undefined}>
            {SHORTCUT_LABELS[s]}
          </Link>
        ))}
      </nav>
      <Form method="get" className="flex flex-wrap items-end gap-1">
        <label className="flex flex-col text-xs text-slate-400">
          From
          <input type="date" name="from" defaultValue={p.fromDay} className="min-h-[44px] rounded-md border border-slate-600 bg-slate-900 px-2 text-sm text-slate-100" />
        </label>
        <label className="flex flex-col text-xs text-slate-400">
          To
          <input type="date" name="to" defaultValue={p.toDay} className="min-h-[44px] rounded-md border border-slate-600 bg-slate-900 px-2 text-sm text-slate-100" />
        </label>
        <button type="submit" className={btn}>
          Show
        </button>
      </Form>
    </div>
  )
}

export function ListCard({ list }: { list: ListBlock }) {
  return (
    <section className="rounded-lg border border-slate-700 bg-slate-900/60 p-3" aria-label={list.title} data-testid="list">
      <h2 className="mb-2 font-semibold text-slate-100">{list.title}</h2>
      {list.rows.length ? (
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              {list.head.map((h) => (
                <th key={h} scope="col" className="border-b border-slate-700 px-2 py-1 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.rows.map((r, i) => (
              <tr key={i}>
                {r.cells.map((c, j) => (
                  <td key={j} className="px-2 py-1" style={c.tone ? { color: c.tone === 'bad' ? 'var(--tone-bad)' : 'var(--tone-warn)' } : undefined} data-tone={c.tone ?? ''}>
                    {c.href ? (
                      <a href={c.href} className="underline decoration-dotted" {...(c.count !== undefined ? { 'data-count': c.count, 'data-figure': c.count } : {})}>
                        {c.text}
                      </a>
                    ) : (
                      c.text
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-slate-400">{list.empty}</p>
      )}
    </section>
  )
}

export function DashboardPage() {
  const board = useLoaderData<Board>()
  useLiveRefresh(board.watch)
  return (
    <main className="flex flex-col gap-4 p-4" data-testid="dashboard">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-slate-100">{board.title}</h1>
          <p className="text-sm text-slate-400">
            {board.period.label} · {board.period.fromDay} to {board.period.toDay} · {board.period.timeZone}
          </p>
        </div>
        <PeriodPicker board={board} />
      </header>
      {board.notices.length ? (
        <ul className="rounded-md border border-amber-600 p-2 text-sm text-amber-300" role="status">
          {board.notices.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <section aria-label="Key figures" className="flex flex-wrap gap-3">
        {board.tiles.map((k) => (
          <KpiTile key={k.label} kpi={k} />
        ))}
      </section>
      <div className="grid gap-4 lg:grid-cols-2">
        {board.charts.map((c, i) => (
          <ChartCard key={c.title} chart={c} id={`chart-${i}`} />
        ))}
        {board.lists.map((l) => (
          <ListCard key={l.title} list={l} />
        ))}
      </div>
      <Tooltip />
    </main>
  )
}
