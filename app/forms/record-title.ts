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
