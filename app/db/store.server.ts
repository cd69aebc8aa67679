/**
 * Document collections: get, find, insert, update, upsert, delete and the one `page` query.
 * Every call names its organisation; every write appends an audit row in the same
 * transaction and, once committed, emits a change event.
 */
import { EventEmitter } from 'node:events'
import type { TableSchema } from '../schemas/table-schema'
import { isAppError, badInput, conflict, notFound } from '../utils/errors'
import { newId } from '../utils/ids'
import type { Db, Queryable } from './driver.server'
import { containsPattern, isFieldKey, keyLit, kindOf, searchExpr, sortExpr, tableOf } from './sql'
import type { Actor, ChangeEvent, Doc, Page, PageQuery } from './types'
import type { SchemaRegistry } from './schema-registry.server'

type Row = { id: string; doc: Record<string, unknown>; cts: Date | string; ts: Date | string }

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
}

export class Store {
  readonly events = new EventEmitter()

  constructor(
    readonly db: Db,
    readonly schemas: SchemaRegistry,
  ) {
    this.events.setMaxListeners(0)
  }

  private async table(collection: string): Promise<string> {
    const t = tableOf(collection)
    if (!(await this.schemas.hasCollection(collection))) throw notFound(`unknown table "${collection}"`)
    return t
  }

  async get(org: string, collection: string, id: string, q: Queryable = this.db): Promise<Doc | null> {
    const t = await this.table(collection)
    const r = await q.query<Row>(`SELECT id, doc, cts, ts FROM ${t} WHERE org = $1 AND id = $2`, [org, id])
    return r.rows[0] ? toDoc(r.rows[0]) : null
  }

  /** Equality filters on top-level fields (API `?field=value`), newest first. */
  async find(org: string, collection: string, where: Record<string, string> = {}, limit = 1000): Promise<Doc[]> {
    const t = await this.table(collection)
    const params: unknown[] = [org]
    const conds = ['org = $1']
    for (const [k, v] of Object.entries(where)) {
      if (k === '_id') {
        params.push(v)
        conds.push(`id = $${params.length}`)
        continue
      }
      if (!isFieldKey(k)) throw badInput(`"${k.slice(0, 40)}" is not a field name`)
      params.push(v)
      conds.push(`doc ->> '${k}' = $${params.length}`)
    }
    params.push(Math.min(Math.max(1, limit), 10000))
    const r = await this.db.query<Row>(`SELECT id, doc, cts, ts FROM ${t} WHERE ${conds.join(' AND ')} ORDER BY cts DESC, id LIMIT $${params.length}`, params)
    return r.rows.map(toDoc)
  }

  async count(org: string, collection: string): Promise<number> {
    const t = await this.table(collection)
    const r = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} WHERE org = $1`, [org])
    return r.rows[0].n
  }

  async insert(actor: Actor, org: string, collection: string, input: Record<string, unknown>, opts: WriteOptions & { id?: string } = {}): Promise<Doc> {
    const t = await this.table(collection)
    const schema = await this.schemas.get(collection)
    const body = normalizeFields(schema, stripReserved(input))
    const id = opts.id ?? (typeof input._id === 'string' && input._id ? input._id : newId())
    const cts = opts.allowCts && input.cts ? parseTs(input.cts) : new Date()
    const doc = await this.db.transaction(async (tx) => {
      const d = { ...body, octs: cts.toISOString() }
      const r = await tx
        .query<Row>(`INSERT INTO ${t} (org, id, doc, cts, ts) VALUES ($1, $2, $3, $4, $4) RETURNING id, doc, cts, ts`, [org, id, d, cts])
        .catch((e) => {
          if ((e as { code?: string }).code === '23505') throw conflict(`a record with id ${id} already exists`)
          throw e
        })
      const saved = toDoc(r.rows[0])
      await audit(tx, actor, org, collection, id, 'insert', null, saved)
      return saved
    })
    this.emit({ org, collection, id, action: 'insert', uid: actor.uid })
    return doc
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
      const next = { ...(opts.replace ? {} : cur.rows[0].doc), ...patch, octs: before.octs ?? before.cts }
      const r = await tx.query<Row>(
        `UPDATE ${t} SET doc = $3, cts = $4, ts = greatest(now(), ts + interval '1 millisecond') WHERE org = $1 AND id = $2 RETURNING id, doc, cts, ts`,
        [org, id, next, cts],
      )
      const saved = toDoc(r.rows[0])
      await audit(tx, actor, org, collection, id, 'update', before, saved)
      return saved
    })
    this.emit({ org, collection, id, action: 'update', uid: actor.uid })
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
      return { id: typeof d._id === 'string' && d._id ? d._id : newId(), cts, doc: { ...normalizeFields(schema, stripReserved(d)), octs: cts } }
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
    if (inserted) this.emit({ org, collection, id: '*', action: 'insert', uid: actor.uid })
    return inserted
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
    this.emit({ org, collection, id, action: 'delete', uid: actor.uid })
    return doc
  }

  /** The SQL and parameters of a page query (also used by the benchmark to compare with hand-written SQL). */
  async pageSql(org: string, collection: string, q: PageQuery): Promise<{ rowsSql: string; countSql: string; estimateSql: string; params: unknown[]; countParams: unknown[] }> {
    const t = await this.table(collection)
    const schema = await this.schemas.get(collection)
    const known = (k: string) => k === 'cts' || k === 'ts' || !schema || schema.fields.some((f) => f.key === k)
    const params: unknown[] = [org]
    const where = ['t.org = $1']
    // reference columns: a join where a filter or the sort needs the label, else a lookup per row of the page
    const refs: Array<{ alias: string; key: string; labelField: string; table: string; sql: (paramNo: number) => string; org: string }> = []
    for (const [i, ref] of (q.refs ?? []).entries()) {
      if (!isFieldKey(ref.key) || !isFieldKey(ref.labelField)) throw badInput(`bad reference column "${ref.key.slice(0, 40)}"`)
      const rt = await this.table(ref.collection)
      const alias = `ref${i}`
      const sql = (n: number) => `LEFT JOIN LATERAL (SELECT r.doc ->> ${keyLit(ref.labelField)} AS label FROM ${rt} r WHERE r.org = $${n} AND r.id = t.doc ->> ${keyLit(ref.key)}) ${alias} ON true`
      refs.push({ alias, key: ref.key, labelField: ref.labelField, table: rt, sql, org: ref.org })
    }
    const used = new Set<string>()
    const refOf = (key: string) => refs.find((r) => r.key === key)?.alias
    if (q.activeOnly) where.push(`(t.doc ->> 'IsUsed') IS DISTINCT FROM 'no'`)
    if (q.range && (q.range.from || q.range.to)) {
      if (!isFieldKey(q.range.key) || !known(q.range.key)) throw badInput(`unknown date field "${q.range.key.slice(0, 40)}"`)
      const e = sortExpr(schema, q.range.key)
      const col = q.range.key === 'cts' || q.range.key === 'ts'
      for (const [op, v] of [['>=', q.range.from], ['<', q.range.to]] as const) {
        if (!v) continue
        const d = new Date(v)
        if (Number.isNaN(d.getTime())) throw badInput(`"${String(v).slice(0, 40)}" is not a date`)
        params.push(col ? d : d.toISOString())
        where.push(`${e} ${op} $${params.length}${col ? '::timestamptz' : ''}`)
      }
    }
    if (q.search && q.search.text !== '') {
      if (!isFieldKey(q.search.key) || !known(q.search.key)) throw badInput(`unknown search field "${q.search.key.slice(0, 40)}"`)
      params.push(containsPattern(q.search.text))
      const ref = refOf(q.search.key)
      if (ref) used.add(ref)
      where.push(`${ref ? `${ref}.label` : searchExpr(q.search.key)} ILIKE $${params.length} ESCAPE '\\'`)
    }
    let order = 'cts DESC, id DESC'
    let sortRef: string | undefined
    let dir: 'ASC' | 'DESC' = 'ASC'
    const sort = q.sort ?? schema?.defaultSort
    if (sort) {
      if (!isFieldKey(sort.key) || !known(sort.key)) throw badInput(`unknown sort field "${sort.key.slice(0, 40)}"`)
      dir = sort.dir === 'desc' ? 'DESC' : 'ASC'
      sortRef = refOf(sort.key)
      order = `${sortExpr(schema, sort.key)} ${dir}, id ${dir}`
    }
    // a referenced column sorts by the label shown; records whose reference is missing come last
    const byLabel = (e: string) => `(lower(${e}) COLLATE "C") ${dir} NULLS ${dir === 'ASC' ? 'LAST' : 'FIRST'}, id ${dir}`
    // Parameters: the filters', then the joins' (the count has only those its search uses), then
    // limit and offset, then the label lookups'. Joins are made only where a filter or the sort
    // needs them; labels are looked up for the page's rows alone, by primary key.
    const countParams = [...params]
    const countJoins = refs.filter((r) => used.has(r.alias)).map((r) => (countParams.push(r.org), r.sql(countParams.length)))
    const inner = refs.filter((r) => used.has(r.alias) || r.alias === sortRef).map((r) => (params.push(r.org), r.sql(params.length)))
    params.push(Math.max(0, Math.min(q.limit, 1000)), Math.max(0, q.offset))
    const page = `LIMIT $${params.length - 1} OFFSET $${params.length}`
    const w = where.join(' AND ')
    let rowsSql = `SELECT t.id, t.doc, t.cts, t.ts${sortRef ? `, ${sortRef}.label AS sort_label` : ''} FROM ${t} t ${inner.join(' ')} WHERE ${w} ORDER BY ${sortRef ? byLabel(`${sortRef}.label`) : order} ${page}`
    if (refs.length) {
      const labels = refs.map((r) => (params.push(r.org), `${keyLit(r.key)}, (SELECT x.doc ->> ${keyLit(r.labelField)} FROM ${r.table} x WHERE x.org = $${params.length} AND x.id = p.doc ->> ${keyLit(r.key)})`))
      rowsSql = `SELECT p.id, p.doc, p.cts, p.ts, jsonb_build_object(${labels.join(', ')}) AS labels FROM (${rowsSql}) p ORDER BY ${sortRef ? byLabel('p.sort_label') : order}`
    }
    return {
      rowsSql,
      countSql: q.countCap
        ? `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${t} t ${countJoins.join(' ')} WHERE ${w} LIMIT ${Math.max(1, Math.floor(q.countCap)) + 1}) capped`
        : `SELECT count(*)::int AS n FROM ${t} t ${countJoins.join(' ')} WHERE ${w}`,
      estimateSql: `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${t} t ${countJoins.join(' ')} WHERE ${w}`,
      params,
      countParams,
    }
  }

  /** One page of a collection: active-only or all, date range, text search, type-aware sort, skip/limit, total. */
  async page(org: string, collection: string, q: PageQuery): Promise<Page> {
    const s = await this.pageSql(org, collection, q)
    const [rows, count] = await this.db.parallel(
      (c) => c.query<Row & { labels?: Record<string, string | null> }>(s.rowsSql, s.params),
      (c) => c.query<{ n: number }>(s.countSql, s.countParams),
    )
    const docs = rows.rows.map((r) => (r.labels ? { ...toDoc(r), _labels: r.labels } : toDoc(r)))
    const n = count.rows[0].n
    if (!q.countCap || n <= q.countCap) return { rows: docs, total: n, exact: true }
    // more than the cap: the planner's estimate, never less than what we know is there
    const plan = await this.db.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> | string }>(s.estimateSql, s.countParams)
    const raw = plan.rows[0]['QUERY PLAN']
    const est = Math.round((typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan['Plan Rows'])
    return { rows: docs, total: Math.max(n, est, q.offset + docs.length), exact: false }
  }

  /**
   * Every row of a view, in its order, a batch at a time (CSV export): the same query as `page`,
   * walked forward until it runs out or `max` rows have been read.
   */
  async *walk(org: string, collection: string, q: Omit<PageQuery, 'offset' | 'limit'>, max = 100_000, batch = 1000): AsyncGenerator<Doc[]> {
    for (let offset = 0; offset < max; offset += batch) {
      const s = await this.pageSql(org, collection, { ...q, offset, limit: Math.min(batch, max - offset) })
      const r = await this.db.query<Row & { labels?: Record<string, string | null> }>(s.rowsSql, s.params)
      if (r.rows.length) yield r.rows.map((x) => (x.labels ? { ...toDoc(x), _labels: x.labels } : toDoc(x)))
      if (r.rows.length < batch) return
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

  private emit(e: ChangeEvent) {
    this.events.emit('change', e)
  }
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

async function audit(tx: Queryable, actor: Actor, org: string, collection: string, id: string, action: ChangeEvent['action'], before: Doc | null, after: Doc | null) {
  await tx.query(
    'INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [org, collection, id, action, actor.uid, actor.origUid ?? actor.uid, actor.requestId ?? null, before, after],
  )
}
