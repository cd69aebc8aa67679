/**
 * The choices of a list field as the form offers them: its fixed list, or the records of the table it
 * references (the organisation's, or the platform's for a platform table), by label. The edit form
 * and bulk edit both pick from these.
 */
import type { Store } from '../db/store.server'
import { referenceOf } from '../forms/record-schema'
import { isPlatformCollection, PLATFORM_ORG } from '../route-map'
import type { FieldDef } from '../schemas/table-schema'

export type ListOption = { value: string; label: string }

/** at most this many referenced records are offered */
export const MAX_LIST_OPTIONS = 1000

export async function listOptions(store: Store, org: string, f: FieldDef): Promise<ListOption[]> {
  if (f.en?.list?.length) return f.en.list.map((v) => ({ value: v, label: v }))
  const ref = referenceOf(f)
  if (!ref || !(await store.schemas.hasCollection(ref.table))) return []
  const rows = await store.find(isPlatformCollection(ref.table) ? PLATFORM_ORG : org, ref.table, {}, MAX_LIST_OPTIONS)
  return rows.map((r) => ({ value: r._id, label: String(r[ref.labelField] ?? r._id) })).sort((a, b) => a.label.localeCompare(b.label))
}
