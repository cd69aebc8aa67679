/**
 * A stored field as a person reads it in a record's history and its delete confirmation (issue 32
 * item 8): references by their label, list values as their labels, yes/no as Yes/No, dates in the
 * facility's zone, and text whole (the table trims it to 12 characters; these pages do not).
 * Also when two stored values mean the same: empty and missing are alike, yes/no fields compare
 * as booleans, so a save that only touched the notes does not list every other field.
 */
import { formatCell, isYes } from '../format/format'
import { RECORD_FLAG_LABELS, storedFlag, type RecordFlag } from '../forms/record-schema'
import type { LabelOf } from './reference-labels.server'

export interface ValueColumn {
  key: string
  label: string
  format: string
  type: string
}

const SYSTEM_LABELS: Record<string, string> = { _id: 'Id', cts: 'Record Created', ts: 'Updated', octs: 'Original Created' }
const isFlag = (key: string, col?: ValueColumn): key is RecordFlag => !col && key in RECORD_FLAG_LABELS
const isYesNo = (col?: ValueColumn) => !!col && (['check', 'status'].includes(col.type) || ['check', 'status'].includes(col.format))
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)

/** The label a field is shown under: its column's, the generic flag's, or the system key's. */
export function fieldLabel(key: string, col?: ValueColumn): string {
  return col?.label ?? (isFlag(key, col) ? RECORD_FLAG_LABELS[key] : SYSTEM_LABELS[key] ?? key)
}

/** Whether two stored values of a field mean the same to the person reading them. */
export function sameValue(key: string, a: unknown, b: unknown, col?: ValueColumn): boolean {
  if (isFlag(key, col)) return storedFlag(a) === storedFlag(b)
  if (isYesNo(col)) return isYes(a) === isYes(b)
  if (isEmpty(a) && isEmpty(b)) return true
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
}

/** A stored value as text, whole. */
export function shownValue(key: string, v: unknown, col: ValueColumn | undefined, labelOf: LabelOf, timeZone: string): string {
  if (isFlag(key, col)) return storedFlag(v) === 'yes' ? 'Yes' : 'No'
  if (isYesNo(col)) return isYes(v) ? 'Yes' : 'No'
  if (isEmpty(v)) return ''
  const label = labelOf(key, v)
  if (label !== null) return label
  if (key === 'cts' || key === 'octs' || key === 'ts') return formatCell(v, 'date', { timeZone })
  const format = col?.format ?? ''
  // a list's values are its labels; text is shown whole; a reference the app cannot look up is its id
  if (Array.isArray(v) && (col?.type === 'list' || col?.type === 'multilist')) return v.map(String).join(', ')
  if (format === 'trim' || format.startsWith('id:')) return formatCell(v, '')
  return formatCell(v, format, { timeZone })
}
