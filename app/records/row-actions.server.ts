/**
 * Row actions (decision 038): work on the rows a person selected on a table screen ("move these 40
 * plants to Flower Room 2"), as one transaction. A table's schema declares which actions its rows
 * offer (TableSchema.actions: key, label, how many rows); an area registers what each one does:
 *
 *   ask       the fields the confirm page asks for (a room, a weight per row, package lines…)
 *   describe  what will change, in words, for exactly these rows and this input
 *   run       the work, inside the action's transaction, through ActionWork: update / insert many
 *             rows set-based (the table's save rules on each, audit rows, the METRC pushes its
 *             planners call for, all in one statement per 1,000 rows) and queue pushes of its own
 *
 * runRowAction locks the selected rows, refuses when any changed since the confirm page was drawn
 * (the `stamp`: the newest ts it saw; a conflict names who changed what), checks each row's own
 * rights, runs the work and commits: records, audit rows and outbox items, or nothing at all.
 * The engine never imports an area: areas call registerRowAction from their install().
 */
import type { SessionUser } from '../auth/entitlements'
import type { Queryable } from '../db/driver.server'
import type { Store } from '../db/store.server'
import type { Actor, Doc } from '../db/types'
import { runSaveRules } from '../forms/save-rules'
import { enqueuePushes, isLinked, type PushItem } from '../metrc/outbox/enqueue.server'
import { planPushes, pushesFromTable, recordReader } from '../metrc/outbox/pushes.server'
import { AppError, badInput, conflict, forbidden } from '../utils/errors'
import { BULK_EDIT, bulkEditOf } from './bulk-edit.server'

/** One thing the confirm page asks for. */
export interface AskField {
  key: string
  label: string
  kind: 'text' | 'number' | 'date' | 'select' | 'textarea' | 'weights' | 'lines'
  options?: Array<{ value: string; label: string }>
  required?: boolean
  /** the value the field starts with */
  value?: string
  /** a select's empty choice, kept even when a value is set (bulk edit: 'Leave unchanged') */
  blank?: string
  help?: string
  /** a tag field an RFID scan fills (kiosk: scan-first) */
  scan?: boolean
  /** weights: one weight per selected row (name `{key}.{rowId}`), the unit as `{key}.unit`; a scale may fill them */
  units?: string[]
  scale?: { screen: string; field: string }
  /** lines: several rows of sub-fields (names `{key}.{i}.{column}`), blank lines ignored */
  columns?: Array<{ key: string; label: string; kind: 'text' | 'number' | 'select'; options?: Array<{ value: string; label: string }>; scan?: boolean }>
  lines?: number
}

/** What the person typed on the confirm page. */
export interface ActionInput {
  get(key: string): string
  getAll(key: string): string[]
}

export interface ActionContext {
  org: string
  facility: string
  user: SessionUser
  actor: Actor
  timeZone: string
  store: Store
  /** a referenced record of the organisation (a room, a strain), read once */
  record(collection: string, id: unknown): Promise<Record<string, unknown> | null>
}

export interface ActionWork extends ActionContext {
  tx: Queryable
  /**
   * many rows changed at once: save rules on each, audit rows, the table's METRC pushes; the rows as stored.
   * `pushes: false` when the action queues what METRC hears itself (a split takes the quantity off its
   * source as METRC's own create does: no adjustment of it; an adjustment carries the reason asked for)
   */
  update(collection: string, changes: Array<{ before: Doc; patch: Record<string, unknown> }>, opts?: { pushes?: boolean }): Promise<Doc[]>
  /** many rows inserted at once: save rules on each, audit rows, the table's METRC pushes */
  insert(collection: string, docs: Array<Record<string, unknown>>): Promise<Doc[]>
  /** pushes of the action's own (a batch's growth phase for N new plants), after what is queued so far */
  queue(items: PushItem[]): Promise<void>
}

export interface RowActionDef {
  /** a row's name in messages ("plant 1A4…0001") */
  rowLabel?(row: Doc): string
  /** `input`: what the person typed so far (a preview shows the page again with it) */
  ask?(c: ActionContext, rows: Doc[], input?: ActionInput): Promise<AskField[]> | AskField[]
  /** the confirm page offers Preview: `describe` with what was typed, nothing saved */
  preview?: boolean
  describe(c: ActionContext, rows: Doc[], input: ActionInput): Promise<string[]> | string[]
  /** the work; its answer is the message shown after it ("40 plants moved to Flower Room 2") */
  run(w: ActionWork, rows: Doc[], input: ActionInput): Promise<string>
}

const ACTIONS = new Map<string, RowActionDef>()

/** An area's work for a row action its table's schema declares (decision 038). */
export function registerRowAction(collection: string, key: string, def: RowActionDef): void {
  ACTIONS.set(`${collection}/${key}`, def)
}

/** An area's action, or bulk edit, which every editable table offers without declaring it. */
export const rowActionOf = (collection: string, key: string): RowActionDef | undefined => ACTIONS.get(`${collection}/${key}`) ?? (key === BULK_EDIT.key ? bulkEditOf(collection) : undefined)

/** Most rows one action takes (a selection past it is refused with a clear message). */
export const MAX_ACTION_ROWS = 20_000

export function actionContext(store: Store, org: string, facility: string, user: SessionUser, actor: Actor, timeZone: string, q: Queryable = store.db): ActionContext {
  return { org, facility, user, actor, timeZone, store, record: recordReader(q, org) }
}

/** The rows as they are now, for the confirm page (no lock). */
export async function readRows(store: Store, org: string, collection: string, ids: string[]): Promise<Doc[]> {
  return store.lockRows(store.db, org, collection, ids).catch(async () => [])
}

/** The newest ts among rows: what the confirm page saw. */
export const stampOf = (rows: Doc[]) => rows.reduce((m, r) => (r.ts > m ? r.ts : m), '')

export interface RunOptions {
  collection: string
  key: string
  ids: string[]
  /** the newest ts the confirm page saw */
  stamp: string
  input: ActionInput
  /** may this user change this row (SPEC §6)? */
  canEdit(row: Doc): boolean
}

/** Runs a row action in one transaction; returns its message. Throws BAD_INPUT, FORBIDDEN or CONFLICT and changes nothing. */
export async function runRowAction(c: ActionContext, o: RunOptions): Promise<string> {
  const def = rowActionOf(o.collection, o.key)
  if (!def) throw badInput('This table has no such action.')
  if (!o.ids.length) throw badInput('Select at least one row first.')
  if (o.ids.length > MAX_ACTION_ROWS) throw badInput(`One action takes at most ${MAX_ACTION_ROWS} rows; narrow the view.`)
  const touched = new Map<string, 'insert' | 'update'>()
  const message = await c.store.db.transaction(async (tx) => {
    const rows = await c.store.lockRows(tx, c.org, o.collection, o.ids)
    const stale = rows.filter((r) => o.stamp && r.ts > o.stamp)
    if (rows.length !== new Set(o.ids).size || stale.length) throw conflict(await whatChanged(tx, c, o, def, rows, stale), { changed: stale.map((r) => r._id) })
    const locked = rows.filter((r) => !o.canEdit(r))
    if (locked.length) throw forbidden(`${locked.length} of the selected rows are locked against changes (ed = no): ${locked.slice(0, 5).map((r) => labelOf(def, r)).join(', ')}. Nothing was changed.`)
    const work = actionWork(c, tx, touched)
    return def.run(work, rows, o.input)
  })
  for (const [collection, action] of touched) c.store.changed(c.actor, c.org, collection, action)
  return message
}

const labelOf = (def: RowActionDef, r: Doc) => def.rowLabel?.(r) ?? r._id

/** "3 of the 40 rows changed since you opened this page: …" — who changed which fields, from the audit log. */
async function whatChanged(tx: Queryable, c: ActionContext, o: RunOptions, def: RowActionDef, rows: Doc[], stale: Doc[]): Promise<string> {
  const gone = new Set(o.ids).size - rows.length
  const parts: string[] = []
  if (gone > 0) parts.push(`${gone} of the selected rows no longer exist${gone === 1 ? 's' : ''}.`)
  if (stale.length) {
    const r = await tx.query<{ doc_id: string; uid: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }>(
      `SELECT DISTINCT ON (doc_id) doc_id, uid, before, after FROM audit_log WHERE org = $1 AND collection = $2 AND doc_id = ANY($3::text[]) ORDER BY doc_id, seq DESC`,
      [c.org, o.collection, stale.slice(0, 10).map((s) => s._id)],
    )
    const lines = r.rows.map((a) => {
      const row = stale.find((s) => s._id === a.doc_id)!
      const fields = Object.keys({ ...a.before, ...a.after }).filter((k) => !['ts', 'cts', 'octs', '_id'].includes(k) && JSON.stringify(a.before?.[k]) !== JSON.stringify(a.after?.[k]))
      return `${labelOf(def, row)} (${fields.join(', ') || 'changed'} by ${a.uid})`
    })
    parts.push(`${stale.length} of the ${rows.length} selected rows were changed by someone else since you opened this page: ${lines.join('; ')}${stale.length > 10 ? '; …' : ''}.`)
  }
  return `${parts.join(' ')} Nothing was changed. Review the page again and confirm.`
}

function actionWork(c: ActionContext, tx: Queryable, touched: Map<string, 'insert' | 'update'>): ActionWork {
  const record = recordReader(tx, c.org)
  let linked: boolean | undefined
  const pushes = async (collection: string, pairs: Array<{ before: Doc | null; after: Doc }>) => {
    if (!pushesFromTable(collection)) return
    linked ??= await isLinked(tx, c.org)
    if (!linked) return
    const items: PushItem[] = []
    for (const p of pairs) for (const x of await planPushes(collection, p.before, p.after, { org: c.org, timeZone: c.timeZone, record })) items.push({ ...x, source: { collection, id: p.after._id } })
    await enqueuePushes(tx, c.org, c.actor, items)
  }
  const rules = (collection: string, docs: Array<Record<string, unknown>>, mode: 'create' | 'update', name: (d: Record<string, unknown>, i: number) => string) => {
    const problems: string[] = []
    docs.forEach((d, i) => {
      const r = runSaveRules(collection, d, { mode })
      if (r.kind === 'error') problems.push(`${name(d, i)}: ${r.message}`)
    })
    if (problems.length) throw new AppError('BAD_INPUT', `${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}. Nothing was changed.`)
  }
  return {
    ...c,
    record,
    tx,
    async update(collection, changes, opts) {
      if (!changes.length) return []
      const next = changes.map(({ before, patch }) => {
        const { _id, cts: _c, ts: _t, _labels: _l, ...doc } = before as Doc & { _labels?: unknown }
        return { id: _id, doc: { ...doc, ...patch } }
      })
      rules(collection, next.map((n) => n.doc), 'update', (_d, i) => next[i].id)
      const saved = await c.store.updateRows(tx, c.actor, c.org, collection, next)
      const byId = new Map(changes.map((x) => [x.before._id, x.before]))
      if (opts?.pushes !== false) await pushes(collection, saved.map((after) => ({ before: byId.get(after._id) ?? null, after })))
      if (touched.get(collection) !== 'insert') touched.set(collection, 'update')
      return saved
    },
    async insert(collection, docs) {
      if (!docs.length) return []
      rules(collection, docs, 'create', (_d, i) => `row ${i + 1}`)
      const saved = await c.store.insertRows(tx, c.actor, c.org, collection, docs)
      await pushes(collection, saved.map((after) => ({ before: null, after })))
      touched.set(collection, 'insert')
      return saved
    },
    async queue(items) {
      linked ??= await isLinked(tx, c.org)
      if (linked && items.length) await enqueuePushes(tx, c.org, c.actor, items)
    },
  }
}

/** Form values as ActionInput (a plain form post or URL search). */
export function inputOf(form: FormData | URLSearchParams): ActionInput {
  return { get: (k) => String(form.get(k) ?? '').trim(), getAll: (k) => form.getAll(k).map((v) => String(v).trim()) }
}
