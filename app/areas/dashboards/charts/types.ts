/**
 * What a dashboard chart shows (decision 042): every figure carries the table screen URL whose
 * rows make it up and how many rows that is (`count`), so a bar, a slice or a tile is a door to
 * its records and the e2e can check the two agree. Plain data: loaders build it, charts draw it.
 */

/** One number on a chart. `value` is what is drawn (a count, a weight); `count` is the rows of `href`. */
export interface Figure {
  label: string
  value: number
  /** the table screen whose items make up this figure; absent when no table lists them */
  href?: string
  /** how many items `href` lists (equals `value` for counts) */
  count?: number
  /** a colour key (a category, a status); the chart picks its own otherwise */
  tone?: Tone
}

export type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'muted'

export interface BarChart {
  kind: 'bars'
  title: string
  unit?: string
  bars: Figure[]
}

/** Bars split into parts: one row per category, one part per series. */
export interface StackedChart {
  kind: 'stacked'
  title: string
  unit?: string
  series: string[]
  rows: Array<{ label: string; parts: Figure[] }>
}

export interface LineChart {
  kind: 'line'
  title: string
  unit?: string
  /** label = the day (YYYY-MM-DD) */
  points: Figure[]
}

export interface DonutChart {
  kind: 'donut'
  title: string
  unit?: string
  slices: Figure[]
}

export type Chart = BarChart | StackedChart | LineChart | DonutChart

/** A headline number with its change against the previous period of the same length. */
export interface Kpi extends Figure {
  unit?: string
  /** the same figure over the previous period, when comparing makes sense */
  previous?: number
  /** a short line under the number (e.g. "oldest: 3 h") */
  note?: string
}

/** Colours that read on both themes (checked against the dark slate-950 and the light #f8fafc). */
export const SERIES_COLOURS = ['#22c55e', '#3b82f6', '#f59e0b', '#a855f7', '#ef4444', '#14b8a6', '#ec4899', '#84cc16', '#64748b', '#f97316', '#06b6d4']
export const TONE_COLOURS: Record<Tone, string> = { ok: '#16a34a', warn: '#d97706', bad: '#dc2626', info: '#2563eb', muted: '#64748b' }

export function colourOf(i: number, tone?: Tone): string {
  return tone ? TONE_COLOURS[tone] : SERIES_COLOURS[i % SERIES_COLOURS.length]
}

/** A number as the chart prints it: whole numbers plain, others to one decimal. */
export function fmtNum(v: number): string {
  if (!Number.isFinite(v)) return '–'
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 })
}

/** The change against the previous period in words: "+12% vs previous", "no change", "new". */
export function changeOf(value: number, previous: number | undefined): { text: string; dir: 'up' | 'down' | 'flat' } | null {
  if (previous === undefined) return null
  if (previous === value) return { text: 'no change vs previous period', dir: 'flat' }
  if (previous === 0) return { text: `+${fmtNum(value)} vs previous period (was 0)`, dir: 'up' }
  const pct = Math.round(((value - previous) / Math.abs(previous)) * 100)
  return { text: `${pct > 0 ? '+' : ''}${pct}% vs previous period (${fmtNum(previous)})`, dir: value > previous ? 'up' : 'down' }
}

/** Nice upper bound for an axis: 1, 2, 2.5, 5 × 10^n at or above the largest value. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1
  const p = 10 ** Math.floor(Math.log10(max))
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= max) return m * p
  return 10 * p
}

/** Evenly spaced ticks from 0 to a nice max. */
export function ticksOf(max: number, n = 4): number[] {
  const top = niceMax(max)
  return Array.from({ length: n + 1 }, (_, i) => (top * i) / n)
}
