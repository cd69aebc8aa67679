/**
 * lastModified windows (reference §1.6): METRC caps one call's `lastModifiedStart..End` (24 h is
 * the widely cited maximum), and `LastModified` only moves forward, so history is read oldest
 * window first. `windows` cuts [from, to) into consecutive windows of at most `maxMs`.
 */
export const DAY_MS = 24 * 60 * 60 * 1000

export interface Window {
  start: Date
  end: Date
}

export function windows(from: Date, to: Date, maxMs = DAY_MS): Window[] {
  if (!(maxMs > 0)) throw new Error('a window needs a positive length')
  const out: Window[] = []
  for (let t = from.getTime(); t < to.getTime(); t += maxMs) out.push({ start: new Date(t), end: new Date(Math.min(t + maxMs, to.getTime())) })
  return out
}

/** METRC's timestamp form for a query string (URLSearchParams encodes `+` as %2B). */
export const isoParam = (d: Date) => d.toISOString()
