/**
 * Several records written in one transaction (cart → order, fulfil, ship, a payment): each write
 * is audited in that transaction (db/store.server.ts `audit`), and the change events go out only
 * once it has committed. A throw anywhere rolls every write back, files included (`onRollback`).
 */
import type { Queryable } from '../../db/driver.server'
import type { Database } from '../../db/index.server'
import { tableOf } from '../../db/sql'
import { audit } from '../../db/store.server'
import type { Actor, ChangeEvent, Doc } from '../../db/types'
import { conflict, notFound } from '../../utils/errors'

type Row = { id: string; doc: Record<string, unknown>; cts: Date | string; ts: Date | string }
const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString()
const toDoc = (r: Row): Doc => ({ ...r.doc, _id: r.id, cts: iso(r.cts), ts: iso(r.ts) }) as Doc
/** a document without its row fields (_id, cts, ts) */
export const body = (d: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(d).filter(([k]) => k !== '_id' && k !== 'cts' && k !== 'ts'))

export class Work {
  readonly changes: ChangeEvent[] = []
  readonly undo: Array<() => Promise<unknown>> = []
  constructor(
    readonly tx: Queryable,
    readonly actor: Actor,
    readonly org: string,
  ) {}

  async get(collection: string, id: string, lock = false): Promise<Doc | null> {
    const r = await this.tx.query<Row>(`SELECT id, doc, cts, ts FROM ${tableOf(collection)} WHERE org = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [this.org, id])
    return r.rows[0] ? toDoc(r.rows[0]) : null
  }

  async must(collection: string, id: string, lock = false, what = 'record'): Promise<Doc> {
    const d = await this.get(collection, id, lock)
    if (!d) throw notFound(`There is no ${what} ${id}.`)
    return d
  }

  async insert(collection: string, id: string, doc: Record<string, unknown>): Promise<Doc> {
    const r = await this.tx
      .query<Row>(`INSERT INTO ${tableOf(collection)} (org, id, doc, cts, ts) VALUES ($1, $2, $3, now(), now()) RETURNING id, doc, cts, ts`, [this.org, id, body(doc)])
      .catch((e) => {
        if ((e as { code?: string }).code === '23505') throw conflict(`a record with id ${id} already exists`)
        throw e
      })
    const saved = toDoc(r.rows[0])
    await audit(this.tx, this.actor, this.org, collection, id, 'insert', null, saved)
    this.changes.push({ org: this.org, collection, id, action: 'insert', uid: this.actor.uid, session: this.actor.session })
    return saved
  }

  /** Writes `next` over `before` (a merge of fields); `where` adds a condition the row must still meet. */
  async update(collection: string, before: Doc, patch: Record<string, unknown>, where?: { sql: string; params: unknown[] }): Promise<Doc> {
    const next = { ...body(before), ...patch }
    const params: unknown[] = [this.org, before._id, next, ...(where?.params ?? [])]
    const r = await this.tx.query<Row>(
      `UPDATE ${tableOf(collection)} SET doc = $3, ts = greatest(now(), ts + interval '1 millisecond') WHERE org = $1 AND id = $2${where ? ` AND (${where.sql})` : ''} RETURNING id, doc, cts, ts`,
      params,
    )
    if (!r.rows[0]) throw conflict(`${collection} ${before._id} changed while it was being written; nothing was saved.`)
    const saved = toDoc(r.rows[0])
    await audit(this.tx, this.actor, this.org, collection, before._id, 'update', before, saved)
    this.changes.push({ org: this.org, collection, id: before._id, action: 'update', uid: this.actor.uid, session: this.actor.session })
    return saved
  }

  async remove(collection: string, before: Doc): Promise<void> {
    await this.tx.query(`DELETE FROM ${tableOf(collection)} WHERE org = $1 AND id = $2`, [this.org, before._id])
    await audit(this.tx, this.actor, this.org, collection, before._id, 'delete', before, null)
    this.changes.push({ org: this.org, collection, id: before._id, action: 'delete', uid: this.actor.uid, session: this.actor.session })
  }

  /** The next number of a facility's sequence (migration 025); given back if the transaction rolls back. */
  async next(kind: string): Promise<number> {
    const r = await this.tx.query<{ last: string | number }>(
      `INSERT INTO doc_sequences (org, kind, last) VALUES ($1, $2, 1) ON CONFLICT (org, kind) DO UPDATE SET last = doc_sequences.last + 1 RETURNING last`,
      [this.org, kind],
    )
    return Number(r.rows[0].last)
  }
}

/** Runs `fn` in one transaction; the change events after the commit, the undo steps after a rollback. */
export async function inWork<T>(database: Database, actor: Actor, org: string, fn: (w: Work) => Promise<T>): Promise<T> {
  let work: Work | undefined
  try {
    const out = await database.db.transaction(async (tx) => {
      work = new Work(tx, actor, org)
      return fn(work)
    })
    for (const c of work!.changes) database.store.events.emit('change', c)
    return out
  } catch (e) {
    for (const u of work?.undo ?? []) await u().catch(() => {})
    throw e
  }
}
