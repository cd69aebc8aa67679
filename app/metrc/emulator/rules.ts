/**
 * METRC's domain rules as the emulator applies them (reference §1.5–1.8, §4), pure so the unit
 * tests read them directly: paging, lastModified windows, tags, batch sizes, growth phases, units.
 */
import { REF } from './model'

export const MAX_PAGE_SIZE = 20
export const MAX_WRITE_OBJECTS = 10
export const MAX_WINDOW_MS = 24 * 60 * 60 * 1000
export const MAX_BATCH_PLANTS = 100
export const TAG_RE = /^[0-9A-Z]{24}$/

export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly rows?: Array<{ row: number; message: string }>,
    /** for a 429: seconds to wait */
    readonly retryAfterS?: number,
  ) {
    super(message)
  }
}

/** pageNumber/pageSize (paging is off without pageSize, as METRC documents). */
export function paging(q: URLSearchParams): { size: number; page: number } | null {
  const size = q.get('pageSize')
  if (size === null) return null
  const n = Number(size)
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) throw new Refusal(400, `pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}.`)
  const p = Number(q.get('pageNumber') ?? '1')
  if (!Number.isInteger(p) || p < 1) throw new Refusal(400, 'pageNumber must be a whole number from 1.')
  return { size: n, page: p }
}

export function page<T>(rows: T[], p: { size: number; page: number } | null) {
  const size = p?.size ?? Math.max(rows.length, 1)
  const pageNo = p?.page ?? 1
  const data = rows.slice((pageNo - 1) * size, pageNo * size)
  const totalPages = Math.max(1, Math.ceil(rows.length / size))
  return { Data: data, Total: rows.length, TotalRecords: rows.length, PageSize: size, RecordsOnPage: data.length, Page: pageNo, CurrentPage: pageNo, TotalPages: totalPages }
}

/** lastModifiedStart/End: both or neither, ISO times, at most 24 hours apart. */
export function window(q: URLSearchParams): { start: number; end: number } | null {
  const a = q.get('lastModifiedStart')
  const b = q.get('lastModifiedEnd')
  if (a === null && b === null) return null
  if (a === null || b === null) throw new Refusal(400, 'lastModifiedStart and lastModifiedEnd go together.')
  const start = Date.parse(a)
  const end = Date.parse(b)
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw new Refusal(400, 'lastModifiedStart and lastModifiedEnd must be ISO 8601 date-times.')
  if (end < start) throw new Refusal(400, 'lastModifiedEnd must not be before lastModifiedStart.')
  if (end - start > MAX_WINDOW_MS) throw new Refusal(400, 'The Last Modified Filter Range cannot exceed 24 hours.')
  return { start, end }
}

export const inWindow = (w: { start: number; end: number } | null, lastModified: unknown) => !w || ((t) => t >= w.start && t <= w.end)(Date.parse(String(lastModified)))

/** A unit's kind (CountBased / WeightBased), or null for a unit METRC does not know. */
export function unitKind(name: unknown): string | null {
  const u = REF.unitsOfMeasure.find((x) => typeof name === 'string' && (x.Name.toLowerCase() === name.toLowerCase() || x.Abbreviation === name))
  return u?.QuantityType ?? null
}

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
