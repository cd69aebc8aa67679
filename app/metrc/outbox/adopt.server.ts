/**
 * After METRC confirms a new item or package, the local record takes METRC's identity: a record created on
 * /MetrcItems or /MetrcPackages gets the `_id` the sync gives METRC's rows (`m{Id}`) and its MetrcId, so the next sync
 * updates it instead of adding a second copy, and later edits push as `PUT /items/v2` with that Id.
 * Both steps are audited writes by the push worker; the outbox rows follow the record.
 */
import type { Database } from '../../db/index.server'
import { sameWaste, type OutboxRow } from './applied.server'

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

/**
 * Plant waste made in Canopy and confirmed by METRC: METRC's waste rows have no Id and never
 * carry Canopy's note, so the confirmation cannot say which row is ours. When a sync lists a waste
 * row Canopy does not have yet, a confirmed Canopy record describing the same waste (date, method,
 * reason, weight, unit, plant count) takes that row's identity (`w{PlantWasteNumber}`) instead of
 * the sync adding a second copy: the Canopy record goes (audited), METRC's row comes in its place.
 */
export async function adoptConfirmedWaste(database: Database, org: string, rows: Array<Record<string, unknown>>, known: (id: string) => boolean): Promise<number> {
  const fresh = rows.filter((r) => r.PlantWasteNumber !== undefined && !known(`w${String(r.PlantWasteNumber)}`))
  if (!fresh.length) return 0
  const mine = (
    await database.db.query<{ id: string; source_id: string; payload: Record<string, unknown> }>(
      `SELECT o.id, o.source_id, o.payload FROM metrc_outbox o WHERE o.org = $1 AND o.source_collection = 'metrc_wmix' AND o.endpoint = 'POST /plants/v2/waste' AND o.status = 'confirmed' AND o.source_id !~ '^w[0-9]+$' ORDER BY o.seq`,
      [org],
    )
  ).rows
  let n = 0
  const taken = new Set<unknown>()
  for (const m of mine) {
    const row = fresh.find((r) => !taken.has(r.PlantWasteNumber) && sameWaste(r, m.payload))
    if (!row) continue
    if (!(await database.store.get(org, 'metrc_wmix', m.source_id))) continue
    taken.add(row.PlantWasteNumber)
    await database.store.remove(PUSH_ACTOR, org, 'metrc_wmix', m.source_id)
    await database.db.query('UPDATE metrc_outbox SET source_id = $3 WHERE org = $1 AND id = $2', [org, m.id, `w${String(row.PlantWasteNumber)}`])
    n++
  }
  return n
}
