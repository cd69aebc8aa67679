/** A horizontal bar chart as plain SVG (drawn on the server: no JavaScript needed), each bar labelled with its figure. */
import { usd } from '../distribution/money'

export function BarChart({ rows, title }: { rows: Array<{ label: string; cents: number }>; title: string }) {
  const shown = rows.slice(0, 12)
  if (!shown.length) return null
  const max = Math.max(1, ...shown.map((r) => Math.abs(r.cents)))
  const h = 28
  return (
    <figure className="max-w-3xl">
      <svg role="img" aria-label={title} viewBox={`0 0 640 ${shown.length * h + 8}`} className="w-full">
        {shown.map((r, i) => {
          const w = Math.round((Math.abs(r.cents) / max) * 330)
          return (
            <g key={r.label + i} transform={`translate(0, ${i * h + 4})`}>
              <text x={0} y={18} fontSize={12} fill="currentColor">{r.label.length > 28 ? `${r.label.slice(0, 27)}…` : r.label}</text>
              <rect x={200} y={4} width={w} height={18} rx={3} className="fill-canopy-500" />
              <text x={206 + w} y={18} fontSize={12} fill="currentColor">{usd(r.cents)}</text>
            </g>
          )
        })}
      </svg>
      <figcaption className="text-xs text-slate-400">{title}{rows.length > shown.length ? ` (top ${shown.length} of ${rows.length})` : ''}</figcaption>
    </figure>
  )
}
