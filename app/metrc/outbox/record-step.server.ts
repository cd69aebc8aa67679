/**
 * The outbox's part in the one write path (app/records/write.server.ts): for a table whose changes
 * METRC must hear about, the step the store runs inside the record's own transaction — plan the
 * pushes from the record as stored and as it was, and queue them. Record and pushes commit together.
 */
import type { WriteOptions } from '../../db/store.server'
import type { Actor } from '../../db/types'
import { enqueuePushes } from './enqueue.server'
import { fieldReader, planPushes, pushesFromTable } from './pushes.server'

export function outboxStep(org: string, actor: Actor, collection: string, timeZone: string): WriteOptions['also'] {
  if (!pushesFromTable(collection)) return undefined
  return async (tx, saved, before) => {
    const planned = await planPushes(collection, before, saved, { org, timeZone, field: fieldReader(tx, org) })
    if (planned.length) await enqueuePushes(tx, org, actor, planned.map((p) => ({ ...p, source: { collection, id: saved._id } })))
  }
}
