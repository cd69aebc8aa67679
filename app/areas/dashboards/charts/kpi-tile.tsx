/** A headline number: its label, the change against the previous period, red or amber when a regulator would frown; the tile links to its records. */
import { changeOf, fmtNum, TONE_COLOURS, type Kpi } from './types'

export function KpiTile({ kpi }: { kpi: Kpi }) {
  const ch = changeOf(kpi.value, kpi.previous)
  const tone = kpi.tone && kpi.tone !== 'ok' && kpi.tone !== 'info' ? TONE_COLOURS[kpi.tone] : undefined
  const inner = (
    <>
      <span className="text-sm text-slate-300">{kpi.label}</span>
      <span className="text-3xl font-semibold tabular-nums text-slate-100" style={tone ? { color: tone } : undefined} data-testid="kpi-value">
        {fmtNum(kpi.value)}
        {kpi.unit ? <span className="ml-1 text-base font-normal text-slate-400">{kpi.unit}</span> : null}
      </span>
      {ch ? <span className="text-xs text-slate-400">{ch.dir === 'up' ? '▲' : ch.dir === 'down' ? '▼' : '■'} {ch.text}</span> : null}
      {kpi.note ? <span className="text-xs text-slate-400">{kpi.note}</span> : null}
    </>
  )
  const cls = `flex min-h-[44px] min-w-[10rem] flex-1 flex-col gap-1 rounded-lg border p-3 ${tone ? '' : 'border-slate-700'} bg-slate-900/60`
  const style = tone ? { borderColor: tone } : undefined
  return kpi.href ? (
    <a href={kpi.href} className={`${cls} hover:bg-slate-800`} style={style} data-testid="kpi" data-count={kpi.count ?? kpi.value} data-figure={kpi.value} data-tone={kpi.tone ?? ''}>
      {inner}
    </a>
  ) : (
    <div className={cls} style={style} data-testid="kpi" data-tone={kpi.tone ?? ''}>
      {inner}
    </div>
  )
}
