/** Writes of several records in one transaction (a new account: organisation, admin, request), each audited. */
import type { Queryable } from '../../db/driver.server'
import { tableOf } from '../../db/sql'
import { audit } from '../../db/store.server'
import type { Actor, Doc } from '../../db/types'
import { conflict } from '../../utils/errors'

type Row = { id: string; doc: Record<string, unknown>; cts: Date | string; ts: Date | string }
const toDoc = (r: Row): Doc => ({ ...r.doc, _id: r.id, cts: new Date(r.cts).toISOString(), ts: new Date(r.ts).toISOString() }) as Doc

export async function insertInTx(tx: Queryable, actor: Actor, org: string, collection: string, id: string, doc: Record<string, unknown>): Promise<Doc> {
  const now = new Date()
  const r = await tx
    .query<Row>(`INSERT INTO ${tableOf(collection)} (org, id, doc, cts, ts) VALUES ($1, $2, $3, $4, $4) RETURNING id, doc, cts, ts`, [org, id, { ...doc, octs: now.toISOString() }, now])
    .catch((e) => {
      if ((e as { code?: string }).code === '23505') throw conflict(`a record with id ${id} already exists`)
      throw e
    })
  const saved = toDoc(r.rows[0])
  await audit(tx, actor, org, collection, id, 'insert', null, saved)
  return saved
}

/** Merges fields into a stored record (FOR UPDATE), audited; null when it is gone. */
export async function updateInTx(tx: Queryable, actor: Actor, org: string, collection: string, id: string, patch: Record<string, unknown>): Promise<Doc | null> {
  const t = tableOf(collection)
  const cur = await tx.query<Row>(`SELECT id, doc, cts, ts FROM ${t} WHERE org = $1 AND id = $2 FOR UPDATE`, [org, id])
  if (!cur.rows[0]) return null
  const before = toDoc(cur.rows[0])
  const next = { ...cur.rows[0].doc, ...patch, octs: before.octs ?? before.cts }
  const r = await tx.query<Row>(`UPDATE ${t} SET doc = $3, ts = greatest(now(), ts + interval '1 millisecond') WHERE org = $1 AND id = $2 RETURNING id, doc, cts, ts`, [org, id, next])
  const saved = toDoc(r.rows[0])
  await audit(tx, actor, org, collection, id, 'update', before, saved)
  return saved
}
