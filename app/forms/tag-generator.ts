/**
 * Tag generator (SPEC §9: "Tag generator pads numbers to 4 digits by default"): a prefix and a
 * zero-padded number, e.g. `DOC-0101`, and the next one after the tags already in use. Not for
 * regulatory tags (a planting's METRC tag is issued by the state, never made up here).
 *
 * Shared by server and browser: no imports.
 */

export const TAG_WIDTH = 4

function checkWidth(width: number): void {
  if (!Number.isInteger(width) || width < 1 || width > 15) throw new Error(`Tag width must be a whole number from 1 to 15, not ${width}`)
}

/** `prefix` + `n` padded to `width` digits. Refuses a negative or fractional number and one longer than `width`. */
export function formatTag(prefix: string, n: number, width = TAG_WIDTH): string {
  checkWidth(width)
  if (!Number.isInteger(n)) throw new Error(`A tag number must be a whole number, not ${n}`)
  if (n < 0) throw new Error(`A tag number can not be negative (${n})`)
  const digits = String(n)
  if (digits.length > width) throw new Error(`Tag number ${n} does not fit in ${width} digits (${prefix}${'9'.repeat(width)} is the last tag)`)
  return prefix + digits.padStart(width, '0')
}

/**
 * The tag after the highest of `existing` that is `prefix` followed by digits only (others, and
 * other prefixes, are ignored); `prefix` + 1 when there is none. Gaps are not refilled: a tag
 * once handed out may be on a label somewhere.
 */
export function nextTag(prefix: string, existing: Iterable<string>, width = TAG_WIDTH): string {
  checkWidth(width)
  let max = 0
  for (const tag of existing) {
    if (typeof tag !== 'string' || !tag.startsWith(prefix)) continue
    const rest = tag.slice(prefix.length)
    if (!/^[0-9]+$/.test(rest)) continue
    max = Math.max(max, Number(rest))
  }
  return formatTag(prefix, max + 1, width)
}
