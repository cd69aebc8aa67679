/** The outbox screen's tabs and the statuses each shows (shared by the server and the browser). */
export const OUTBOX_TABS = { attention: ['failed', 'held'], queued: ['pending', 'sent'], done: ['confirmed', 'discarded'] } as const
export type OutboxTab = keyof typeof OUTBOX_TABS

/** The three parts of a METRC ingredient row, by the keys a push's Ingredients use. */
export const INGREDIENT_KEYS = {
  package: ['Package', 'Quantity', 'UnitOfMeasure'],
  harvest: ['HarvestName', 'Weight', 'UnitOfWeight'],
} as const

/** A push's field as the outbox screen's text box shows it: lists joined by ", ", ingredient rows as "SOURCE QTY UNIT; …". */
export function fieldText(v: unknown): string {
  if (Array.isArray(v)) {
    return v
      .map((x) => {
        if (!x || typeof x !== 'object') return String(x)
        const o = x as Record<string, unknown>
        const keys = 'HarvestName' in o || 'HarvestId' in o ? INGREDIENT_KEYS.harvest : INGREDIENT_KEYS.package
        return keys.map((k) => String(o[k] ?? (k === 'HarvestName' ? o.HarvestId ?? '' : ''))).join(' ')
      })
      .join(v.some((x) => x && typeof x === 'object') ? '; ' : ', ')
  }
  return v === null || v === undefined ? '' : String(v)
}
