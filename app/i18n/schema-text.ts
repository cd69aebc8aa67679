/**
 * A table schema's texts in the user's language (issue 32 item 12): column headers, field labels, form sections,
 * sub-table column labels and list values go through the phrase map (`t`, app/i18n/t.ts), falling
 * back to the English text. Only what is shown changes: a list value is stored, posted and searched
 * as its canonical (English) text. Shared by server and browser; the table screen and the edit form
 * both use it, so every screen shows the same words.
 */
import type { FieldDef, TableSchema } from '../schemas/table-schema'

type T = (key: string) => string

/** list and multilist fields pick from values whose shown text is translated */
export const isListType = (type: string | undefined): boolean => type === 'list' || type === 'multilist'

/** A list field's stored value as shown: each element through the phrase map, a multilist joined with commas. */
export function listText(v: unknown, t: T): string {
  if (v === undefined || v === null || v === '') return ''
  if (Array.isArray(v)) return v.map((x) => listText(x, t)).filter(Boolean).join(', ')
  return t(String(v))
}

/** A field with its label (and its sub-table columns' labels) in the user's language. */
export function localizeField(f: FieldDef, t: T): FieldDef {
  return { ...f, label: t(f.label), ...(f.group ? { group: t(f.group) } : {}), ...(f.array ? { array: f.array.map((s) => localizeField(s, t)) } : {}) }
}

export function localizeSchema(schema: TableSchema, t: T): TableSchema {
  return { ...schema, fields: schema.fields.map((f) => localizeField(f, t)) }
}

/** A schema's list options as shown: the value stays canonical, the text is translated. Options from another table are its records' own labels. */
export function localizeOptions(f: FieldDef, opts: Array<{ value: string; label: string }>, t: T): Array<{ value: string; label: string }> {
  if (!f.en?.list?.length) return opts
  return opts.map((o) => ({ value: o.value, label: t(o.label) }))
}

/** Table columns (the table screen's model) with their headers and nested-table headers translated. */
export function localizeColumns<C extends { label: string; sub?: Array<{ label: string }> }>(cols: C[], t: T): C[] {
  return cols.map((c) => ({ ...c, label: t(c.label), ...(c.sub ? { sub: c.sub.map((s) => ({ ...s, label: t(s.label) })) } : {}) }))
}

/** Every text a schema shows that the phrase map should hold: labels (sub-tables too) and list values. */
export function schemaTexts(schema: Pick<TableSchema, 'fields'>): string[] {
  const out = new Set<string>()
  const walk = (fields: FieldDef[]) => {
    for (const f of fields) {
      out.add(f.label)
      for (const v of f.en?.list ?? []) out.add(v)
      if (f.array) walk(f.array)
    }
  }
  walk(schema.fields)
  return [...out].filter((s) => s.trim() !== '')
}
