/** The numbers of a chart as a table (screen readers, copying): folded under the chart, each figure a link to its records. */
import type { Chart, Figure } from './types'
import { fmtNum } from './types'

function Cell({ f }: { f: Figure }) {
  return f.href ? (
    <a href={f.href} className="underline decoration-dotted" data-count={f.count ?? f.value}>
      {fmtNum(f.value)}
    </a>
  ) : (
    <>{fmtNum(f.value)}</>
  )
}

export function FigureTable({ chart }: { chart: Chart }) {
  const head = chart.kind === 'stacked' ? ['', ...chart.series] : ['', chart.unit ? `${chart.title} (${chart.unit})` : chart.title, 'Records']
  const rows: Array<{ label: string; cells: Figure[] }> =
    chart.kind === 'stacked'
      ? chart.rows.map((r) => ({ label: r.label, cells: r.parts }))
      : (chart.kind === 'bars' ? chart.bars : chart.kind === 'line' ? chart.points : chart.slices).map((f) => ({ label: f.label, cells: [f] }))
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-slate-400">Show the numbers</summary>
      <div className="max-h-72 overflow-auto">
        <table className="mt-1 w-full text-left">
          <caption className="sr-only">{chart.title}</caption>
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={i} scope="col" className="border-b border-slate-700 px-2 py-1 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row" className="px-2 py-1 font-normal">
                  {r.label}
                </th>
                {r.cells.map((f, i) => (
                  <td key={i} className="px-2 py-1 tabular-nums">
                    <Cell f={f} />
                  </td>
                ))}
                {chart.kind !== 'stacked' ? <td className="px-2 py-1 tabular-nums">{r.cells[0].count !== undefined ? fmtNum(r.cells[0].count) : ''}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}
