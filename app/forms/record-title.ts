/**
 * The title of a record's form (issue 32 item 13): "New planting" when the table names one record
 * (its schema's `singular`), "Add a record to Products" when it does not; "Edit: Plantings" for an
 * existing record. `t` translates each phrase (the page's language); the server passes none.
 * Shared by server and browser: no imports.
 */
export function recordTitle(schema: { label: string; singular?: string }, editing: boolean, t: (key: string) => string = (k) => k): string {
  if (editing) return `${t('Edit')}: ${t(schema.label)}`
  if (schema.singular) return t(`New ${schema.singular}`)
  return `${t('Add a record to')} ${t(schema.label)}`
}

/**
 * A stored record's name in a person's words (the breadcrumb's last crumb, decision 061): the value
 * of the text field the table sorts by, else of its first shown text field, else null (the id is shown).
 * A table sorted by a date or a reference (a harvest by its date) is named by its text, not by a
 * timestamp or an id.
 */
export function recordName(schema: { fields: Array<{ key: string; show: boolean; type: string }>; defaultSort?: { key: string } }, row: Record<string, unknown> | null): string | null {
  if (!row) return null
  const text = (k: string | undefined) => (k && typeof row[k] === 'string' && (row[k] as string).trim() ? (row[k] as string).trim().slice(0, 80) : null)
  const first = schema.fields.find((f) => f.show && f.type === 'text' && text(f.key))
  const sort = schema.fields.find((f) => f.key === schema.defaultSort?.key)
  return (sort && sort.type !== 'text' ? null : text(schema.defaultSort?.key)) ?? text(first?.key)
}
