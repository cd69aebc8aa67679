/**
 * The labels of the records a few stored documents point at (issue 32 item 8): a room, strain or
 * planting is shown by its name, never its id. Set-based: one `labelsOf` query per referenced
 * table for all the documents together, never a query per row; only records of the facility (or
 * of the platform, for platform tables). An id that is gone, or belongs to another organisation,
 * shows as "(deleted) <id>".
 */
import type { AppLoadContext } from '@remix-run/node'
import { referenceOf } from '../forms/record-schema'
import { isPlatformCollection, PLATFORM_ORG } from '../route-map'
import type { TableSchema } from '../schemas/table-schema'

/** A field's value as the label(s) of what it references; null when the field is not a reference. */
export type LabelOf = (key: string, value: unknown) => string | null

export const NO_LABELS: LabelOf = () => null

const idsIn = (v: unknown): string[] => (Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v]).filter((x) => x !== null && x !== undefined && x !== '').map(String)

export async function referenceLabels(context: AppLoadContext, schema: TableSchema | undefined, facility: string, docs: Array<Record<string, unknown> | null | undefined>): Promise<LabelOf> {
  const refs = new Map<string, { table: string; labelField: string }>()
  for (const f of schema?.fields ?? []) {
    const ref = referenceOf(f)
    if (ref) refs.set(f.key, ref)
  }
  if (!refs.size) return NO_LABELS
  // the ids wanted from each referenced table (and label field), over every document
  const wanted = new Map<string, { table: string; labelField: string; ids: Set<string> }>()
  for (const [key, ref] of refs) {
    const group = `${ref.table}\u0000${ref.labelField}`
    const g = wanted.get(group) ?? { ...ref, ids: new Set<string>() }
    for (const d of docs) for (const id of idsIn(d?.[key])) g.ids.add(id)
    wanted.set(group, g)
  }
  const found = new Map<string, Map<string, string>>()
  for (const [group, g] of wanted) {
    const has = g.ids.size > 0 && (await context.database.schemas.hasCollection(g.table))
    found.set(group, has ? await context.database.store.labelsOf(isPlatformCollection(g.table) ? PLATFORM_ORG : facility, g.table, g.labelField, [...g.ids]) : new Map())
  }
  return (key, value) => {
    const ref = refs.get(key)
    if (!ref) return null
    const labels = found.get(`${ref.table}\u0000${ref.labelField}`)
    return idsIn(value)
      .map((id) => labels?.get(id) ?? `(deleted) ${id}`)
      .join(', ')
  }
}
