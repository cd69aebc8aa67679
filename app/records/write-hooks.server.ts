/**
 * Extension points of the one write path (records/write.server.ts) for what a save rule cannot do
 * (save rules only judge; forms/save-rules.ts): business areas (decision 022) register here, the
 * engine never imports them.
 *
 * - A field cleaner rewrites a value on its way in, on every path (edit form, API, imports, actions),
 *   after the field checks and before the save rules and the store: stored HTML is sanitised this
 *   way (app/areas/documents), so no path stores what another would have refused.
 * - A write step runs inside the record's own transaction, after the record and its audit row (as the
 *   METRC outbox's step does): a document's version is written this way, so a record and its version
 *   commit together or not at all.
 */
import type { Queryable } from '../db/driver.server'
import type { Actor, Doc } from '../db/types'
import type { FieldDef } from '../schemas/table-schema'

/** Which fields a cleaner takes: by the table and the field's definition. */
export type FieldMatch = (collection: string, field: FieldDef) => boolean
/** The value as it will be stored; throw an AppError BAD_INPUT to refuse it. */
export type FieldCleaner = (value: unknown, field: FieldDef, collection: string) => unknown

export interface WriteStepContext {
  org: string
  collection: string
  actor: Actor
  saved: Doc
  /** the record before this write; null for a create */
  before: Doc | null
}
export type WriteStep = (tx: Queryable, ctx: WriteStepContext) => Promise<unknown>

const CLEANERS: Array<{ name: string; match: FieldMatch; clean: FieldCleaner }> = []
const STEPS = new Map<string, Map<string, WriteStep>>()

/** Registers a cleaner under a name (registering the name again replaces it: installs are idempotent). */
export function registerFieldCleaner(name: string, match: FieldMatch, clean: FieldCleaner): void {
  const i = CLEANERS.findIndex((c) => c.name === name)
  if (i >= 0) CLEANERS.splice(i, 1)
  CLEANERS.push({ name, match, clean })
}

/** Registers a step for writes (create and update) of one table, under a name. */
export function registerWriteStep(collection: string, name: string, step: WriteStep): void {
  let m = STEPS.get(collection)
  if (!m) STEPS.set(collection, (m = new Map()))
  m.set(name, step)
}

/** The values with every matching cleaner applied to the fields they hold (keys not given stay absent). */
export function cleanFields(collection: string, fields: FieldDef[], value: Record<string, unknown>): Record<string, unknown> {
  if (!CLEANERS.length) return value
  const out = { ...value }
  for (const f of fields) {
    if (!(f.key in out) || out[f.key] === undefined || out[f.key] === null) continue
    for (const c of CLEANERS) if (c.match(collection, f)) out[f.key] = c.clean(out[f.key], f, collection)
  }
  return out
}

export const hasWriteSteps = (collection: string): boolean => (STEPS.get(collection)?.size ?? 0) > 0

/** The registered steps of a table as one, in registration order; undefined when there are none. */
export function writeSteps(org: string, collection: string, actor: Actor): ((tx: Queryable, saved: Doc, before: Doc | null) => Promise<void>) | undefined {
  const steps = STEPS.get(collection)
  if (!steps?.size) return undefined
  return async (tx, saved, before) => {
    for (const step of steps.values()) await step(tx, { org, collection, actor, saved, before })
  }
}
