/**
 * Server-rendered SVG charts (decision 042): bars, stacked bars, a line and a donut. No chart
 * runtime reaches the browser: each chart is plain SVG with a <title>, every bar and slice an
 * <a> to the table whose rows make it up, and a table of the same numbers (screen readers,
 * copying). Colours are fixed hexes that read on both themes; text uses currentColor.
 */
import type { ReactNode } from 'react'
import { colourOf, fmtNum, niceMax, ticksOf, type BarChart, type Chart, type DonutChart, type Figure, type LineChart, type StackedChart } from './types'
import { FigureTable } from './figure-table'

const W = 480
const LABEL_W = 150
const ROW = 34

export function ChartCard({ chart, id }: { chart: Chart; id: string }) {
  return (
    <figure className="flex flex-col gap-2 rounded-lg border border-slate-700 bg-slate-900/60 p-3" aria-labelledby={`${id}-t`} data-chart={chart.kind} data-testid="chart">
      <figcaption id={`${id}-t`} className="font-semibold text-slate-100">
        {chart.title}
        {chart.unit ? <span className="ml-1 text-sm font-normal text-slate-400">({chart.unit})</span> : null}
      </figcaption>
      {body(chart, id)}
      <FigureTable chart={chart} />
    </figure>
  )
}

function body(chart: Chart, id: string): ReactNode {
  switch (chart.kind) {
    case 'bars':
      return chart.bars.length ? <Bars chart={chart} id={id} /> : <Empty />
    case 'stacked':
      return chart.rows.length ? <Stacked chart={chart} id={id} /> : <Empty />
    case 'line':
      return chart.points.length ? <Line chart={chart} id={id} /> : <Empty />
    case 'donut':
      return chart.slices.some((s) => s.value > 0) ? <Donut chart={chart} id={id} /> : <Empty />
  }
}

function Empty() {
  return <p className="text-sm text-slate-400">Nothing in this period.</p>
}

/** A figure's words for its tooltip and its link's name. */
export function tipOf(f: Figure, unit?: string, series?: string): string {
  const what = series ? `${f.label} · ${series}` : f.label
  const rows = f.count !== undefined && f.count !== f.value ? ` (${fmtNum(f.count)} records)` : ''
  return `${what}: ${fmtNum(f.value)}${unit ? ` ${unit}` : ''}${rows}`
}

/** An SVG link around a mark when the figure has a table behind it. */
function Door({ f, tip, children }: { f: Figure; tip: string; children: ReactNode }) {
  if (!f.href) {
    return (
      <g data-tip={tip}>
        <title>{tip}</title>
        {children}
      </g>
    )
  }
  return (
    <a href={f.href} data-tip={tip} data-count={f.count ?? f.value} data-figure={f.value} className="outline-none focus:opacity-80 hover:opacity-80">
      <title>{tip}</title>
      {children}
    </a>
  )
}

function Bars({ chart, id }: { chart: BarChart; id: string }) {
  const max = niceMax(Math.max(...chart.bars.map((b) => b.value)))
  const h = chart.bars.length * ROW + 24
  const x = (v: number) => LABEL_W + (v / max) * (W - LABEL_W - 50)
  return (
    <svg viewBox={`0 0 ${W} ${h}`} className="w-full text-slate-300" role="group" aria-labelledby={`${id}-t`}>
      <Grid max={max} x={x} h={h - 20} />
      {chart.bars.map((b, i) => (
        <Door key={b.label} f={b} tip={tipOf(b, chart.unit)}>
          <rect x={0} y={i * ROW} width={W} height={ROW} fill="transparent" />
          <text x={LABEL_W - 6} y={i * ROW + ROW / 2 + 4} textAnchor="end" fontSize={12} fill="currentColor">
            {clip(b.label, 22)}
          </text>
          <rect x={LABEL_W} y={i * ROW + 6} width={Math.max(1, x(b.value) - LABEL_W)} height={ROW - 12} rx={3} fill={colourOf(i, b.tone)} />
          <text x={x(b.value) + 4} y={i * ROW + ROW / 2 + 4} fontSize={12} fill="currentColor">
            {fmtNum(b.value)}
          </text>
        </Door>
      ))}
    </svg>
  )
}

function Stacked({ chart, id }: { chart: StackedChart; id: string }) {
  const max = niceMax(Math.max(...chart.rows.map((r) => r.parts.reduce((s, p) => s + p.value, 0))))
  const h = chart.rows.length * ROW + 24
  const x = (v: number) => LABEL_W + (v / max) * (W - LABEL_W - 50)
  return (
    <div className="flex flex-col gap-1">
      <Legend names={chart.series} />
      <svg viewBox={`0 0 ${W} ${h}`} className="w-full text-slate-300" role="group" aria-labelledby={`${id}-t`}>
        <Grid max={max} x={x} h={h - 20} />
        {chart.rows.map((r, i) => {
          let at = 0
          const total = r.parts.reduce((s, p) => s + p.value, 0)
          return (
            <g key={r.label}>
              <text x={LABEL_W - 6} y={i * ROW + ROW / 2 + 4} textAnchor="end" fontSize={12} fill="currentColor">
                {clip(r.label, 22)}
              </text>
              {r.parts.map((p, j) => {
                const x0 = x(at)
                at += p.value
                if (!p.value) return null
                return (
                  <Door key={chart.series[j]} f={p} tip={tipOf(p, chart.unit, chart.series[j])}>
                    <rect x={x0} y={i * ROW + 6} width={Math.max(1, x(at) - x0)} height={ROW - 12} fill={colourOf(j, p.tone)} />
                  </Door>
                )
              })}
              <text x={x(total) + 4} y={i * ROW + ROW / 2 + 4} fontSize={12} fill="currentColor">
                {fmtNum(total)}
              </text>
            </g>
          )
        })}
      </svg>
    </div>
  )
}

function Line({ chart, id }: { chart: LineChart; id: string }) {
  const pts = chart.points
  const max = niceMax(Math.max(...pts.map((p) => p.value)))
  const H = 180
  const L = 44
  const x = (i: number) => L + (pts.length === 1 ? 0 : (i / (pts.length - 1)) * (W - L - 10))
  const y = (v: number) => 10 + (1 - v / max) * (H - 40)
  const d = pts.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ')
  const every = Math.max(1, Math.ceil(pts.length / 6))
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="w-full text-slate-300" role="group" aria-labelledby={`${id}-t`}>
      {ticksOf(max, 4).map((t) => (
        <g key={t}>
          <line x1={L} x2={W - 10} y1={y(t)} y2={y(t)} stroke="currentColor" strokeOpacity={0.15} />
          <text x={L - 4} y={y(t) + 4} textAnchor="end" fontSize={10} fill="currentColor">
            {fmtNum(t)}
          </text>
        </g>
      ))}
      <path d={d} fill="none" stroke={colourOf(0)} strokeWidth={2.5} />
      {pts.map((p, i) => (
        <Door key={p.label} f={p} tip={tipOf(p, chart.unit)}>
          <rect x={x(i) - (W - L) / pts.length / 2} y={0} width={(W - L) / pts.length} height={H - 24} fill="transparent" />
          {i % every === 0 || i === pts.length - 1 ? (
            <text x={x(i)} y={H - 8} textAnchor="middle" fontSize={10} fill="currentColor">
              {p.label.slice(5)}
            </text>
          ) : null}
        </Door>
      ))}
      <circle cx={x(pts.length - 1)} cy={y(pts[pts.length - 1].value)} r={4} fill={colourOf(0)} />
    </svg>
  )
}

function Donut({ chart, id }: { chart: DonutChart; id: string }) {
  const total = chart.slices.reduce((s, p) => s + p.value, 0)
  const R = 70
  const r = 44
  const c = { x: 90, y: 90 }
  let a0 = -Math.PI / 2
  return (
    <div className="flex flex-wrap items-center gap-3">
      <svg viewBox="0 0 180 180" className="w-40 text-slate-300" role="group" aria-labelledby={`${id}-t`}>
        {chart.slices.map((s, i) => {
          if (!s.value) return null
          const a1 = a0 + (s.value / total) * Math.PI * 2
          const path = arc(c, R, r, a0, Math.min(a1, a0 + Math.PI * 2 - 1e-4))
          a0 = a1
          return (
            <Door key={s.label} f={s} tip={tipOf(s, chart.unit)}>
              <path d={path} fill={colourOf(i, s.tone)} />
            </Door>
          )
        })}
        <text x={c.x} y={c.y + 6} textAnchor="middle" fontSize={18} fontWeight={600} fill="currentColor">
          {fmtNum(total)}
        </text>
      </svg>
      <Legend names={chart.slices.map((s) => `${s.label} ${fmtNum(s.value)}`)} tones={chart.slices.map((s) => s.tone)} />
    </div>
  )
}

/** The path of a ring slice from angle a0 to a1 (radians, clockwise from 3 o'clock). */
export function arc(c: { x: number; y: number }, R: number, r: number, a0: number, a1: number): string {
  const p = (rad: number, a: number) => `${(c.x + rad * Math.cos(a)).toFixed(2)},${(c.y + rad * Math.sin(a)).toFixed(2)}`
  const large = a1 - a0 > Math.PI ? 1 : 0
  return `M${p(R, a0)} A${R},${R} 0 ${large} 1 ${p(R, a1)} L${p(r, a1)} A${r},${r} 0 ${large} 0 ${p(r, a0)} Z`
}

function Grid({ max, x, h }: { max: number; x: (v: number) => number; h: number }) {
  return (
    <g aria-hidden="true">
      {ticksOf(max, 4).map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={0} y2={h} stroke="currentColor" strokeOpacity={0.15} />
          <text x={x(t)} y={h + 14} textAnchor="middle" fontSize={10} fill="currentColor">
            {fmtNum(t)}
          </text>
        </g>
      ))}
    </g>
  )
}

function Legend({ names, tones }: { names: string[]; tones?: Array<Figure['tone']> }) {
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-300">
      {names.map((n, i) => (
        <li key={n} className="inline-flex items-center gap-1">
          <span className="inline-block h-3 w-3 rounded-sm" style={{ background: colourOf(i, tones?.[i]) }} aria-hidden="true" />
          {n}
        </li>
      ))}
    </ul>
  )
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s
}
