/**
 * Values an edit form opens with that the user has not saved yet: a check cell's toggle the save
 * rules refused (issue 32) opens the record's form with that check already set, as `set.{field}=yes`
 * in its address. Only yes/no fields take a preset; the parameters never reach the table's address.
 */
const PREFIX = 'set.'

export const presetParam = (field: string) => `${PREFIX}${field}`

/** The presets of an address: field → 'yes' | 'no'. */
export function presetsOf(search: URLSearchParams): Record<string, 'yes' | 'no'> {
  const out: Record<string, 'yes' | 'no'> = {}
  for (const [k, v] of search) if (k.startsWith(PREFIX) && (v === 'yes' || v === 'no')) out[k.slice(PREFIX.length)] = v
  return out
}

/** The address's query without its presets (the table view the form goes back to). */
export function withoutPresets(search: string): string {
  const q = new URLSearchParams(search)
  for (const k of [...q.keys()]) if (k.startsWith(PREFIX)) q.delete(k)
  const s = q.toString()
  return s ? `?${s}` : ''
}
