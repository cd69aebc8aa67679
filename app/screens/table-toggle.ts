/**
 * A table's one-tap yes/no change as the single value its button posts (issue 30 page weight: one
 * button instead of five hidden fields per row): `yes|no`, the record's id, the version the table
 * showed (`ts`, may be empty) and the field, space-separated; the field comes last and may hold spaces.
 * The table's action reads it back to the same fields a plain post sends (`intent=toggle`, `id`,
 * `field`, `ts`, `value`), so both go through the same rules (screens/table-actions.server.ts).
 */
export interface ToggleChange {
  value: string
  id: string
  ts: string
  field: string
}

export const toggleValue = (c: ToggleChange): string => `${c.value} ${c.id} ${c.ts} ${c.field}`

/** The change a toggle button posted, or null when the value is not one. */
export function readToggle(posted: string): ToggleChange | null {
  const m = /^(\S+) (\S+) (\S*) (.+)$/.exec(posted)
  return m ? { value: m[1], id: m[2], ts: m[3], field: m[4] } : null
}

/** A posted form with a toggle button's value as the plain fields; any other form as it came. */
export function expandToggle(form: FormData): FormData {
  const posted = form.get('toggle')
  if (typeof posted !== 'string') return form
  const out = new FormData()
  out.set('intent', 'toggle')
  const c = readToggle(posted)
  if (c) for (const [k, v] of Object.entries(c)) out.set(k, v)
  return out
}
