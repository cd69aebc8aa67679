/**
 * /DshSensors (issue 8 item 6): a card per sensor device, a gauge per code (colour and level by
 * the dictionary's thresholds, SPEC §9) and the last 24 hours as a small line. Server-rendered, so
 * it reads without JavaScript; with JavaScript the values and lines move as readings arrive (the `reading`
 * events of /events, re-dispatched by connection.tsx; app/sensors/live.ts).
 */
import { useEffect, useState } from 'react'
import type { Gauge, SensorBoard as Board } from '../../sensors/board.server'
import { LEVEL_COLOUR, LEVEL_HEX, LEVEL_TEXT, LEVEL_TEXT_CLASS } from '../../sensors/gauge'
import { applyReading, type ReadingEvent } from '../../sensors/live'
import { useT } from '../../i18n/t'
import { READING_EVENT } from '../connection'

const fmt = (v: number, max: number) => (max <= 10 ? v.toFixed(2) : max <= 200 ? v.toFixed(1) : Math.round(v).toString())

export function SensorBoard({ board }: { board: Board }) {
  const t = useT()
  const [devices, setDevices] = useState(board.devices)
  useEffect(() => setDevices(board.devices), [board])
  useEffect(() => {
    const on = (e: Event) => {
      const r = (e as CustomEvent<ReadingEvent>).detail
      setDevices((list) => list.map((d) => (d.deviceID === r.deviceID ? applyReading(d, r, board.codes) : d)))
    }
    window.addEventListener(READING_EVENT, on)
    return () => window.removeEventListener(READING_EVENT, on)
  }, [board.codes])
  if (!devices.length) return <p className="text-slate-300">{t('No sensor devices are set up for this facility yet.')}</p>
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="sensor-board">
      {devices.map((d) => (
        <section key={d.deviceID} className="rounded-lg border border-slate-700 bg-slate-900/60 p-3" aria-label={d.deviceName} data-device={d.deviceID}>
          <h2 className="font-semibold text-slate-100">{d.deviceName}</h2>
          <p className="text-sm text-slate-400">
            {d.location ? `${d.location} · ` : ''}
            {d.deviceID}
          </p>
          {d.gauges.length ? (
            <ul className="mt-2 grid grid-cols-2 gap-3">
              {d.gauges.map((g) => (
                <GaugeView key={g.code} g={g} />
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-slate-400">{t('No readings yet.')}</p>
          )}
        </section>
      ))}
    </div>
  )
}

function GaugeView({ g }: { g: Gauge }) {
  const t = useT()
  const colour = LEVEL_HEX[g.level]
  // a half circle of radius 40: the arc's length is π·40; the filled part is percent of it
  const arc = Math.PI * 40
  return (
    <li className="flex flex-col items-center rounded-md bg-slate-950/60 p-2" data-code={g.code} data-level={g.level} data-colour={LEVEL_COLOUR[g.level]}>
      <svg viewBox="0 0 100 58" className="w-full max-w-[9rem]" role="img" aria-label={`${g.label}: ${fmt(g.value, g.max)} ${g.units}, ${t(LEVEL_TEXT[g.level])}`}>
        <path d="M10 50 A40 40 0 0 1 90 50" fill="none" stroke="#334155" strokeWidth="9" strokeLinecap="round" />
        <path d="M10 50 A40 40 0 0 1 90 50" fill="none" stroke={colour} strokeWidth="9" strokeLinecap="round" strokeDasharray={`${(arc * g.percent) / 100} ${arc}`} />
        <text x="50" y="46" textAnchor="middle" className="fill-slate-100" fontSize="15" fontWeight="600">
          {fmt(g.value, g.max)}
        </text>
      </svg>
      <span className="text-sm text-slate-200">
        {g.short} {g.units ? <span className="text-slate-400">{g.units}</span> : null}
      </span>
      <span className={`text-xs font-semibold ${LEVEL_TEXT_CLASS[g.level]}`} data-testid="gauge-level">
        {t(LEVEL_TEXT[g.level])}
      </span>
      <History points={g.history} max={g.max} label={t('Last 24 hours')} />
    </li>
  )
}

/** The last 24 hourly averages as a line (gaps where an hour had no reading). */
function History({ points, max, label }: { points: Array<number | null>; max: number; label: string }) {
  const known = points.filter((p): p is number => p !== null)
  if (known.length < 2) return null
  const lo = Math.min(...known, 0)
  const hi = Math.max(...known, max)
  const y = (v: number) => 20 - ((v - lo) / (hi - lo || 1)) * 18 - 1
  const segments: string[] = []
  let cur = ''
  points.forEach((p, i) => {
    if (p === null) {
      if (cur) segments.push(cur)
      cur = ''
      return
    }
    cur += `${cur ? ' L' : 'M'}${((i / 23) * 100).toFixed(1)} ${y(p).toFixed(1)}`
  })
  if (cur) segments.push(cur)
  return (
    <svg viewBox="0 0 100 20" className="mt-1 h-5 w-full" role="img" aria-label={label} preserveAspectRatio="none">
      {segments.map((d, i) => (
        <path key={i} d={d} fill="none" stroke="#94a3b8" strokeWidth="1.2" vectorEffect="non-scaling-stroke" />
      ))}
    </svg>
  )
}
