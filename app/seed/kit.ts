/**
 * The toolkit seed modules use: a deterministic random source, stable ids, and the facility
 * being seeded. Same inputs, same data: seeding twice changes nothing.
 */
import crypto from 'node:crypto'

export interface SeedFacility {
  /** organisation key, e.g. 'greenleaf' */
  org: string
  fullName: string
  kind: 'cultivation' | 'distribution' | 'lobby'
  /** two-letter state (SPEC §5 list) */
  state: string
  license: string
  timezone: string
}

export type SeedDoc = Record<string, unknown> & { _id: string }

/** Records per collection, for one facility. */
export type SeedRecords = Record<string, SeedDoc[]>

export interface Rng {
  /** uniform in [0, 1) */
  next(): number
  int(min: number, max: number): number
  float(min: number, max: number, decimals?: number): number
  pick<T>(items: readonly T[]): T
  chance(p: number): boolean
  /** a date `daysBack` days before ctx.now at most, as ISO string */
  pastDate(daysBack: number, minDaysBack?: number): string
}

export interface SeedCtx {
  facility: SeedFacility
  rng: Rng
  /** fixed "now" of the demo so data stays put between runs */
  now: Date
  /** the stable id of record `i` of `collection` in this facility (use it for references) */
  id(collection: string, i: number): string
  /** a 24-character METRC-style tag: 1A4 + 12 facility/type characters + 9-digit serial */
  tag(kind: 'plant' | 'package', serial: number): string
}

/** A small seeded random source (mulberry32): the same numbers for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function seedHash(s: string): number {
  return crypto.createHash('sha256').update(s).digest().readUInt32BE(0)
}

export function makeRng(seed: string, now: Date): Rng {
  const r = mulberry32(seedHash(seed))
  const rng: Rng = {
    next: r,
    int: (min, max) => min + Math.floor(r() * (max - min + 1)),
    float: (min, max, decimals = 2) => Number((min + r() * (max - min)).toFixed(decimals)),
    pick: (items) => items[Math.floor(r() * items.length)],
    chance: (p) => r() < p,
    pastDate: (daysBack, minDaysBack = 0) => {
      const ms = (minDaysBack + r() * (daysBack - minDaysBack)) * 86_400_000
      return new Date(now.getTime() - ms).toISOString()
    },
  }
  return rng
}

export function stableId(org: string, collection: string, i: number): string {
  return crypto.createHash('sha256').update(`${org}/${collection}/${i}`).digest('hex').slice(0, 24)
}

export function makeCtx(facility: SeedFacility, now: Date, salt = ''): SeedCtx {
  const code = crypto.createHash('sha256').update(facility.license).digest('hex').slice(0, 10).toUpperCase()
  return {
    facility,
    now,
    rng: makeRng(`${facility.org}${salt}`, now),
    id: (collection, i) => stableId(facility.org, collection, i),
    tag: (kind, serial) => `1A4${code}${kind === 'plant' ? '01' : '02'}${String(serial).padStart(9, '0')}`,
  }
}

/** Records with stable ids from a list of plain rows; empty and undefined values are left out (absent reads better than ''). */
export function rowsOf(ctx: SeedCtx, collection: string, list: Array<Record<string, unknown>>): SeedDoc[] {
  return list.map((r, i) => ({ _id: ctx.id(collection, i), ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== '' && v !== undefined)) }))
}

/**
 * The reference a record keeps to one of an organisation's files, as an upload stores it
 * (app/files/store.server.ts referenceOf): `/getfiles/{org}/{name}?subdir={folder}`. Seeded references
 * use it, so every demo link opens: the documents area writes a small real file for each one at seed
 * time (app/areas/documents/demo-files.server.ts) and a test walks them all.
 */
export function fileRef(org: string, subdir: string, name: string): string {
  return `/getfiles/${encodeURIComponent(org)}/${encodeURIComponent(name)}${subdir ? `?subdir=${encodeURIComponent(subdir)}` : ''}`
}

/** ISO times relative to the demo clock: `ago(2.5)` days before, `ahead(7)` days after, `hoursAgo(3)`. */
export function clock(ctx: SeedCtx) {
  const t0 = ctx.now.getTime()
  return {
    ago: (days: number) => new Date(t0 - days * 86_400_000).toISOString(),
    ahead: (days: number) => new Date(t0 + days * 86_400_000).toISOString(),
    hoursAgo: (hours: number) => new Date(t0 - hours * 3_600_000).toISOString(),
  }
}
