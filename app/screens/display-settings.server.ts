/**
 * The display delays the platform keeps as system variables (sup_golden_vars, /SupGoldenVars;
 * SPEC §9): SEARCH_DEBOUNCE_MS (typing before a column search runs, 1 s) and
 * TABLE_REFRESH_DEBOUNCE_MS (a server push before Refresh lights up, 0.5 s). Read through the
 * platform read cache (10 s, dropped when this process writes the table); a missing, blank or
 * out-of-range value falls back to SPEC §9's default.
 */
import type { Database } from '../db/index.server'
import { cachedRead } from '../db/read-cache.server'
import { PLATFORM_ORG } from '../route-map'

export interface DisplayDelays {
  searchMs: number
  refreshMs: number
}

export const DEFAULT_DELAYS: DisplayDelays = { searchMs: 1000, refreshMs: 500 }
/** A delay past this is a typo, not a setting. */
export const MAX_DELAY_MS = 10_000

const VARS = { searchMs: 'SEARCH_DEBOUNCE_MS', refreshMs: 'TABLE_REFRESH_DEBOUNCE_MS' } as const

/** A stored value as a delay in ms, or null when it is not a whole number from 0 to MAX_DELAY_MS. */
export function delayOf(v: unknown): number | null {
  if (typeof v !== 'number' && (typeof v !== 'string' || !v.trim())) return null
  const n = Number(v)
  return Number.isInteger(n) && n >= 0 && n <= MAX_DELAY_MS ? n : null
}

export async function displayDelays(database: Database): Promise<DisplayDelays> {
  const { store } = database
  const rows = await cachedRead(store, 'sup_golden_vars', 'display-delays', async () => {
    if (!(await database.schemas.hasCollection('sup_golden_vars'))) return []
    return Promise.all(Object.values(VARS).map((name) => store.find(PLATFORM_ORG, 'sup_golden_vars', { name }, 1))).then((r) => r.flat())
  })
  const value = (name: string) => delayOf(rows.find((r) => r.name === name)?.value)
  return { searchMs: value(VARS.searchMs) ?? DEFAULT_DELAYS.searchMs, refreshMs: value(VARS.refreshMs) ?? DEFAULT_DELAYS.refreshMs }
}
