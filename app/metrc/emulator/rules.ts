/**
 * METRC's domain rules as the emulator applies them (reference §1.8, §4), pure so the unit tests
 * read them directly: tags, batch sizes, growth phases, units. Paging and windows: ./paging.ts.
 */
import { REF } from './reference'
export { Refusal } from './refusal'
export { inWindow, MAX_PAGE_SIZE, MAX_WINDOW_MS, page, paging, window } from './paging'

export const MAX_WRITE_OBJECTS = 10
export const MAX_BATCH_PLANTS = 100
export const TAG_RE = /^[0-9A-Z]{24}$/

/**
 * Tags are single-use and bound to one facility and one kind: a tag is good for a new plant or
 * package only when it is well formed, still in this facility's available list of that kind, and
 * not already claimed by an earlier row of the same request. Answers METRC's row message or null.
 */
export function tagProblem(tag: string, available: readonly string[], claimed: ReadonlySet<string> = new Set()): string | null {
  if (!TAG_RE.test(tag) || !available.includes(tag) || claimed.has(tag)) return `Tag ${tag} is not valid.`
  return null
}

/** Plantings and splits: a whole number of plants from 1 to 100 per batch. */
export const batchSizeAllowed = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_BATCH_PLANTS

/** A unit's kind (CountBased / WeightBased), or null for a unit METRC does not know. */
export function unitKind(name: unknown): string | null {
  const u = REF.unitsOfMeasure.find((x) => typeof name === 'string' && (x.Name.toLowerCase() === name.toLowerCase() || x.Abbreviation === name))
  return u?.QuantityType ?? null
}

/** METRC's own name for a unit given by name (any case) or abbreviation, or null. */
export function unitName(name: unknown): string | null {
  return REF.unitsOfMeasure.find((x) => typeof name === 'string' && (x.Name.toLowerCase() === name.trim().toLowerCase() || x.Abbreviation === name.trim()))?.Name ?? null
}

/** Two units may stand for the same quantity only when both are known and of one kind. */
export const sameUnitKind = (a: unknown, b: unknown) => unitKind(a) !== null && unitKind(a) === unitKind(b)

const GRAMS: Record<string, number> = { Grams: 1, Milligrams: 0.001, Kilograms: 1000, Ounces: 28.349523125, Pounds: 453.59237 }

/** `qty` of `from` in `to` (same kind only; Each stays Each). */
export function convert(qty: number, from: string, to: string): number {
  if (from === to) return qty
  if (!(from in GRAMS) || !(to in GRAMS)) throw new Error(`cannot convert ${from} to ${to}`)
  return Math.round(((qty * GRAMS[from]) / GRAMS[to]) * 10_000) / 10_000
}

/** Plant growth phases move one way: Vegetative → Flowering. */
export function phaseMoveAllowed(from: unknown, to: unknown): boolean {
  if (to !== 'Vegetative' && to !== 'Flowering') return false
  if (from === to) return false
  return !(from === 'Flowering' && to === 'Vegetative')
}

/** The next `n` tags after `start` (same prefix, serial + 1 each). */
export function sequentialTags(start: string, n: number): string[] {
  const m = /^(.*?)(\d{9})$/.exec(start)
  if (!m) return n === 1 ? [start] : []
  return Array.from({ length: n }, (_, i) => `${m[1]}${String(Number(m[2]) + i).padStart(9, '0')}`)
}
