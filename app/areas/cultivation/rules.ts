/**
 * Pure rules of the cultivation lifecycle (browser-safe): plant tags in sequence, runs of
 * consecutive tags, growth phases that only move forward, weights split over plants, METRC's day.
 */

/** `n` tags from `start` up, keeping the width of its trailing number (METRC tags end in digits). */
export function tagSequence(start: string, n: number): string[] {
  const m = /^(.*?)(\d+)$/.exec(start.trim())
  if (!m || !Number.isInteger(n) || n < 1) return []
  const width = m[2].length
  const first = BigInt(m[2])
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    const digits = (first + BigInt(i)).toString()
    if (digits.length > width) return []
    out.push(m[1] + digits.padStart(width, '0'))
  }
  return out
}

/** Scanned or typed tags, one per line (or separated by spaces, commas): trimmed, blanks dropped. */
export const tagList = (text: string): string[] => text.split(/[\s,;]+/).map((t) => t.trim()).filter(Boolean)

/** Tags grouped in runs of consecutive numbers, in the given order: [{ start, count }]. */
export function consecutiveRuns(tags: string[]): Array<{ start: string; count: number }> {
  const runs: Array<{ start: string; count: number; last: string }> = []
  for (const t of tags) {
    const r = runs[runs.length - 1]
    if (r && tagSequence(r.last, 2)[1] === t) {
      r.count++
      r.last = t
    } else runs.push({ start: t, count: 1, last: t })
  }
  return runs.map(({ start, count }) => ({ start, count }))
}

/** The order growth phases go in; a plant never goes back (METRC refuses it too). */
const PHASE_ORDER: Record<string, number> = { Clone: 0, Vegetative: 1, Flowering: 2 }

/** Why a plant cannot go from `from` to `to`, or null. Mother is a side branch from Vegetative. */
export function phaseProblem(from: string, to: string): string | null {
  if (from === to) return `already ${to}`
  if (['Harvested', 'Destroyed'].includes(from)) return `${from.toLowerCase()}, no longer growing`
  if (to === 'Mother') return from === 'Vegetative' || from === 'Clone' ? null : `${from} plants cannot become mothers`
  if (from === 'Mother') return to === 'Vegetative' ? `a mother cannot go back to ${to}` : null
  const a = PHASE_ORDER[from]
  const b = PHASE_ORDER[to]
  if (a === undefined || b === undefined) return `cannot move from ${from || 'no phase'} to ${to}`
  return b > a ? null : `cannot go back from ${from} to ${to}`
}

/** A positive number from a form value ("12.5"), else null. */
export function positive(v: string): number | null {
  const n = Number(v.replace(',', '.'))
  return v.trim() !== '' && Number.isFinite(n) && n > 0 ? n : null
}

/** `total` split over `n` plants, to 0.01, the rounding left on the last one, so the parts add up. */
export function splitWeight(total: number, n: number): number[] {
  const each = Math.floor((total / n) * 100) / 100
  const out = Array.from({ length: n }, () => each)
  out[n - 1] = Math.round((total - each * (n - 1)) * 100) / 100
  return out
}

const GRAMS: Record<string, number> = { g: 1, kg: 1000, oz: 28.349523125, lb: 453.59237, Grams: 1, Kilograms: 1000, Ounces: 28.349523125, Pounds: 453.59237 }

/** A weight in grams (units as the forms and METRC name them), or null for a unit that is not a weight. */
export const inGrams = (qty: number, unit: string): number | null => (GRAMS[unit] === undefined ? null : qty * GRAMS[unit])

/** A form's YYYY-MM-DD (or nothing: now) as the ISO time stored in date fields. */
export function dayOf(v: string): string | null {
  if (!v) return new Date().toISOString()
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return null
  const d = new Date(`${v}T12:00:00Z`)
  return Number.isFinite(d.getTime()) ? d.toISOString() : null
}
