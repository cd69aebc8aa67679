/**
 * The outbox's part in the one write path (app/records/write.server.ts): for a table whose changes
 * METRC must hear about, the step the store runs inside the record's own transaction — plan the
 * pushes from the record as stored and as it was, and queue them. Record and pushes commit together.
 */
import type { WriteOptions } from '../../db/store.server'
import type { Actor } from '../../db/types'
import { enqueuePushes, isLinked } from './enqueue.server'
import { planPushes, pushesFromTable, recordReader } from './pushes.server'

/** The step for a write of `collection`, or undefined when METRC does not hear about that table (the time zone is read only then). */
export async function outboxStep(org: string, actor: Actor, collection: string, timeZone: () => Promise<string>): Promise<WriteOptions['also']> {
  if (!pushesFromTable(collection)) return undefined
  const zone = await timeZone()
  // asked once per step: a step serves one write's transaction (many records of an import share it)
  let linked: boolean | undefined
  return async (tx, saved, before) => {
    // an unlinked facility queues nothing: not worth the planner's reads of rooms, strains, harvests
    linked ??= await isLinked(tx, org)
    if (!linked) return
    const planned = await planPushes(collection, before, saved, { org, timeZone: zone, record: recordReader(tx, org) })
    if (planned.length) await enqueuePushes(tx, org, actor, planned.map((p) => ({ ...p, source: { collection, id: saved._id } })))
  }
}
