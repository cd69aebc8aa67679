/**
 * Document collections: get, find, insert, update, upsert, delete and the one `page` query.
 * Every call names its organisation; every write appends an audit row in the same
 * transaction and, once committed, emits a change event.
 */
import { EventEmitter } from 'node:events'
import type { TableSchema } from '../schemas/table-schema'
import { withComputed } from '../schemas/computed'
import { isAppError, badInput, conflict, notFound } from '../utils/errors'
import { newId } from '../utils/ids'
import type { Db, Queryable } from './driver.server'
import { pagePlan, segmentParams, type PagePlan } from './page-sql'
import { isFieldKey, keyLit, kindOf, tableOf } from './sql'
import type { Actor, ChangeEvent, Cursor, Doc, Page, PageQuery } from './types'
import type { SchemaRegistry } from './schema-registry.server'

type Row = { id: string; doc: Record<string, unknown>; cts: Date | string; ts: Date | string }
type PageRow = Row & { sort_k: string | null; labels?: Record<string, string | null> }

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString()

function toDoc(r: Row): Doc {
  return { ...r.doc, _id: r.id, cts: iso(r.cts), ts: iso(r.ts) } as Doc
}

const RESERVED = new Set(['_id', 'cts', 'ts'])

/** Dates in date fields become ISO-8601 UTC strings so they sort and compare as time. */
export function normalizeFields(schema: TableSchema | undefined, doc: Record<string, unknown>): Record<string, unknown> {
  if (!schema) return doc
  const out = { ...doc }
  for (const f of schema.fields) {
    const v = out[f.key]
    if (v === undefined || v === null || v === '') continue
    if (kindOf(f, f.key) === 'date' && (typeof v === 'string' || typeof v === 'number')) {
      const d = new Date(v)
      if (Number.isNaN(d.getTime())) throw badInput(`${f.label}: "${String(v).slice(0, 40)}" is not a date`, { field: f.key })
      out[f.key] = d.toISOString()
    }
  }
  return out
}

export interface WriteOptions {
  /** refuse the update if the stored ts differs (someone else saved meanwhile) */
  expectTs?: string
  /** admin/super may set cts */
  allowCts?: boolean
  /** replace the whole document instead of merging fields */
  replace?: boolean
  /**
   * More work in the write's own transaction, after the record and its audit row (the METRC
   * outbox): it sees the record as stored and as it was; when it throws, nothing is written.
   */
  also?: (tx: Queryable, saved: Doc, before: Doc | null) => Promise<unknown>
}

export class Store {
  readonly events = new EventEmitter()

  constructor(
    readonly db: Db,
    readonly schemas: SchemaRegistry,
  ) {
    this.events.setMaxListeners(0)
  }

  private async table(collection: string, q: Queryable = this.db): Promise<string> {
    const t = tableOf(collection)
    if (!(await this.schemas.hasCollection(collection, q))) throw notFound(`unknown table "${collection}"`)
    return t
  }

  async get(org: string, collection: string, id: string, q: Queryable = this.db): Promise<Doc | null> {
    const t = await this.table(collection)
    const r = await q.query<Row>(`SELECT id, doc, cts, ts FROM ${t} WHERE org = $1 AND id = $2`, [org, id])
    return r.rows[0] ? toDoc(r.rows[0]) : null
  }

  /** Equality filters on top-level fields (API `?field=value`), newest first; `offset` rows skipped. */
  async find(org: string, collection: string, where: Record<string, string> = {}, limit = 1000, offset = 0): Promise<Doc[]> {
    const t = await this.table(collection)
    const { conds, params } = equalities(org, where)
    params.push(Math.min(Math.max(1, limit), 10000), Math.max(0, Math.floor(offset)))
    const r = await this.db.query<Row>(`SELECT id, doc, cts, ts FROM ${t} WHERE ${conds.join(' AND ')} ORDER BY cts DESC, id LIMIT $${params.length - 1} OFFSET $${params.length}`, params)
    return r.rows.map(toDoc)
  }

  /** `find` inside a transaction the caller holds (row actions). */
  async findIn(q: Queryable, org: string, collection: string, where: Record<string, string>, limit = 1000): Promise<Doc[]> {
    const t = await this.table(collection, q)
    const { conds, params } = equalities(org, where)
    params.push(Math.min(Math.max(1, limit), 10000))
    const r = await q.query<Row>(`SELECT id, doc, cts, ts FROM ${t} WHERE ${conds.join(' AND ')} ORDER BY cts DESC, id LIMIT $${params.length}`, params)
    return r.rows.map(toDoc)
  }

  /** How many records match the equality filters (all of the organisation's without any). */
  async count(org: string, collection: string, where: Record<string, string> = {}): Promise<number> {
    const t = await this.table(collection)
    const { conds, params } = equalities(org, where)
    const r = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} WHERE ${conds.join(' AND ')}`, params)
    return r.rows[0].n
  }

  async insert(actor: Actor, org: string, collection: string, input: Record<string, unknown>, opts: WriteOptions & { id?: string } = {}): Promise<Doc> {
    const t = await this.table(collection)
    const schema = await this.schemas.get(collection)
    const body = withComputed(schema, normalizeFields(schema, stripReserved(input)), null)
    const id = opts.id ?? (typeof input._id === 'string' && input._id ? input._id : newId())
    const cts = opts.allowCts && input.cts ? parseTs(input.cts) : new Date()
    const doc = await this.db.transaction((tx) => insertOne(tx, actor, org, t, collection, id, body, cts, opts))
    this.emit({ org, collection, id, action: 'insert', uid: actor.uid, session: actor.session })
    return doc
  }

  /**
   * `insert` inside a transaction the caller holds (a write of more than one record, e.g. the
   * calendar's one-day move): the record, its audit row and `also`; the caller emits the change
   * event after commit (`emit`).
   */
  async insertIn(tx: Queryable, actor: Actor, org: string, collection: string, input: Record<string, unknown>, opts: WriteOptions = {}): Promise<Doc> {
    const t = await this.table(collection, tx)
    const schema = await this.schemas.get(collection, tx)
    const body = withComputed(schema, normalizeFields(schema, stripReserved(input)), null)
    const id = typeof input._id === 'string' && input._id ? input._id : newId()
    return insertOne(tx, actor, org, t, collection, id, body, new Date(), opts)
  }

  async update(actor: Actor, org: string, collection: string, id: string, input: Record<string, unknown>, opts: WriteOptions = {}): Promise<Doc> {
    const t = await this.table(collection)
    const schema = await this.schemas.get(collection)
    const patch = normalizeFields(schema, stripReserved(input))
    const doc = await this.db.transaction(async (tx) => {
      const cur = await tx.query<Row>(`SELECT id, doc, cts, ts FROM ${t} WHERE org = $1 AND id = $2 FOR UPDATE`, [org, id])
      if (!cur.rows[0]) throw notFound(`no record ${id} in ${collection}`)
      const before = toDoc(cur.rows[0])
      if (opts.expectTs && new Date(opts.expectTs).getTime() !== new Date(before.ts).getTime()) {
        throw conflict('this record was changed by someone else since you opened it', { current: before })
      }
      const cts = opts.allowCts && input.cts ? parseTs(input.cts) : new Date(before.cts)
      const kept = opts.replace ? {} : cur.rows[0].doc
      const next = { ...kept, ...withComputed(schema, patch, opts.replace ? null : kept), octs: before.octs ?? before.cts }
      const r = await tx.query<Row>(
        `UPDATE ${t} SET doc = $3, cts = $4, ts = greatest(now(), ts + interval '1 millisecond') WHERE org = $1 AND id = $2 RETURNING id, doc, cts, ts`,
        [org, id, next, cts],
      )
      const saved = toDoc(r.rows[0])
      await audit(tx, actor, org, collection, id, 'update', before, saved)
      await opts.also?.(tx, saved, before)
      return saved
    })
    this.emit({ org, collection, id, action: 'update', uid: actor.uid, session: actor.session })
    return doc
  }

  /**
   * Inserts many documents in one transaction (imports, seeds); ids that already exist are
   * skipped, so running it twice changes nothing. Returns how many were inserted.
   */
  async insertMany(actor: Actor, org: string, collection: string, docs: Array<Record<string, unknown> & { _id?: string; cts?: string }>): Promise<number> {
    const t = await this.table(collection)
    const schema = await this.schemas.get(collection)
    const now = new Date().toISOString()
    const rows = docs.map((d) => {
      const cts = d.cts ? parseTs(d.cts).toISOString() : now
      return { id: typeof d._id === 'string' && d._id ? d._id : newId(), cts, doc: { ...withComputed(schema, normalizeFields(schema, stripReserved(d)), null), octs: cts } }
    })
    let inserted = 0
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500)
        const r = await tx.query<{ n: number }>(
          `WITH ins AS (
             INSERT INTO ${t} (org, id, doc, cts, ts)
             SELECT $1, x ->> 'id', x -> 'doc', (x ->> 'cts')::timestamptz, (x ->> 'cts')::timestamptz FROM jsonb_array_elements($2::jsonb) x
             ON CONFLICT (org, id) DO NOTHING
             RETURNING id, doc, cts, ts),
           aud AS (
             INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after)
             SELECT $1, $3, id, 'insert', $4, $5, $6, NULL,
               doc || jsonb_build_object('_id', id, 'cts', to_char(cts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'ts', to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
             FROM ins RETURNING 1)
           SELECT count(*)::int AS n FROM aud`,
          [org, JSON.stringify(chunk), collection, actor.uid, actor.origUid ?? actor.uid, actor.requestId ?? null],
        )
        inserted += r.rows[0].n
      }
    })
    if (inserted) this.emit({ org, collection, id: '*', action: 'insert', uid: actor.uid, session: actor.session })
    return inserted
  }

  /**
   * Mirrors records kept elsewhere (a METRC sync): each document is inserted, or replaces the stored
   * one when it differs; an identical one is left alone, so running it twice changes nothing. Audit
   * rows are written for what changed only, in the same transaction; one change event per call.
   * With `removeOthers` (the source listed everything it holds), the stored records it no longer
   * lists are deleted too, audited, in the same transaction — only those whose id matches
   * `idPattern` when given (records made here, not mirrored, stay).
   */
  async mirror(
    actor: Actor,
    org: string,
    collection: string,
    docs: Array<{ _id: string } & Record<string, unknown>>,
    o: { removeOthers?: boolean | { idPattern: string } } = {},
  ): Promise<{ inserted: number; updated: number; removed: number }> {
    const t = await this.table(collection)
    const schema = await this.schemas.get(collection)
    const rows = docs.map((d) => ({ id: d._id, doc: withComputed(schema, normalizeFields(schema, stripReserved(d)), null) }))
    const out = { inserted: 0, updated: 0, removed: 0 }
    const meta = (x: string) => `${x}.doc || jsonb_build_object('_id', ${x}.id, 'cts', to_char(${x}.cts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'ts', to_char(${x}.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 500) {
        const r = await tx.query<{ ins: number; upd: number }>(
          `WITH input AS (SELECT x ->> 'id' AS id, x -> 'doc' AS doc FROM jsonb_array_elements($2::jsonb) x),
           cur AS (SELECT c.id, c.doc, c.cts, c.ts FROM ${t} c JOIN input i ON c.org = $1 AND c.id = i.id),
           up AS (
             INSERT INTO ${t} AS c (org, id, doc, cts, ts) SELECT $1, id, doc, now(), now() FROM input
             ON CONFLICT (org, id) DO UPDATE SET doc = EXCLUDED.doc, ts = now() WHERE c.doc IS DISTINCT FROM EXCLUDED.doc
             RETURNING c.id, c.doc, c.cts, c.ts, (xmax = 0) AS inserted),
           aud AS (
             INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after)
             SELECT $1, $3, up.id, CASE WHEN up.inserted THEN 'insert' ELSE 'update' END, $4, $5, $6,
                    CASE WHEN up.inserted THEN NULL ELSE ${meta('cur')} END, ${meta('up')}
               FROM up LEFT JOIN cur ON cur.id = up.id RETURNING 1)
           SELECT (SELECT count(*) FROM up WHERE inserted)::int AS ins, (SELECT count(*) FROM up WHERE NOT inserted)::int AS upd, (SELECT count(*) FROM aud)::int AS a`,
          [org, JSON.stringify(rows.slice(i, i + 500)), collection, actor.uid, actor.origUid ?? actor.uid, actor.requestId ?? null],
        )
        out.inserted += r.rows[0].ins
        out.updated += r.rows[0].upd
      }
      if (o.removeOthers) {
        const pattern = typeof o.removeOthers === 'object' ? o.removeOthers.idPattern : null
        const r = await tx.query<{ n: number }>(
          `WITH gone AS (
             DELETE FROM ${t} c WHERE c.org = $1 AND NOT (c.id = ANY($2::text[])) AND ($7::text IS NULL OR c.id ~ $7)
             RETURNING c.id, c.doc, c.cts, c.ts),
           aud AS (
             INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after)
             SELECT $1, $3, gone.id, 'delete', $4, $5, $6, ${meta('gone')}, NULL FROM gone RETURNING 1)
           SELECT (SELECT count(*) FROM aud)::int AS n`,
          [org, rows.map((x) => x.id), collection, actor.uid, actor.origUid ?? actor.uid, actor.requestId ?? null, pattern],
        )
        out.removed = r.rows[0].n
      }
    })
    if (out.inserted || out.updated) this.emit({ org, collection, id: '*', action: out.inserted ? 'insert' : 'update', uid: actor.uid })
    if (out.removed) this.emit({ org, collection, id: '*', action: 'delete', uid: actor.uid })
    return out
  }

  /**
   * Set-based writes for many rows inside the caller's transaction (row actions, decision 038):
   * lock the rows, then update or insert them with their audit rows in one statement per 1,000
   * rows, never one round trip per row. The caller emits the change event after commit (`changed`).
   */
  async lockRows(tx: Queryable, org: string, collection: string, ids: string[]): Promise<Doc[]> {
    const t = await this.table(collection, tx)
    const out: Doc[] = []
    for (let i = 0; i < ids.length; i += 5000) {
      const r = await tx.query<Row>(`SELECT id, doc, cts, ts FROM ${t} WHERE org = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE`, [org, ids.slice(i, i + 5000)])
      out.push(...r.rows.map(toDoc))
    }
    return out
  }

  /** Replaces the documents of `rows` (each the whole new document), audited; returns them as stored. */
  async updateRows(tx: Queryable, actor: Actor, org: string, collection: string, rows: Array<{ id: string; doc: Record<string, unknown> }>): Promise<Doc[]> {
    const t = await this.table(collection, tx)
    const schema = await this.schemas.get(collection, tx)
    const out: Doc[] = []
    for (let i = 0; i < rows.length; i += 1000) {
      // each a whole document: its computed fields from its own values
      const chunk = rows.slice(i, i + 1000).map((r) => ({ id: r.id, doc: withComputed(schema, normalizeFields(schema, stripReserved(r.doc)), null) }))
      const r = await tx.query<Row>(
        `WITH input AS (SELECT x ->> 'id' AS id, x -> 'doc' AS doc FROM jsonb_array_elements($2::jsonb) x),
         cur AS (SELECT c.id, c.doc, c.cts, c.ts FROM ${t} c JOIN input i ON c.org = $1 AND c.id = i.id),
         up AS (
           UPDATE ${t} c SET doc = i.doc, ts = greatest(now(), c.ts + interval '1 millisecond') FROM input i
           WHERE c.org = $1 AND c.id = i.id RETURNING c.id, c.doc, c.cts, c.ts),
         aud AS (
           INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after)
           SELECT $1, $3, up.id, 'update', $4, $5, $6, ${metaOf('cur')}, ${metaOf('up')} FROM up JOIN cur ON cur.id = up.id RETURNING 1)
         SELECT id, doc, cts, ts FROM up WHERE (SELECT count(*) FROM aud) >= 0`,
        [org, JSON.stringify(chunk), collection, actor.uid, actor.origUid ?? actor.uid, actor.requestId ?? null],
      )
      out.push(...r.rows.map(toDoc))
    }
    return out
  }

  /** Inserts `docs` (new ids unless given), audited; an id that exists already is a conflict. */
  async insertRows(tx: Queryable, actor: Actor, org: string, collection: string, docs: Array<Record<string, unknown>>): Promise<Doc[]> {
    const t = await this.table(collection, tx)
    const schema = await this.schemas.get(collection, tx)
    const now = new Date().toISOString()
    const out: Doc[] = []
    for (let i = 0; i < docs.length; i += 1000) {
      const chunk = docs.slice(i, i + 1000).map((d) => ({ id: typeof d._id === 'string' && d._id ? d._id : newId(), doc: { ...withComputed(schema, normalizeFields(schema, stripReserved(d)), null), octs: now } }))
      const r = await tx
        .query<Row>(
          `WITH ins AS (
             INSERT INTO ${t} (org, id, doc, cts, ts)
             SELECT $1, x ->> 'id', x -> 'doc', now(), now() FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(x, n) ORDER BY n
             RETURNING id, doc, cts, ts),
           aud AS (
             INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after)
             SELECT $1, $3, id, 'insert', $4, $5, $6, NULL, ${metaOf('ins')} FROM ins RETURNING 1)
           SELECT id, doc, cts, ts FROM ins WHERE (SELECT count(*) FROM aud) >= 0`,
          [org, JSON.stringify(chunk), collection, actor.uid, actor.origUid ?? actor.uid, actor.requestId ?? null],
        )
        .catch((e) => {
          if ((e as { code?: string }).code === '23505') throw conflict('a record with one of these ids already exists')
          throw e
        })
      const byId = new Map(r.rows.map((x) => [x.id, toDoc(x)]))
      out.push(...chunk.map((c) => byId.get(c.id)!))
    }
    return out
  }

  /** Deletes the rows `ids` inside the caller's transaction (an import's undo), audited, one statement per 1,000; returns them as they were. */
  async removeRows(tx: Queryable, actor: Actor, org: string, collection: string, ids: string[]): Promise<Doc[]> {
    const t = await this.table(collection, tx)
    const out: Doc[] = []
    for (let i = 0; i < ids.length; i += 1000) {
      const r = await tx.query<Row>(
        `WITH del AS (DELETE FROM ${t} WHERE org = $1 AND id = ANY($2::text[]) RETURNING id, doc, cts, ts),
         aud AS (
           INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after)
           SELECT $1, $3, id, 'delete', $4, $5, $6, ${metaOf('del')}, NULL FROM del RETURNING 1)
         SELECT id, doc, cts, ts FROM del WHERE (SELECT count(*) FROM aud) >= 0`,
        [org, ids.slice(i, i + 1000), collection, actor.uid, actor.origUid ?? actor.uid, actor.requestId ?? null],
      )
      out.push(...r.rows.map(toDoc))
    }
    return out
  }

  /** The ids of the records whose `labelField` reads as each of `labels` (trimmed, any case): what a label typed in a file names. */
  async idsByLabel(org: string, collection: string, labelField: string, labels: string[]): Promise<Map<string, string[]>> {
    const t = await this.table(collection)
    const wanted = [...new Set(labels.map((l) => l.trim().toLowerCase()))].filter(Boolean)
    const out = new Map<string, string[]>()
    for (let i = 0; i < wanted.length; i += 5000) {
      const r = await this.db.query<{ id: string; label: string }>(`SELECT id, lower(btrim(doc ->> ${keyLit(labelField)})) AS label FROM ${t} WHERE org = $1 AND lower(btrim(doc ->> ${keyLit(labelField)})) = ANY($2::text[]) ORDER BY id`, [org, wanted.slice(i, i + 5000)])
      for (const x of r.rows) out.set(x.label, [...(out.get(x.label) ?? []), x.id])
    }
    return out
  }

  /** The change event of a set-based write, once its transaction has committed. */
  changed(actor: Actor, org: string, collection: string, action: ChangeEvent['action'] = 'update'): void {
    this.emit({ org, collection, id: '*', action, uid: actor.uid, session: actor.session })
  }

  /** Insert or update by id (seeds, schemas, preferences). */
  async upsert(actor: Actor, org: string, collection: string, id: string, input: Record<string, unknown>, opts: WriteOptions = {}): Promise<Doc> {
    try {
      return await this.update(actor, org, collection, id, input, { ...opts, replace: true })
    } catch (e) {
      if (isAppError(e) && e.code === 'NOT_FOUND' && (await this.get(org, collection, id)) === null) {
        return this.insert(actor, org, collection, input, { ...opts, id })
      }
      throw e
    }
  }

  async remove(actor: Actor, org: string, collection: string, id: string, opts: { expectTs?: string } = {}): Promise<Doc> {
    const t = await this.table(collection)
    const doc = await this.db.transaction(async (tx) => {
      const cur = await tx.query<Row>(`DELETE FROM ${t} WHERE org = $1 AND id = $2 RETURNING id, doc, cts, ts`, [org, id])
      if (!cur.rows[0]) throw notFound(`no record ${id} in ${collection}`)
      const before = toDoc(cur.rows[0])
      if (opts.expectTs && new Date(opts.expectTs).getTime() !== new Date(before.ts).getTime()) {
        throw conflict('this record was changed by someone else since you opened it', { current: before })
      }
      await audit(tx, actor, org, collection, id, 'delete', before, null)
      return before
    })
    this.emit({ org, collection, id, action: 'delete', uid: actor.uid, session: actor.session })
    return doc
  }

  /**
   * A change that is not a record write (a file removed, a schema dropped) gets its audit row too:
   * `work` runs first, inside the transaction; when it throws, no row is written.
   */
  async audited(actor: Actor, e: { org: string; collection: string; id: string; action: ChangeEvent['action']; before: unknown; after: unknown }, work: (tx: Queryable) => Promise<void> = async () => {}): Promise<void> {
    await this.db.transaction(async (tx) => {
      await work(tx)
      await audit(tx, actor, e.org, e.collection, e.id, e.action, e.before as Doc | null, e.after as Doc | null)
    })
  }

  /** The segments of a page query (./page-sql.ts). */
  async pagePlan(org: string, collection: string, q: PageQuery): Promise<PagePlan> {
    const t = await this.table(collection)
    return pagePlan(t, await this.schemas.get(collection), q, (c) => this.table(c), org)
  }

  /** The first segment's SQL for `q.limit`/`q.offset` and the count's (the benchmark compares them with hand-written SQL). */
  async pageSql(org: string, collection: string, q: PageQuery): Promise<{ rowsSql: string; params: unknown[]; countSql: string; estimateSql: string; countParams: unknown[] }> {
    const plan = await this.pagePlan(org, collection, q)
    const s = plan.segments[0]
    return { rowsSql: s ? (q.offset > 0 ? s.deepSql : s.sql) : 'SELECT 1 WHERE false', params: s ? segmentParams(s, q.limit, q.offset) : [], countSql: plan.countSql, estimateSql: plan.estimateSql, countParams: plan.countParams }
  }

  /**
   * One page of a collection: active-only or all, date range, text search, type-aware sort, by
   * offset or after/before a cursor, with the total (exact, or past `countCap` an estimate).
   */
  async page(org: string, collection: string, q: PageQuery): Promise<Page> {
    const plan = await this.pagePlan(org, collection, q)
    const [rows, count] = await this.db.parallel(
      (c) => readSegments(c, plan, q.limit, q.offset),
      (c) => c.query<{ n: number }>(plan.countSql, plan.countParams),
    )
    const docs = rows.map(pageDoc)
    const ends = rows.length ? { first: cursorOf(rows[0]), last: cursorOf(rows[rows.length - 1]) } : {}
    const n = count.rows[0].n
    if (!q.countCap || n <= q.countCap) return { rows: docs, total: n, exact: true, ...ends }
    // more than the cap: the planner's estimate, never less than what we know is there
    const plan_ = await this.db.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> | string }>(plan.estimateSql, plan.countParams)
    const raw = plan_.rows[0]['QUERY PLAN']
    const est = Math.round((typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan['Plan Rows'])
    return { rows: docs, total: Math.max(n, est, q.offset + docs.length), exact: false, ...ends }
  }

  /**
   * Every row of a view, in its order, a batch at a time (CSV export): the same query as `page`,
   * each batch starting after the last row of the one before, until it runs out or `max` rows.
   */
  async *walk(org: string, collection: string, q: Omit<PageQuery, 'offset' | 'limit'>, max = 100_000, batch = 1000): AsyncGenerator<Doc[]> {
    let after: Cursor | undefined
    for (let read = 0; read < max; ) {
      const limit = Math.min(batch, max - read)
      const plan = await this.pagePlan(org, collection, { ...q, before: undefined, after, offset: 0, limit })
      const rows = await readSegments(this.db, plan, limit, 0)
      if (rows.length) yield rows.map(pageDoc)
      if (rows.length < limit) return
      read += rows.length
      after = cursorOf(rows[rows.length - 1])
    }
  }

  /** Labels of records by id, in one query (references inside nested rows). Unknown ids are left out. */
  async labelsOf(org: string, collection: string, labelField: string, ids: string[]): Promise<Map<string, string>> {
    const t = await this.table(collection)
    if (!ids.length) return new Map()
    const r = await this.db.query<{ id: string; label: string | null }>(`SELECT id, doc ->> ${keyLit(labelField)} AS label FROM ${t} WHERE org = $1 AND id = ANY($2::text[])`, [org, [...new Set(ids)].slice(0, 5000)])
    return new Map(r.rows.filter((x) => x.label !== null).map((x) => [x.id, x.label as string]))
  }

  /** The audit rows of one record, oldest first. */
  async history(org: string, collection: string, id: string) {
    const r = await this.db.query<{ seq: number; at: Date; action: string; uid: string; orig_uid: string; before: unknown; after: unknown }>(
      'SELECT seq, at, action, uid, orig_uid, before, after FROM audit_log WHERE org = $1 AND collection = $2 AND doc_id = $3 ORDER BY seq',
      [org, collection, id],
    )
    return r.rows.map((x) => ({ ...x, at: iso(x.at) }))
  }

  /** The change event of a write (also for writes made in a caller's own transaction, after it commits). */
  emit(e: ChangeEvent) {
    this.events.emit('change', e)
  }
}

/** A stored row as the audit log keeps it: its document with _id, cts and ts (SQL, for set-based writes). */
const metaOf = (x: string) => `${x}.doc || jsonb_build_object('_id', ${x}.id, 'cts', to_char(${x}.cts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'ts', to_char(${x}.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`

/**
 * The rows of a page: each segment in turn until `limit` rows are read. An OFFSET that reaches past
 * a segment's end continues into the next one, less the rows the first one holds.
 */
async function readSegments(c: Queryable, plan: PagePlan, limit: number, offset: number): Promise<PageRow[]> {
  const out: PageRow[] = []
  let skip = offset
  for (const s of plan.segments) {
    const want = limit - out.length
    if (want <= 0) break
    // a page opened by number: the skipped rows walked for their ids alone (a deferred join)
    const r = await c.query<PageRow>(skip > 0 ? s.deepSql : s.sql, segmentParams(s, want, skip))
    out.push(...r.rows)
    if (out.length >= limit) break
    if (skip > 0) skip = r.rows.length ? 0 : Math.max(0, skip - (await c.query<{ n: number }>(s.countSql, s.params)).rows[0].n)
  }
  return plan.reversed ? out.reverse() : out
}

const pageDoc = (r: PageRow): Doc => (r.labels ? { ...toDoc(r), _labels: r.labels } : toDoc(r))
const cursorOf = (r: PageRow): Cursor => ({ v: r.sort_k ?? null, id: r.id })

/** `org = $1 AND doc ->> 'k' = $n …`: field names checked against the strict pattern, values bound. */
function equalities(org: string, where: Record<string, string>): { conds: string[]; params: unknown[] } {
  const params: unknown[] = [org]
  const conds = ['org = $1']
  for (const [k, v] of Object.entries(where)) {
    params.push(v)
    if (k === '_id') conds.push(`id = $${params.length}`)
    else if (!isFieldKey(k)) throw badInput(`"${k.slice(0, 40)}" is not a field name`)
    else conds.push(`doc ->> '${k}' = $${params.length}`)
  }
  return { conds, params }
}

function stripReserved(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(input ?? {})) if (!RESERVED.has(k)) out[k] = v
  return out
}

function parseTs(v: unknown): Date {
  const d = new Date(v as string)
  if (Number.isNaN(d.getTime())) throw badInput(`created date "${String(v).slice(0, 40)}" is not a date`, { field: 'cts' })
  return d
}

async function insertOne(tx: Queryable, actor: Actor, org: string, t: string, collection: string, id: string, body: Record<string, unknown>, cts: Date, opts: WriteOptions): Promise<Doc> {
  const d = { ...body, octs: cts.toISOString() }
  const r = await tx
    .query<Row>(`INSERT INTO ${t} (org, id, doc, cts, ts) VALUES ($1, $2, $3, $4, $4) RETURNING id, doc, cts, ts`, [org, id, d, cts])
    .catch((e) => {
      if ((e as { code?: string }).code === '23505') throw conflict(`a record with id ${id} already exists`)
      throw e
    })
  const saved = toDoc(r.rows[0])
  await audit(tx, actor, org, collection, id, 'insert', null, saved)
  await opts.also?.(tx, saved, null)
  return saved
}

/** The audit row of one change, in the caller's transaction (for writes that are more than one record's, e.g. a drift decision). */
export async function audit(tx: Queryable, actor: Actor, org: string, collection: string, id: string, action: ChangeEvent['action'], before: Doc | null, after: Doc | null) {
  await tx.query(
    'INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [org, collection, id, action, actor.uid, actor.origUid ?? actor.uid, actor.requestId ?? null, before, after],
  )
}
