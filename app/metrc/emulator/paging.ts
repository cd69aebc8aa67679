/**
 * v2 paging and lastModified windows as METRC documents them (reference §1.5, §1.6): paging is off
 * without `pageSize`, 1–20 per page from page 1; windows give both ends, at most 24 hours apart.
 */
import { Refusal } from './refusal'

export const MAX_PAGE_SIZE = 20
export const MAX_WINDOW_MS = 24 * 60 * 60 * 1000

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

