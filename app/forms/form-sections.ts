/**
 * The edit form's sections (issue 33 item 3): a schema may give each field a `group`; the form shows
 * one section per group, in the order the groups first appear, each with its heading. Fields without a
 * group come first, under "Details". A schema that names no group is one section without a heading.
 * Pure, shared by the form (components/form/record-form.tsx) and the record page.
 */
import type { FieldDef } from '../schemas/table-schema'

export interface FormSection {
  /** the heading; null for a form without sections */
  title: string | null
  fields: FieldDef[]
}

export const UNGROUPED = 'Details'

export function formSections(fields: FieldDef[]): FormSection[] {
  if (!fields.some((f) => f.group)) return fields.length ? [{ title: null, fields }] : []
  const by = new Map<string, FieldDef[]>()
  const loose = fields.filter((f) => !f.group)
  if (loose.length) by.set(UNGROUPED, loose)
  for (const f of fields) {
    if (!f.group) continue
    const list = by.get(f.group) ?? []
    if (!list.length) by.set(f.group, list)
    list.push(f)
  }
  return [...by].map(([title, list]) => ({ title, fields: list }))
}

/** Fields that take the form's whole width when it shows two columns: sub-tables, long texts, documents, files, readings. */
export const isWideField = (f: Pick<FieldDef, 'type'>): boolean => ['array', 'textarea', 'code', 'document', 'gaugearray', 'fileDND'].includes(f.type)
