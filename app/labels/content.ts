/**
 * What a label says, before any layout: the title, the code (barcode, large text, QR code), and
 * "Label: value" lines, picked from one record by a template (templates.ts). Values come in
 * already formatted the way the table shows them (app/format/format.ts, referenced records'
 * labels resolved), so this stays pure.
 */
import { encodable } from './code128'
import type { LabelTemplate } from './templates'

export interface LabelColumn {
  key: string
  label: string
  /** shown in the table (schema `show`) */
  show: boolean
  /** display format (formatOf): images, files and sub-tables are never printed as text */
  format: string
}

export interface LabelLine {
  label: string
  value: string
}

export interface LabelContent {
  title: string
  /** the record's code as printed under the title ('' when it has none) */
  code: string
  lines: LabelLine[]
  /** what the barcode encodes, or null (template without one, or text Code 128 cannot carry) */
  barcode: string | null
  /** what the QR code holds, or null */
  qr: string | null
}

export interface LabelSource {
  /** the table's label, the title when the record has none of the template's title fields */
  tableLabel: string
  columns: LabelColumn[]
  /** each column's value as the table shows it ('' when empty) */
  values: Record<string, string>
  id: string
  /** the record's address (its edit form), for templates whose QR code points to it */
  url: string
}

const NOT_TEXT = new Set(['image', 'pdf', 'array'])
const MAX_TEXT = 200

// control characters are what it removes
// eslint-disable-next-line no-control-regex
const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT)

export function labelContent(t: LabelTemplate, src: LabelSource): LabelContent {
  const byKey = new Map(src.columns.filter((c) => !NOT_TEXT.has(c.format.split(':')[0])).map((c) => [c.key, c]))
  const valueOf = (k: string) => (k === '_id' ? src.id : byKey.has(k) ? clean(src.values[k] ?? '') : '')
  const first = (keys: string[]) => keys.find((k) => valueOf(k) !== '')
  const codeKey = first(t.code)
  const code = codeKey ? valueOf(codeKey) : src.id
  const titleKey = first(t.title)
  const title = titleKey ? valueOf(titleKey) : clean(src.tableLabel)
  const used = new Set([codeKey, titleKey])
  const lines: LabelLine[] = []
  const add = (k: string) => {
    if (lines.length >= t.lines || used.has(k) || !byKey.has(k) || valueOf(k) === '') return
    used.add(k)
    lines.push({ label: clean(byKey.get(k)!.label), value: valueOf(k) })
  }
  t.fields.forEach(add)
  src.columns.filter((c) => c.show).forEach((c) => add(c.key))
  return {
    title,
    code,
    lines,
    barcode: t.barcode && encodable(code) && !/[\^~>]/.test(code) ? code : null,
    qr: t.qr === 'none' ? null : t.qr === 'url' ? src.url : code,
  }
}
