/** What one user may do with one row of an editable table (SPEC §6). Pure: shared by screens, API and actions. */
import { roleOf, type SessionUser } from '../auth/entitlements'
import type { Doc } from '../db/types'

/** May this user change or delete this row? Super always may; others not where the row says ed/delete = no (SPEC §6). */
export function rowRights(table: { editable: boolean }, user: Pick<SessionUser, 'role' | 'origRole'>, row: Doc): { canEdit: boolean; canDelete: boolean } {
  if (!table.editable) return { canEdit: false, canDelete: false }
  const sup = roleOf(user) === 'super'
  return { canEdit: sup || String(row.ed ?? '').toLowerCase() !== 'no', canDelete: sup || String(row.delete ?? '').toLowerCase() !== 'no' }
}
