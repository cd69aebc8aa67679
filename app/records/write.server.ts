/**
 * The one write path for records (issue 7): the edit form's action and the JSON API both create,
 * update and delete through here, so a record gets the same checks whichever way it arrives:
 *
 *   table exists and is editable → the user's right to it (access.server.ts) → the row's own
 *   flags (SPEC §6 `ed`/`delete` = no bind everyone but super) → server keys dropped (`ts`, `octs`,
 *   `cts` unless admin/super) → the generic flags every table takes (IsUsed; ed/delete by admin and
 *   super; SPEC §3) → unknown keys refused → the compiled zod schema (record-schema.ts)
 *   → sub-table row ids → referenced ids exist in the organisation → the table's save rules
 *   (SPEC §5) on the record as it will be stored → the store (unchanged-since check, audit row,
 *   the METRC pushes the change calls for (app/metrc/outbox), the areas' write steps (a document's
 *   version) and change event in one transaction). Field cleaners (write-hooks.server.ts) rewrite
 *   a value after the field checks: stored HTML is sanitised there, whichever path it came by.
 *
 * Bad input is an AppError BAD_INPUT whose details list every problem as { field?, message }
 * (`field` in conform's naming: `rows[0].qty`), so the form shows them by field and the API
 * answers them in its envelope. Nothing is written unless every check passes.
 */
import type { AppLoadContext } from '@remix-run/node'
import { roleOf, type SessionUser } from '../auth/entitlements'
import type { Actor, Doc } from '../db/types'
import type { WriteOptions } from '../db/store.server'
import type { Queryable } from '../db/driver.server'
import { editableFields, genericFlags, isEditable, recordSchema, referenceFields, sentFlag, storedFlag, SYSTEM_KEYS, type RecordSchema } from '../forms/record-schema'
import type { TableSchema } from '../schemas/table-schema'
import { rowsToSave } from '../forms/row-ids'
import { checkSaveRules } from '../forms/save-rules'
import { PLATFORM_ORG, type RouteEntry } from '../route-map'
import { isPlatformCollection } from '../route-map'
import { timeZoneOf } from '../facilities/facts.server'
import { AppError, forbidden, notFound } from '../utils/errors'
import { outboxStep } from '../metrc/outbox/record-step.server'
import { withMetrcPickLists } from '../metrc/pick-lists.server'
import { tableAccess, type TableAccess } from './access.server'
import { afterCreate } from './after-create.server'
import { cleanFields, writeSteps } from './write-hooks.server'
import { issueMessage } from '../utils/zod-messages'

/** Who writes: the user (for rights), the actor (for the audit row) and the facility they work in. */
export interface Writer {
  user: SessionUser
  actor: Actor
  facility: string
}

export interface RecordWriteOptions {
  /** refuse when the stored record's ts differs (someone saved meanwhile): 409 */
  expectTs?: string
  /** the screen a form post came through (entitlement checked); without it the user's screens decide */
  via?: RouteEntry
  /** a partial update (API PUT): fields not given stay as stored */
  partial?: boolean
  /** a program's dates need not be on the picker's 5-minute step */
  anyMinute?: boolean
}

export interface Problem {
  field?: string
  message: string
}

/** The error for bad input: every problem, by field. */
export class InvalidRecord extends AppError {
  constructor(readonly problems: Problem[]) {
    super('BAD_INPUT', problems.map((p) => p.message).join('; ') || 'the record is not valid', { errors: problems })
  }
}

/** Bad-input problems of an error (an InvalidRecord, or a store error naming a field), else null. */
export function problemsOf(e: unknown): Problem[] | null {
  if (!(e instanceof Error) || (e as AppError).code !== 'BAD_INPUT') return null
  const d = (e as AppError).details as { errors?: Problem[]; field?: string } | undefined
  if (Array.isArray(d?.errors)) return d.errors
  return [{ message: e.message, ...(d?.field ? { field: d.field } : {}) }]
}

/** admin and super may set when a record was created (SPEC §3, §6). */
export const canEditCts = (user: SessionUser) => roleOf(user) === 'admin' || roleOf(user) === 'super'
/** admin and super may set the row locks ed and delete (SPEC §3, §6). */
export const canLockRows = canEditCts

/** A zod issue path as conform names a field: ['rows', 0, 'qty'] → rows[0].qty */
export function fieldName(path: Array<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('')
}

/** Equal as JSON values, whatever the order of object keys. */
function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => (Array.isArray(v) ? v.map(norm) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, x]) => [k, norm(x)])) : v)
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b))
}

const sameInstant = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && new Date(a).getTime() === new Date(b).getTime()

/**
 * The values without the keys the server owns: `ts` and `octs` always (SPEC §7: a PUT's cts and ts
 * are not the client's to set), `_id` when it names this record, and `cts` unless the user may set
 * it and it differs from the stored one (a round-tripped record is not an edit of cts).
 */
function withoutServerKeys(values: Record<string, unknown>, user: SessionUser, id: string | null, row: Doc | null): Record<string, unknown> {
  const out = { ...values }
  delete out.ts
  delete out.octs
  if (id !== null && out._id === id) delete out._id
  if ('cts' in out && (!canEditCts(user) || (row && sameInstant(out.cts, row.cts)))) delete out.cts
  return out
}

/** What checking a record's values needs from the database: the schema with its METRC pick lists, the facility's zone; `compiled` when shared by many new records. */
interface Prepared {
  schema: TableSchema
  timeZone: string
  compiled?: RecordSchema
}

async function prepare(context: AppLoadContext, w: Writer, access: TableAccess, row: Doc | null): Promise<Prepared> {
  // the editable Metrc tables pick from the facility's METRC values (item categories, units, waste methods…)
  return { schema: await withMetrcPickLists(context.database, w.facility, access.schema, row), timeZone: await timeZoneOf(context, w.facility) }
}

const compileFor = (p: Prepared, w: Writer, id: string | null, row: Doc | null, opts: RecordWriteOptions, only?: Set<string>) =>
  recordSchema(p.schema, { mode: id ? 'update' : 'create', canEditCts: canEditCts(w.user), canLockRows: canLockRows(w.user), timeZone: p.timeZone, anyMinute: opts.anyMinute, stored: row ?? undefined, ...(only ? { only } : {}) })

async function checkValues(context: AppLoadContext, w: Writer, access: TableAccess, id: string | null, row: Doc | null, input: unknown, opts: RecordWriteOptions): Promise<Record<string, unknown>> {
  const value = shapeValues(await prepare(context, w, access, row), w, id, row, input, opts)
  await checkReferences(context, w.facility, access, value)
  return value
}

/** The field checks of checkValues, without the database: server keys, unknown keys, the compiled schema, cleaners, sub-row ids. */
function shapeValues(p: Prepared, w: Writer, id: string | null, row: Doc | null, input: unknown, opts: RecordWriteOptions): Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new InvalidRecord([{ message: 'the record must be a JSON object of field values' }])
  const values = withoutServerKeys(input as Record<string, unknown>, w.user, id, row)
  const schema = p.schema
  // a record read and sent back whole (GET, change a field, PUT) repeats its read-only fields and
  // any keys its schema does not list: unchanged, they are not an edit of them
  if (row) {
    for (const k of Object.keys(values)) {
      const f = schema.fields.find((x) => x.key === k)
      if ((!f || !isEditable(f)) && !(SYSTEM_KEYS as readonly string[]).includes(k) && sameValue(values[k], row[k])) delete values[k]
    }
  }
  // the generic flags (SPEC §3: IsUsed, ed, delete) every table takes: a value that says what is
  // stored already (absent counts as yes) is no change, so a form or a round trip never writes one
  const flags = genericFlags(schema)
  for (const k of flags) if (k in values && sentFlag(values[k]) === storedFlag(row?.[k])) delete values[k]
  const known = new Set<string>([...schema.fields.map((f) => f.key), ...flags, ...SYSTEM_KEYS])
  const unknown = Object.keys(values).filter((k) => !known.has(k))
  if (unknown.length) throw new InvalidRecord(unknown.slice(0, 20).map((k) => ({ field: k.slice(0, 64), message: `${k.slice(0, 64)}: this table has no such field` })))
  const compiled = p.compiled ?? compileFor(p, w, id, row, opts, opts.partial ? new Set(Object.keys(values)) : undefined)
  const parsed = compiled.safeParse(values)
  if (!parsed.success) throw new InvalidRecord(parsed.error.issues.map((i) => ({ ...(i.path.length ? { field: fieldName(i.path) } : {}), message: issueMessage(i) })))
  // the areas' field cleaners (write-hooks.server.ts: stored HTML is sanitised) on what was given
  const value = cleanFields(schema.key, schema.fields, parsed.data as Record<string, unknown>)
  for (const k of Object.keys(value)) if (value[k] === undefined) delete value[k]
  // every stored sub-table row has an id; an edited row keeps the columns that were not sent
  for (const f of editableFields(schema)) {
    if (f.type === 'array' && Array.isArray(value[f.key])) value[f.key] = rowsToSave(value[f.key] as Array<Record<string, unknown>>, row?.[f.key])
  }
  return value
}

/** Where a reference field's ids are: the field itself, or the column in each row of its sub-table (one level, as the form edits). */
function referencePlaces(value: Record<string, unknown>, key: string, within?: string): Array<{ name: string; ids: string[] }> {
  const idsOf = (v: unknown) => (Array.isArray(v) ? v : v ? [v] : []).map(String)
  if (!within) return key in value ? [{ name: key, ids: idsOf(value[key]) }] : []
  const rows = within.includes('.') ? [] : value[within]
  return Array.isArray(rows) ? rows.map((r, i) => ({ name: `${within}[${i}].${key}`, ids: idsOf((r as Record<string, unknown>)?.[key]) })) : []
}

/** Referenced ids must be records of this organisation (or of the platform, for platform tables); one lookup per field (per 5,000 ids) for all of `values`. The problems of each value. */
async function referenceProblems(context: AppLoadContext, facility: string, access: TableAccess, values: Array<Record<string, unknown>>): Promise<Problem[][]> {
  const out = values.map((): Problem[] => [])
  for (const ref of referenceFields(access.schema)) {
    const places = values.map((v) => referencePlaces(v, ref.key, ref.within))
    const ids = [...new Set(places.flatMap((ps) => ps.flatMap((p) => p.ids)))]
    if (!ids.length) continue
    const found = new Map<string, string>()
    if (await context.database.schemas.hasCollection(ref.table)) {
      for (let i = 0; i < ids.length; i += 5000) for (const [k, v] of await context.database.store.labelsOf(isPlatformCollection(ref.table) ? PLATFORM_ORG : facility, ref.table, ref.labelField, ids.slice(i, i + 5000))) found.set(k, v)
    }
    places.forEach((ps, i) => {
      for (const p of ps) if (p.ids.some((x) => !found.has(x))) out[i].push({ field: p.name, message: `${ref.label}: choose one of the listed records.` })
    })
  }
  return out
}

async function checkReferences(context: AppLoadContext, facility: string, access: TableAccess, value: Record<string, unknown>): Promise<void> {
  const [problems] = await referenceProblems(context, facility, access, [value])
  if (problems.length) throw new InvalidRecord(problems)
}

/** The table's save rules on the record as it will be stored; any error refuses the save (all of them reported), a stop saves nothing. */
function saveRules(collection: string, record: Record<string, unknown>, mode: 'create' | 'update'): 'continue' | 'stop' {
  const { errors, stop } = checkSaveRules(collection, record, { mode })
  if (errors.length) throw new InvalidRecord(errors.map((e) => ({ message: e.message })))
  return stop ? 'stop' : 'continue'
}

async function writable(context: AppLoadContext, w: Writer, collection: string, via?: RouteEntry): Promise<TableAccess> {
  const access = await tableAccess(context, w.user, w.facility, collection, via)
  if (!access.editable) throw forbidden('This table is read-only.')
  return access
}

/** Is `user` held back by this row's flags? Super never is (SPEC §6). */
const locked = (user: SessionUser, row: Doc, flag: 'ed' | 'delete') => roleOf(user) !== 'super' && String(row[flag] ?? '').toLowerCase() === 'no'

export type WriteResult = { doc: Doc; stopped?: false } | { doc: null; stopped: true }

/** The outbox's step and the areas' write steps as the one `also` of a store write. */
async function stepsOf(context: AppLoadContext, w: Writer, org: string, collection: string): Promise<WriteOptions['also']> {
  const outbox = await outboxStep(org, w.actor, collection, () => timeZoneOf(context, w.facility))
  const areas = writeSteps(org, collection, w.actor)
  if (!outbox || !areas) return outbox ?? areas
  return async (tx, saved, before) => {
    await outbox(tx, saved, before)
    await areas(tx, saved, before)
  }
}

/** Creates a record; returns it as stored. A save rule's stop saves nothing. */
export async function createRecord(context: AppLoadContext, w: Writer, collection: string, input: unknown, opts: RecordWriteOptions = {}): Promise<WriteResult> {
  const access = await writable(context, w, collection, opts.via)
  const value = await checkValues(context, w, access, null, null, input, opts)
  if (saveRules(collection, value, 'create') === 'stop') return { doc: null, stopped: true }
  const also = await stepsOf(context, w, access.org, collection)
  const doc = await context.database.store.insert(w.actor, access.org, collection, value, { allowCts: canEditCts(w.user), also })
  await afterCreate(context, w, collection, doc)
  return { doc }
}

/** Updates a record (a partial update with `partial`); returns it as stored. */
export async function updateRecord(context: AppLoadContext, w: Writer, collection: string, id: string, input: unknown, opts: RecordWriteOptions = {}): Promise<WriteResult> {
  const access = await writable(context, w, collection, opts.via)
  const row = await context.database.store.get(access.org, collection, id)
  if (!row) throw notFound('That record no longer exists. It may have been deleted.')
  if (locked(w.user, row, 'ed')) throw forbidden('This record is locked against changes (ed = no). Ask an administrator.')
  const value = await checkValues(context, w, access, id, row, input, opts)
  if (saveRules(collection, { ...row, ...value }, 'update') === 'stop') return { doc: null, stopped: true }
  const also = await stepsOf(context, w, access.org, collection)
  const doc = await context.database.store.update(w.actor, access.org, collection, id, value, { expectTs: opts.expectTs || undefined, allowCts: canEditCts(w.user), also })
  return { doc }
}

/** One row of a batch of new records (a CSV import): its value as it will be stored, or what refuses it. */
export type CheckedRow = { ok: true; value: Record<string, unknown> } | { ok: false; problems: Problem[] }

/**
 * Checks new records exactly as createRecord does (the table's rights once; each row's fields,
 * referenced ids and save rules) and writes nothing: a row is good or has its problems, by field.
 * A save rule's stop (the form saves nothing, silently) is a problem here: that row would not be created.
 */
export async function checkCreates(context: AppLoadContext, w: Writer, collection: string, inputs: unknown[], opts: RecordWriteOptions = {}): Promise<CheckedRow[]> {
  const access = await writable(context, w, collection, opts.via)
  // what every new record shares is read and compiled once: the schema, the zone, the zod schema
  const p = await prepare(context, w, access, null)
  const shared = { ...p, compiled: compileFor(p, w, null, null, opts) }
  const out: CheckedRow[] = inputs.map((input) => {
    try {
      return { ok: true as const, value: shapeValues(shared, w, null, null, input, opts) }
    } catch (e) {
      const problems = problemsOf(e)
      if (!problems) throw e
      return { ok: false as const, problems }
    }
  })
  const shaped = out.flatMap((r, i) => (r.ok ? [i] : []))
  const refs = await referenceProblems(context, w.facility, access, shaped.map((i) => (out[i] as { value: Record<string, unknown> }).value))
  shaped.forEach((i, k) => {
    const r = out[i]
    if (!r.ok) return
    if (refs[k].length) return void (out[i] = { ok: false, problems: refs[k] })
    const { errors, stop } = checkSaveRules(collection, r.value, { mode: 'create' })
    if (errors.length) out[i] = { ok: false, problems: errors.map((e) => ({ message: e.message })) }
    else if (stop) out[i] = { ok: false, problems: [{ message: 'The table\'s save rules do not save this record.' }] }
  })
  return out
}

/**
 * Creates records checkCreates passed, all in one transaction: each gets its audit row and the
 * write steps a single create runs (METRC pushes, the areas' steps); `also` adds the caller's own
 * work (the import's record). When anything fails nothing is written. Returns them as stored.
 */
export async function createChecked(context: AppLoadContext, w: Writer, collection: string, values: Array<Record<string, unknown>>, opts: Pick<RecordWriteOptions, 'via'> & { also?: (tx: Queryable, docs: Doc[]) => Promise<void> } = {}): Promise<Doc[]> {
  const access = await writable(context, w, collection, opts.via)
  const steps = await stepsOf(context, w, access.org, collection)
  const store = context.database.store
  const docs = await store.db.transaction(async (tx) => {
    // set-based (one statement and its audit rows per 1,000), then each record's steps as a single insert runs them
    const out = await store.insertRows(tx, w.actor, access.org, collection, values)
    if (steps) for (const d of out) await steps(tx, d, null)
    await opts.also?.(tx, out)
    return out
  })
  if (docs.length) store.changed(w.actor, access.org, collection, 'insert')
  for (const d of docs) await afterCreate(context, w, collection, d)
  return docs
}

/**
 * An update of one record and a new record, in one transaction (the calendar's "only this day"
 * move: the series gets the day as an exception, a standalone task takes its place). Both are
 * checked first exactly as updateRecord and createRecord check them; then the update (its
 * unchanged-since check, audit row and steps) and the insert (audit row and steps) commit
 * together: when any part fails, or a save rule stops either, nothing is written.
 */
export async function updateAndCreate(
  context: AppLoadContext,
  w: Writer,
  collection: string,
  id: string,
  patch: unknown,
  input: unknown,
  opts: RecordWriteOptions = {},
): Promise<{ updated: Doc; created: Doc } | { updated: null; created: null; stopped: true }> {
  const access = await writable(context, w, collection, opts.via)
  const row = await context.database.store.get(access.org, collection, id)
  if (!row) throw notFound('That record no longer exists. It may have been deleted.')
  if (locked(w.user, row, 'ed')) throw forbidden('This record is locked against changes (ed = no). Ask an administrator.')
  const change = await checkValues(context, w, access, id, row, patch, opts)
  const value = await checkValues(context, w, access, null, null, input, { ...opts, partial: false, expectTs: undefined })
  if (saveRules(collection, { ...row, ...change }, 'update') === 'stop' || saveRules(collection, value, 'create') === 'stop') return { updated: null, created: null, stopped: true }
  const also = await stepsOf(context, w, access.org, collection)
  let created: Doc | null = null
  const updated = await context.database.store.update(w.actor, access.org, collection, id, change, {
    expectTs: opts.expectTs || undefined,
    allowCts: canEditCts(w.user),
    also: async (tx, saved, before) => {
      await also?.(tx, saved, before)
      created = await context.database.store.insertIn(tx, w.actor, access.org, collection, value, { also })
    },
  })
  const doc = created as unknown as Doc
  context.database.store.emit({ org: access.org, collection, id: doc._id, action: 'insert', uid: w.actor.uid, session: w.actor.session })
  await afterCreate(context, w, collection, doc)
  return { updated, created: doc }
}

/** Deletes a record; returns it as it was. */
export async function deleteRecord(context: AppLoadContext, w: Writer, collection: string, id: string, opts: Pick<RecordWriteOptions, 'expectTs' | 'via'> = {}): Promise<Doc> {
  const access = await tableAccess(context, w.user, w.facility, collection, opts.via)
  const row = await context.database.store.get(access.org, collection, id)
  if (!row) throw notFound('That record no longer exists. It may have been deleted already.')
  if (!access.editable) throw forbidden('This table is read-only: its records cannot be deleted here.')
  if (locked(w.user, row, 'delete')) throw forbidden('This record is protected against deletion (delete = no). Ask an administrator.')
  return context.database.store.remove(w.actor, access.org, collection, id, opts.expectTs ? { expectTs: opts.expectTs } : {})
}
