/**
 * A scanner setting's `field` (SPEC §3: "field (id:prt or id:more)"; decision 060). It names the field
 * a scan is for, and may say what a scan on the table screen does with the code:
 *
 *   `tag`        the code fills the field `tag` in the edit form (the RFID / Remote Scale button)
 *   `id:prt`     the code is a record's `id`: its label goes to the table's label printer (SPEC §4 printing)
 *   `tag:more`   the code is a record's `tag`: that record opens, to see and change more of it
 *
 * Shared by the settings screen's save check, the device lookup and the table screen's Scan button.
 */
export type ScanThen = 'fill' | 'prt' | 'more'
export interface ScannerField {
  /** the field the code fills, or the field a record is found by */
  field: string
  then: ScanThen
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
export const SCANNER_FIELD_MESSAGE = "Field must be a field name (e.g. tag), or a field name followed by ':prt' (print the scanned record's label) or ':more' (open the scanned record), e.g. id:prt"

/** The setting, or null when it is not one of the three shapes. */
export function parseScannerField(value: unknown): ScannerField | null {
  if (typeof value !== 'string') return null
  const [field, then, ...rest] = value.trim().split(':')
  if (rest.length || !NAME.test(field ?? '')) return null
  if (then === undefined) return { field: field!, then: 'fill' }
  return then === 'prt' || then === 'more' ? { field: field!, then } : null
}

/** What a scan on the table screen does, from one table's RFID scanner settings (the first lookup setting wins). */
export function tableScan(settings: ReadonlyArray<Record<string, unknown>>): ScannerField | null {
  for (const s of settings) {
    if (s.type !== 'rfid') continue
    const p = parseScannerField(s.field)
    if (p && p.then !== 'fill') return p
  }
  return null
}
