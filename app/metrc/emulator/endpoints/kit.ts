/**
 * What an endpoint family declares (one file per family beside this one): its list GETs (license
 * needed or not, paged wrapper or bare array, lastModified windows, plant work), its by-id GETs,
 * and its writes (a zod schema per row, a domain check with METRC's row messages, an apply).
 * Also the small helpers the families share: name matching, ids, tags, dates.
 */
import { z } from 'zod'
import type { EmulatorState, FacilityData, License, Row, UserKey } from '../model'
import { REF } from '../reference'
import { convert, unitName } from '../rules'

export interface ListDef {
  license: 'required' | 'optional' | 'none'
  shape: 'paged' | 'bare'
  /** takes lastModifiedStart/End */
  modified?: boolean
  /** plant work: 403 at a license that cannot grow */
  plants?: boolean
  rows: (s: EmulatorState, f: FacilityData | null, q: URLSearchParams, user: UserKey) => unknown[]
  /** a stored row as METRC sends it (./wire.ts), applied to the rows of the page answered */
  wire?: (row: never, f: FacilityData) => unknown
}

/** `/{family}/v2/{id|label}`: a record outside the license is 401, not 404 */
export interface ByIdDef {
  plants?: boolean
  rows: (f: FacilityData) => Row[]
  wire?: (row: Row, f: FacilityData) => unknown
}

export interface WriteContext {
  state: EmulatorState
  f: FacilityData
  license: License
  now: string
}

export interface WriteOp<T> {
  /** one row of the body; unknown fields pass (METRC ignores them) */
  schema: z.ZodType<T, z.ZodTypeDef, unknown>
  /** the license type's gate, before any row is read (METRC's 403) */
  gate?: (license: License) => void
  /** METRC's rules for a row that has the right shape; `earlier` holds the rows before it in the same body */
  check: (row: T, err: (message: string) => void, ctx: WriteContext, earlier: T[]) => void
  /** the change; answers the new or touched record's Id */
  apply: (row: T, ctx: WriteContext) => number
}

export interface Family {
  lists?: Record<string, ListDef>
  byId?: Record<string, ByIdDef>
  writes?: Record<string, WriteOp<never>>
}

/** Declares a write with its row type inferred from the schema. */
export const write = <T>(op: WriteOp<T>) => op as unknown as WriteOp<never>

// row pieces
export const zText = z.string().trim().min(1, 'is required')
export const zDate = z.string().refine((v) => Number.isFinite(Date.parse(v)), 'must be a date (YYYY-MM-DD) or an ISO date-time')
export const zNumber = z.number({ invalid_type_error: 'must be a number' }).finite()
export const zCount = z.number({ invalid_type_error: 'must be a whole number' }).int('must be a whole number')
export const zBool = z.boolean().optional()
export const zOpt = z.string().trim().nullish()

// lookups (names match in any case, as METRC's do)
export const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase()
export const byName = (rows: Row[], name: unknown) => rows.find((r) => same(r.Name, name))
export const byLabel = (rows: Row[], label: unknown) => rows.find((r) => typeof label === 'string' && r.Label === label.trim())
export const byIdOrLabel = (rows: Row[], o: { Id?: number | null; Label?: string | null }) => (typeof o.Id === 'number' ? rows.find((r) => r.Id === o.Id) : byLabel(rows, o.Label))
export const newId = (ctx: WriteContext) => ctx.state.nextId++
export const day = (v: string) => v.slice(0, 10)
export const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)
export const round4 = (n: number) => Math.round(n * 10_000) / 10_000
/** `qty` given in `unit` (any spelling) expressed in `to` */
export const inUnit = (qty: number, unit: string, to: string) => convert(qty, unitName(unit)!, unitName(to)!)
export const unitAbbrev = (name: string) => REF.unitsOfMeasure.find((u) => u.Name === name)?.Abbreviation ?? name

/** Takes a tag out of the facility's available list for good. */
export function useTag(ctx: WriteContext, kind: 'plant' | 'package', tag: string) {
  const i = ctx.f.tags[kind].indexOf(tag)
  if (i >= 0) ctx.f.tags[kind].splice(i, 1)
  ctx.f.usedTags.push(tag)
}

export const missing = (what: string, name: unknown) => `${what} ${String(name ?? '')} does not exist in the current Facility.`
