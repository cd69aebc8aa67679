/**
 * After METRC confirms a new item or package, the local record takes METRC's identity: a record created on
 * /MetrcItems or /MetrcPackages gets the `_id` the sync gives METRC's rows (`m{Id}`) and its MetrcId, so the next sync
 * updates it instead of adding a second copy, and later edits push as `PUT /items/v2` with that Id.
 * Both steps are audited writes by the push worker; the outbox rows follow the record.
 */
import type { Database } from '../../db/index.server'
import type { OutboxRow } from './applied.server'

export const PUSH_ACTOR = { uid: 'metrc-push', requestId: 'metrc-push' }

/** Which confirmed pushes create a METRC record a local record stands for. */
const ADOPTS: Record<string, string> = { 'POST /items/v2': 'metrc_items', 'POST /packages/v2': 'metrc_packages', 'POST /harvests/v2/packages': 'metrc_packages' }

export async function adoptMetrcId(database: Database, item: OutboxRow, metrcId: number): Promise<void> {
  const collection = ADOPTS[item.endpoint]
  if (!collection || item.source_collection !== collection || !item.source_id) return
  const doc = await database.store.get(item.org, collection, item.source_id)
  const id = `m${metrcId}`
  if (!doc || doc._id === id) return
  const fields = Object.fromEntries(Object.entries(doc).filter(([k]) => !['_id', 'cts', 'ts', 'octs', '_labels'].includes(k)))
  await database.store.mirror(PUSH_ACTOR, item.org, collection, [{ ...fields, _id: id, MetrcId: metrcId }])
  await database.store.remove(PUSH_ACTOR, item.org, collection, doc._id)
  await database.db.query('UPDATE metrc_outbox SET source_id = $4 WHERE org = $1 AND source_collection = $2 AND source_id = $3', [item.org, collection, doc._id, id])
}
