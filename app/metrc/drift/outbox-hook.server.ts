/**
 * What the outbox tells drift (decision 021). A "Keep Canopy's" decision holds, and the same two
 * values do not reopen drift, while its push is on its way. When the push will not arrive — METRC
 * refused it (failed) or a person discarded it — call `pushAbandoned` in the same transaction as
 * that status change: the decision no longer holds, so the next check opens drift again if the two
 * sides still differ. Nothing happens for an item that no drift decision queued.
 */
import type { Queryable } from '../../db/driver.server'

export async function pushAbandoned(tx: Queryable, org: string, pushId: string): Promise<boolean> {
  const r = await tx.query(`UPDATE metrc_drift SET settled_at = now(), updated_at = now() WHERE org = $1 AND push_id = $2 AND status = 'resolved' AND settled_at IS NULL`, [org, pushId])
  return r.rowCount > 0
}
