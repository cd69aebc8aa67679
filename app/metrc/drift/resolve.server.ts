/**
 * A person picks the side that wins one drift (issue 9 item 7), in one transaction:
 *   'metrc'   the Canopy record takes METRC's value (its own audit row, the person as actor);
 *   'canopy'  METRC is to take Canopy's: the push is queued in the METRC outbox (enqueuePushes);
 * then the drift is marked resolved and the decision gets its audit row (collection metrc_drift).
 * Both values are read again first: if either moved since the drift was found, nothing is done
 * (sync again). A side that cannot win (no such room in Canopy, a phase METRC does not move back,
 * a facility no longer linked) is refused with the reason, and nothing changes.
 */
import type { Database } from '../../db/index.server'
import { normalizeFields } from '../../db/store.server'
import { audit } from '../../db/store.server'
import { tableOf } from '../../db/sql'
import type { Actor, Doc } from '../../db/types'
import { badInput, conflict, forbidden, notFound } from '../../utils/errors'
import { enqueuePushes } from '../outbox/enqueue.server'
import { metrcDay } from '../outbox/pushes.server'
import { lookups, pairsOf } from './compare.server'
import { driftTable, Refused, sameValue } from './tables'

export type Side = 'canopy' | 'metrc'

export interface Decision {
  id: string
  side: Side
  tag: string
  field: string
  /** the outbox item queued when Canopy's side won */
  push: { id: string; status: 'held' | 'pending' | 'failed' } | null
  /** the Canopy record's fields that took METRC's value */
  change: Record<string, unknown> | null
}

export const DRIFT_ID = /^[0-9a-f]{24}$/

type Row = { id: string; tbl: string; tag: string; field: string; record_id: string; metrc_doc: string; canopy_value: string | null; synced_value: string | null; metrc_value: string | null; status: string; resolved_by: string | null; resolved_at: unknown }

/**
 * Resolves drift `id` of `org` for `side`; `super` may change a record locked with ed = no. The
 * dates sent to METRC are days in the facility's time zone (`timeZone`, UTC when not given).
 */
export async function resolveDrift(database: Database, actor: Actor, org: string, id: unknown, side: unknown, o: { isSuper?: boolean; timeZone?: string } = {}): Promise<Decision> {
  if (typeof id !== 'string' || !DRIFT_ID.test(id)) throw badInput('Choose a drift from the list (the drift id is missing or malformed).', { field: 'id' })
  if (side !== 'canopy' && side !== 'metrc') throw badInput('Choose which side wins: Canopy’s value or METRC’s.', { field: 'side' })
  let emitted = null as { collection: string; id: string } | null
  const out = await database.db.transaction(async (tx): Promise<Decision> => {
    const cur = await tx.query<Row>('SELECT * FROM metrc_drift WHERE org = $1 AND id = $2 FOR UPDATE', [org, id])
    const row = cur.rows[0]
    if (!row) throw notFound('There is no such drift in this facility.')
    if (row.status !== 'open') throw conflict(row.status === 'resolved' ? `This drift was already resolved by ${row.resolved_by ?? 'someone'}.` : 'This drift is gone: Canopy and METRC agree again.')
    const t = driftTable(row.tbl)
    const f = t?.fields.find((x) => x.key === row.field)
    if (!t || !f) throw conflict(`Drift of ${row.tbl}.${row.field} is no longer compared.`)
    // both sides as they are now: the values the person saw must still be there
    const lk = await lookups(tx, org)
    const [pair] = await pairsOf(tx, org, t, row.tag)
    const now = pair && pair.rec._id === row.record_id && pair.doc._id === row.metrc_doc ? { c: f.canopy(pair.rec, lk, pair.doc), m: f.metrc(pair.doc) } : null
    if (!now || now.c !== row.canopy_value || now.m !== row.metrc_value || sameValue(now.c, now.m)) throw conflict('Canopy or METRC changed since this drift was found: sync again, then decide.')
    let push: Decision['push'] = null
    let change: Decision['change'] = null
    if (side === 'metrc') {
      const patch = f.toCanopy(pair.doc, lk, pair.rec)
      if (patch instanceof Refused) throw badInput(patch.message, { field: 'side' })
      change = await updateRecord(tx, database, actor, org, t.canopy, row.record_id, patch, o.isSuper === true)
      emitted = { collection: t.canopy, id: row.record_id }
    } else {
      const item = f.toMetrc(pair.rec, pair.doc, lk, (v) => metrcDay(v, o.timeZone ?? 'UTC'))
      if (item instanceof Refused) throw badInput(item.message, { field: 'side' })
      const [queued] = await enqueuePushes(tx, org, actor, [item])
      if (!queued) throw badInput('This facility is not linked to METRC: Canopy’s value cannot be sent.', { field: 'side' })
      push = queued
    }
    const after = await tx.query<Row>(
      `UPDATE metrc_drift SET status = 'resolved', side = $3, push_id = $4, resolved_by = $5, resolved_at = now(), updated_at = now() WHERE org = $1 AND id = $2 RETURNING *`,
      [org, id, side, push?.id ?? null, actor.uid],
    )
    await audit(tx, actor, org, 'metrc_drift', id, 'update', row as unknown as Doc, { ...after.rows[0], push, change } as unknown as Doc)
    return { id, side, tag: row.tag, field: row.field, push, change }
  })
  if (emitted) database.store.events.emit('change', { org, collection: emitted.collection, id: emitted.id, action: 'update', uid: actor.uid, session: actor.session })
  return out
}

/** The Canopy record takes the patch: as Store.update does it (ts moves on, octs kept), audited, in this transaction. */
async function updateRecord(tx: Parameters<Parameters<Database['db']['transaction']>[0]>[0], database: Database, actor: Actor, org: string, collection: string, id: string, patch: Record<string, unknown>, isSuper: boolean): Promise<Record<string, unknown>> {
  const t = tableOf(collection)
  const cur = await tx.query<{ id: string; doc: Record<string, unknown>; cts: Date | string; ts: Date | string }>(`SELECT id, doc, cts, ts FROM ${t} WHERE org = $1 AND id = $2 FOR UPDATE`, [org, id])
  if (!cur.rows[0]) throw notFound('That Canopy record no longer exists.')
  const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString()
  const before = { ...cur.rows[0].doc, _id: id, cts: iso(cur.rows[0].cts), ts: iso(cur.rows[0].ts) } as Doc
  if (!isSuper && String(before.ed ?? '').toLowerCase() === 'no') throw forbidden('This Canopy record is locked against changes (ed = no). Ask an administrator.')
  const change = normalizeFields(await database.schemas.get(collection), patch)
  const next = { ...cur.rows[0].doc, ...change, octs: before.octs ?? before.cts }
  const r = await tx.query<{ doc: Record<string, unknown>; cts: Date | string; ts: Date | string }>(
    `UPDATE ${t} SET doc = $3, ts = greatest(now(), ts + interval '1 millisecond') WHERE org = $1 AND id = $2 RETURNING doc, cts, ts`,
    [org, id, next],
  )
  const saved = { ...r.rows[0].doc, _id: id, cts: iso(r.rows[0].cts), ts: iso(r.rows[0].ts) } as Doc
  await audit(tx, actor, org, collection, id, 'update', before, saved)
  return change
}
