/**
 * Time zones, the one place: is a name a real IANA zone, a zone's offset at an instant, and the
 * instant a wall-clock time names in a zone. The date shortcuts (date-ranges.ts) and the edit
 * form's date inputs (forms/record-schema.ts) both read facility time through it. Pure: server
 * and browser alike.
 */

// Intl formatters are expensive to build: one per zone, kept. Only real zones are kept.
const zoneFormats = new Map<string, Intl.DateTimeFormat>()
function zoneFormat(timeZone: string): Intl.DateTimeFormat | null {
  let f = zoneFormats.get(timeZone)
  if (f) return f
  // '' would be read by Intl as the runtime's own zone: not a zone for us
  if (!timeZone) return null
  try {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
  } catch {
    return null
  }
  zoneFormats.set(timeZone, f)
  return f
}

/** Is this an IANA time zone this runtime knows ('America/Los_Angeles' yes, 'Mars/Base' and '' no)? */
export function isTimeZone(timeZone: string): boolean {
  return zoneFormat(timeZone) !== null
}

/** Epoch ms of a UTC wall time; out-of-range fields roll over. setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999. */
export function utcWall(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  const t = new Date(0)
  t.setUTCFullYear(y, mo - 1, d)
  t.setUTCHours(h, mi, s, 0)
  return t.getTime()
}

/** The wall-clock reading (to the second) of an instant in the zone; an unknown zone reads as UTC. */
export function wallParts(at: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const p: Record<string, number> = {}
  for (const x of (zoneFormat(timeZone) ?? zoneFormat('UTC')!).formatToParts(at)) if (x.type !== 'literal') p[x.type] = Number(x.value)
  return { y: p.year, mo: p.month, d: p.day, h: p.hour % 24, mi: p.minute, s: p.second }
}

/** The zone's offset from UTC at an instant, in ms (Los Angeles in winter: -8 h). */
export function zoneOffset(at: number, timeZone: string): number {
  const w = wallParts(at, timeZone)
  return utcWall(w.y, w.mo, w.d, w.h, w.mi, w.s) - (at - (((at % 1000) + 1000) % 1000))
}

const DAY = 86_400_000

/**
 * The instant a wall-clock time (given as if it were UTC, epoch ms) names in the zone. Reads the
 * wall time as UTC (the guess), takes the zone's offset there and re-checks it at the result,
 * which differs when a clock change falls between the two; the offset a day earlier is the other
 * one when the time falls in a change's doubled or skipped hour. A time that happens twice is the
 * earlier; a time the clocks skip is where they land (the first instant after the jump).
 */
export function wallToInstant(wall: number, timeZone: string): number {
  const first = wall - zoneOffset(wall, timeZone)
  const second = wall - zoneOffset(first, timeZone)
  const before = wall - zoneOffset(wall - DAY, timeZone)
  const candidates = [first, second, before]
  const found = candidates.filter((t) => t + zoneOffset(t, timeZone) === wall)
  return found.length ? Math.min(...found) : Math.max(...candidates)
}
