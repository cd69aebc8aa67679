/**
 * Ids of array sub-table rows (SPEC §9: "Array sub-row ids use digits 0-9"). A row keeps its id
 * for life, so the server can tell an edited row from a new one and keep its read-only columns.
 * Rows posted without an id (added in the form) get one when they are saved.
 *
 * Shared by server and browser: no imports.
 */

/**
 * What a posted row id may be. New ids are digits (below); rows stored earlier, imported or from
 * METRC may carry letters too ('L1'), and such a record must stay editable: letters, digits, '_'
 * and '-', up to 40.
 */
export const ROW_ID = /^[A-Za-z0-9_-]{1,40}$/

/**
 * Length of a new id: 8 random digits. Random rather than "highest + 1", so the id of a removed
 * row is never handed to a new one (an audit entry's row id names one row only); 10^8 values make
 * a retry rare even at the form's 500-row limit, and 8 digits still read well in a table.
 */
export const NEW_ROW_ID_LENGTH = 8

/** Uniform random integer in [0, 10): Web Crypto in browsers and Node 20 alike. */
function cryptoDigit(): number {
  const b = new Uint8Array(1)
  for (;;) {
    globalThis.crypto.getRandomValues(b)
    if (b[0] < 250) return b[0] % 10 // 250 = 25 × 10: no digit favoured
  }
}

/**
 * A new row id of `NEW_ROW_ID_LENGTH` digits that is none of `taken`.
 * `digit` is the random source (tests pass a fixed one).
 */
export function newRowId(taken: Iterable<string>, digit: () => number = cryptoDigit): string {
  const used = new Set(taken)
  // a run of collisions this long means the random source is broken, not unlucky
  for (let attempt = 0; attempt < 1000; attempt++) {
    let id = ''
    for (let i = 0; i < NEW_ROW_ID_LENGTH; i++) {
      const d = digit()
      if (!Number.isInteger(d) || d < 0 || d > 9) throw new Error(`A row id digit must be an integer from 0 to 9, not ${d}`)
      id += String(d)
    }
    if (!used.has(id)) return id
  }
  throw new Error('Could not find a free row id')
}

/**
 * The rows with an id each: rows that have one keep it, the others get a new one that collides
 * with no row of the list. Returns new row objects; the input is not changed.
 */
export function withRowIds<R extends object>(rows: readonly R[], digit?: () => number): Array<R & { id: string }> {
  const taken = new Set(rows.filter(hasId).map((r) => String((r as { id: unknown }).id)))
  return rows.map((r) => {
    if (hasId(r)) return { ...r, id: String((r as { id: unknown }).id) }
    const id = newRowId(taken, digit)
    taken.add(id)
    return { ...r, id }
  })
}

function hasId(r: object): boolean {
  const id = (r as { id?: unknown }).id
  return id !== undefined && id !== null && id !== ''
}

type Row = Record<string, unknown>

/**
 * The stored rows, each under an id: its own, or for a row stored without one (seeds, imports) an
 * id from its position, the same every time the same rows are read. The edit form shows these ids
 * and `rowsToSave` matches the posted rows against them, so such a row edited keeps the columns
 * the form does not post.
 */
export function keyedRows(stored: unknown): Array<Row & { id: string }> {
  if (!Array.isArray(stored)) return []
  const rows = stored.filter((r): r is Row => !!r && typeof r === 'object' && !Array.isArray(r))
  const taken = new Set(rows.filter(hasId).map((r) => String(r.id)))
  return rows.map((r, i) => {
    if (hasId(r)) return { ...r, id: String(r.id) }
    let id = String(i)
    while (taken.has(id)) id += '0'
    taken.add(id)
    return { ...r, id }
  })
}

/**
 * A sub-table as it will be stored, from the rows a form posted and the rows stored before.
 * A posted row with a stored row's id is that row edited: the columns the form does not post
 * (read-only ones like a line total) keep their stored values. Rows without an id get a new one;
 * stored rows not posted were removed.
 */
export function rowsToSave(posted: readonly Row[], stored: unknown): Array<Row & { id: string }> {
  const before = new Map(keyedRows(stored).map((r) => [r.id, r] as const))
  return withRowIds(posted.map((r) => (hasId(r) && before.has(String(r.id)) ? { ...before.get(String(r.id)), ...r } : r)))
}
