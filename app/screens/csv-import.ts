/**
 * CSV import (issue 31 item 3, decision 070), the part without a database: which columns of a file
 * fill which fields, and each cell as the edit form would post it. The checks themselves are the
 * form's (records/write.server.ts checkCreates); this module only reads what a person or an export
 * (export.$screen.ts: the field labels as headers, dates as MM/DD/YYYY hh:mm A, $1,250.00, 12.5 g,
 * Yes/No, a referenced record by its label) wrote into a cell.
 */
import { isEditable, referenceOf, SYSTEM_KEYS } from '../forms/record-schema'
import type { FieldDef, TableSchema } from '../schemas/table-schema'
import { parseCsv } from './csv'

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024
export const IMPORT_MAX_ROWS = 10_000

/** Field types a CSV cell cannot fill: sub-tables, files, readings, computed, stored HTML and code. */
const NOT_IMPORTED = new Set(['array', 'fileDND', 'gaugearray', 'function', 'document', 'code'])

/** The fields an import fills, in schema order (the template's columns). */
export function importFields(schema: TableSchema): FieldDef[] {
  return schema.fields.filter((f) => isEditable(f) && !NOT_IMPORTED.has(f.type))
}

export interface ImportColumn {
  header: string
  /** the field this column fills; null: ignored (`note` says why) */
  key: string | null
  note?: string
}

/** The file's text as rows: a byte-order mark dropped, rows of nothing but empty cells left out. */
export function readCsv(text: string): string[][] {
  return parseCsv(text.replace(/^\uFEFF/, '')).filter((r) => r.some((c) => c.trim() !== ''))
}

/** The server's own keys, and how the table names when a record was created. */
const SYSTEM_HEADERS = new Set<string>([...SYSTEM_KEYS, 'id', 'record created'])

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase()

/** Each header to the field it names (its label, as the export writes it, or its key); a field named twice is an error. */
export function mapHeaders(schema: TableSchema, headers: string[]): { columns: ImportColumn[]; error: string | null } {
  const fillable = new Set(importFields(schema).map((f) => f.key))
  const seen = new Map<string, string>()
  let error: string | null = null
  const columns = headers.map((h): ImportColumn => {
    const header = h.trim()
    const f = schema.fields.find((x) => norm(x.label) === norm(header)) ?? schema.fields.find((x) => norm(x.key) === norm(header))
    if (!header) return { header, key: null, note: 'no header: ignored' }
    if (!f && SYSTEM_HEADERS.has(norm(header))) return { header, key: null, note: 'filled by the system, not by a file: ignored' }
    if (!f) return { header, key: null, note: 'not a field of this table: ignored' }
    if (!fillable.has(f.key)) return { header, key: null, note: 'filled by the system, not by a file: ignored' }
    if (seen.has(f.key)) error ??= `The columns "${seen.get(f.key)}" and "${header}" both fill ${f.label}. Keep one of them.`
    seen.set(f.key, header)
    return { header, key: f.key }
  })
  if (!error && !seen.size) error = `No column of this file fills a field of this table. The first row must name the fields, e.g. ${importFields(schema).slice(0, 3).map((f) => `"${f.label}"`).join(', ')}. Download the CSV template for the exact headers.`
  return { columns, error }
}

/** An export's guard against spreadsheet formulas ('=…) taken off again. */
const unguard = (s: string) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s)

/** MM/DD/YYYY or MM/DD/YYYY hh:mm AM/PM (how the table and the export show a date) → the form's date input; anything else unchanged. */
export function dateInput(s: string): string {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?\s*$/.exec(s)
  if (!m) return s
  const [, mo, d, y, h, mi, sec, ap] = m
  const two = (n: number | string) => String(n).padStart(2, '0')
  if (h === undefined) return `${y}-${two(mo)}-${two(d)}`
  let hh = +h
  if (ap) {
    if (hh < 1 || hh > 12) return s
    hh = (hh % 12) + (ap.toLowerCase() === 'pm' ? 12 : 0)
  }
  return `${y}-${two(mo)}-${two(d)}T${two(hh)}:${mi}${sec ? `:${sec}` : ''}`
}

/** $1,250.00 → 1250.00, 1,250.5 → 1250.5; anything else unchanged (the form's check names it). */
export function numberInput(s: string): string {
  const t = s.trim()
  return /^-?\$?\d{1,3}(,\d{3})+(\.\d+)?$|^-?\$\d+(\.\d+)?$/.test(t) ? t.replace(/[$,]/g, '') : t
}

/** Resolved reference labels: by field key, a label (lower-cased, trimmed) → the ids of the records it names. */
export type ReferenceIds = Map<string, Map<string, string[]>>

export interface CellProblem {
  key: string
  message: string
}

/** One cell as the edit form would post it; a reference label resolved to its id (unknown or ambiguous: a problem). */
export function cellInput(f: FieldDef, raw: string, refs: ReferenceIds): { value: unknown } | { problem: string } {
  const s = unguard(raw)
  const ref = referenceOf(f)
  if (ref) {
    const labels = f.type === 'multilist' ? s.split(';').map((x) => x.trim()).filter(Boolean) : s.trim() ? [s.trim()] : []
    const ids: string[] = []
    for (const l of labels) {
      const found = refs.get(f.key)?.get(l.toLowerCase()) ?? []
      if (!found.length) return { problem: `${f.label}: there is no record named "${l.slice(0, 80)}" to choose.` }
      if (found.length > 1) return { problem: `${f.label}: ${found.length} records are named "${l.slice(0, 80)}"; rename one so the file can name it.` }
      ids.push(found[0])
    }
    return { value: f.type === 'multilist' ? ids : (ids[0] ?? '') }
  }
  switch (f.type) {
    case 'date':
      return { value: dateInput(s) }
    case 'number':
    case 'currency':
      return { value: numberInput(s) }
    case 'measure': {
      const m = /^\s*(-?[\d,]+(?:\.\d+)?)\s*(.*)$/.exec(s)
      return { value: m ? `${m[1].replace(/,/g, '')} ${m[2]}`.trim() : s }
    }
    case 'multilist': {
      const opts = f.en?.list ?? []
      return { value: s.split(';').map((x) => x.trim()).filter(Boolean).map((x) => opts.find((o) => o.toLowerCase() === x.toLowerCase()) ?? x) }
    }
    case 'list': {
      const o = (f.en?.list ?? []).find((x) => x.toLowerCase() === s.trim().toLowerCase())
      return { value: o ?? s }
    }
    default:
      return { value: s }
  }
}

/** One data row as the form's values (the columns that fill a field), with the cells that could not be read. */
export function rowInput(schema: TableSchema, columns: ImportColumn[], cells: string[], refs: ReferenceIds): { input: Record<string, unknown>; problems: CellProblem[] } {
  const input: Record<string, unknown> = {}
  const problems: CellProblem[] = []
  columns.forEach((c, i) => {
    const f = c.key ? schema.fields.find((x) => x.key === c.key) : undefined
    if (!f) return
    const r = cellInput(f, cells[i] ?? '', refs)
    if ('problem' in r) problems.push({ key: f.key, message: r.problem })
    else input[f.key] = r.value
  })
  return { input, problems }
}

/** The field a problem of the write path names (conform's naming: `weight.qty`, `rows[0].x` → its top field). */
export const fieldOfProblem = (field: string | undefined): string | null => (field ? field.split(/[.[]/)[0] : null)
