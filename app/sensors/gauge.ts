/**
 * A gauge's colour and fill (SPEC §9): above error red, above warn orange, above med yellow,
 * above low green, otherwise blue; the fill is value / max (clamped to 0–100 %). The level is also
 * named, so the colour is never the only sign. Shared by the server (first paint) and the browser
 * (live updates).
 */
export interface Thresholds {
  max: number
  low: number
  med: number
  warn: number
  error: number
}

export type Level = 'error' | 'warn' | 'med' | 'low' | 'below'

export const LEVEL_COLOUR: Record<Level, string> = { error: 'red', warn: 'orange', med: 'yellow', low: 'green', below: 'blue' }
/** what the level is called beside the gauge (English keys of the phrase map) */
export const LEVEL_TEXT: Record<Level, string> = { error: 'Critical', warn: 'Warning', med: 'Elevated', low: 'Normal', below: 'Low' }
/** fill colours (Tailwind 600s), readable on the dark theme and the light one */
export const LEVEL_HEX: Record<Level, string> = { error: '#dc2626', warn: '#ea580c', med: '#ca8a04', low: '#16a34a', below: '#2563eb' }
/** the level's name in text: Tailwind 400s on the dark theme, remapped to darker ones in the light theme (app/tailwind.css), so both pass WCAG AA contrast (the 600 fills did not: red and blue on dark, green and yellow on light) */
export const LEVEL_TEXT_CLASS: Record<Level, string> = { error: 'text-red-400', warn: 'text-orange-400', med: 'text-yellow-400', low: 'text-green-400', below: 'text-blue-400' }

export function gaugeLevel(value: number, t: Thresholds): Level {
  if (value > t.error) return 'error'
  if (value > t.warn) return 'warn'
  if (value > t.med) return 'med'
  if (value > t.low) return 'low'
  return 'below'
}

export function gaugePercent(value: number, max: number): number {
  if (!(max > 0) || !Number.isFinite(value)) return 0
  return Math.max(0, Math.min(100, (value / max) * 100))
}
