/**
 * Putting work in the METRC outbox (issue 9 item 5, migration 007). Called inside the transaction
 * of the local change that calls for it, so the record and its pushes commit together or not at
 * all. Each item is one METRC object for one endpoint ("POST /plants/v2/waste"), with a marker
 * (`canopy:{id}`) that rides in a note field where METRC has one, so the worker can find it in
 * METRC after a lost answer.
 *
 * The facility's workflow preferences (/MetrcPrefs, collection metrc_prefs, matched by Endpoint)
 * decide the first status: Auto-Push yes and Needs Approval no → pending (sent by the worker);
 * otherwise held for an approver (ApproverRole). An endpoint without a preference is pushed
 * automatically. A facility not linked to METRC gets nothing queued.
 */
import type { Queryable } from '../../db/driver.server'
import type { Actor } from '../../db/types'
import { isYes as yes } from '../../format/format'
import { newId } from '../../utils/ids'

export interface PushItem {
  /** METRC's method and path, as /MetrcPrefs names them: "POST /plantbatches/v2/plantings" */
  endpoint: string
  /** one METRC object (the worker sends up to 10 of the same endpoint in one request) */
  payload: Record<string, unknown>
  /** what a person reads on the outbox screen: "Planting PB-0042 (12 clones, Blue Dream)" */
  label: string
  /** the Canopy record the push comes from */
  source?: { collection: string; id: string }
  /** the payload's free-text field (Note, ReasonNote) that carries the marker, where METRC has one */
  noteField?: string
  /** what METRC will need that the change does not say: the item starts failed, with this message */
  problem?: string
}

export interface QueuedItem {
  id: string
  status: 'held' | 'pending' | 'failed'
}


/** How a facility's preferences treat an endpoint. */
export async function pushPolicy(q: Queryable, org: string, endpoint: string): Promise<{ status: 'held' | 'pending'; approverRole: string | null }> {
  const has = await q.query<{ t: string | null }>(`SELECT to_regclass('c_metrc_prefs')::text AS t`)
  if (!has.rows[0]?.t) return { status: 'pending', approverRole: null }
  const r = await q.query<{ doc: Record<string, unknown> }>(`SELECT doc FROM c_metrc_prefs WHERE org = $1 AND upper(doc->>'Endpoint') = upper($2) ORDER BY id LIMIT 1`, [org, endpoint])
  const pref = r.rows[0]?.doc
  if (!pref) return { status: 'pending', approverRole: null }
  const auto = yes(pref.AutoPush) && !yes(pref.NeedsApproval)
  return { status: auto ? 'pending' : 'held', approverRole: auto ? null : String(pref.ApproverRole ?? 'admin') }
}

export async function isLinked(q: Queryable, org: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM metrc_links WHERE org = $1', [org])).rows.length > 0
}

/** The marker an item carries in METRC's note fields. */
export const markerOf = (id: string) => `canopy:${id}`

/**
 * Queues `items` for `org` in the caller's transaction, in order. Returns what was queued (nothing
 * when the facility is not linked to METRC).
 */
export async function enqueuePushes(tx: Queryable, org: string, actor: Actor, items: PushItem[]): Promise<QueuedItem[]> {
  if (!items.length || !(await isLinked(tx, org))) return []
  const policies = new Map<string, Awaited<ReturnType<typeof pushPolicy>>>()
  const rows: Array<Record<string, unknown>> = []
  for (const it of items) {
    const key = it.endpoint.toUpperCase()
    if (!policies.has(key)) policies.set(key, await pushPolicy(tx, org, it.endpoint))
    const p = policies.get(key)!
    const status = it.problem ? 'failed' : p.status
    const id = newId()
    const payload = { ...it.payload }
    if (it.noteField) payload[it.noteField] = [payload[it.noteField], `[${markerOf(id)}]`].filter((x) => typeof x === 'string' && x.trim()).join(' ')
    rows.push({ id, endpoint: it.endpoint, payload, marker: markerOf(id), label: it.label.slice(0, 300), sc: it.source?.collection ?? null, si: it.source?.id ?? null, status, ar: p.approverRole, msg: it.problem ?? null })
  }
  // set-based: one statement per 1,000 items (an action on thousands of plants), in the given order
  for (let i = 0; i < rows.length; i += 1000) {
    await tx.query(
      `INSERT INTO metrc_outbox (org, id, endpoint, payload, marker, label, source_collection, source_id, status, approver_role, message, created_by, updated_by)
       SELECT $1, x ->> 'id', x ->> 'endpoint', x -> 'payload', x ->> 'marker', x ->> 'label', x ->> 'sc', x ->> 'si', x ->> 'status', x ->> 'ar', x ->> 'msg', $3, $3
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(x, n) ORDER BY n`,
      [org, JSON.stringify(rows.slice(i, i + 1000)), actor.uid],
    )
  }
  return rows.map((r) => ({ id: String(r.id), status: r.status as QueuedItem['status'] }))
}
