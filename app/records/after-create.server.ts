/**
 * What follows a committed create, by table (after the store write; a failure here is logged and
 * does not undo the record). Today one: a new global message (`inf_global`) is announced to the
 * people of the facility it was written in (app/bus/global-messages.server.ts).
 */
import type { AppLoadContext } from '@remix-run/node'
import { announceGlobalMessage } from '../bus/global-messages.server'
import type { Doc } from '../db/types'
import type { Writer } from './write.server'

export type AfterCreate = (context: AppLoadContext, w: Writer, doc: Doc) => Promise<unknown>

const AFTER_CREATE: Record<string, AfterCreate> = {
  inf_global: (context, w, doc) => announceGlobalMessage(context, w.facility, doc._id),
}

/** A business area's step after a create of one of its tables (app/areas, decision 022). */
export function registerAfterCreate(collection: string, run: AfterCreate): void {
  AFTER_CREATE[collection] = run
}

export async function afterCreate(context: AppLoadContext, w: Writer, collection: string, doc: Doc): Promise<void> {
  const run = AFTER_CREATE[collection]
  if (!run) return
  try {
    await run(context, w, doc)
  } catch (e) {
    context.logger.warn({ err: (e as Error).message, collection, id: doc._id }, 'after-create step failed; the record is saved')
  }
}
