/**
 * Finding drift (issue 9 item 7), run after each good sync of a compared Metrc table: every Canopy
 * record whose tag METRC also has is read beside METRC's record (one join in SQL), each field of
 * the pair compared (tables.ts), and the differences kept in metrc_drift:
 *   - a new difference opens a row, with the last value both sides agreed on (metrc_drift_base);
 *   - an open row follows the values while they still differ, and is cleared when they agree;
 *   - a resolved row stays resolved while both values are what they were when a person chose a
 *     side (so a push still on its way does not come back); a new value on either side opens a
 *     new row, and so does any difference once the sides were seen agreeing after the decision
 *     (settled_at).
 * Where the sides agree, the agreed value becomes the baseline. All of it in one transaction.
 */
import type { Queryable } from '../../db/driver.server'
import type { Database } from '../../db/index.server'
import { tableOf } from '../../db/sql'
import { newId } from '../../utils/ids'
import { driftTablesOf, sameValue, type DriftTable, type Lookups } from './tables'

type Rec = Record<string, unknown> & { _id: string }

export interface DriftCheck {
  table: string
  pairs: number
  open: number
  opened: number
  cleared: number
}

const key = (tag: string, field: string) => `${tag}\u0000${field}`

/** The facility's rooms and strains, for reading and writing values by name. */
export async function lookups(q: Queryable, org: string): Promise<Lookups> {
  const rooms = await q.query<{ id: string; name: string | null; used: string | null }>(`SELECT id, doc->>'name' AS name, doc->>'IsUsed' AS used FROM ${tableOf('set_rooms')} WHERE org = $1 ORDER BY id`, [org])
  const strains = await q.query<{ id: string; name: string | null; metrc: string | null; used: string | null }>(`SELECT id, doc->>'name' AS name, doc->>'metrc_name' AS metrc, doc->>'IsUsed' AS used FROM ${tableOf('set_strains')} WHERE org = $1 ORDER BY id`, [org])
  const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '')
  const roomById = new Map(rooms.rows.map((r) => [r.id, r.name?.trim() || null]))
  const strainById = new Map(strains.rows.map((r) => [r.id, r.metrc?.trim() || r.name?.trim() || null]))
  // by name: an active record first
  const byName = <T extends { id: string; used: string | null }>(rows: T[], names: (r: T) => Array<string | null>) => {
    const m = new Map<string, string>()
    for (const r of [...rows.filter((x) => x.used !== 'no'), ...rows.filter((x) => x.used === 'no')]) for (const n of names(r)) if (n && !m.has(norm(n))) m.set(norm(n), r.id)
    return m
  }
  const roomIds = byName(rooms.rows, (r) => [r.name])
  const strainIds = byName(strains.rows, (r) => [r.metrc, r.name])
  return {
    roomName: (id) => (typeof id === 'string' ? roomById.get(id) ?? null : null),
    roomId: (name) => roomIds.get(norm(name)) ?? null,
    strainName: (id) => (typeof id === 'string' ? strainById.get(id) ?? null : null),
    strainId: (name) => strainIds.get(norm(name)) ?? null,
  }
}

/** Canopy's records and METRC's with the same tag: the active Canopy record, METRC's synced one, when a tag has several. */
export async function pairsOf(q: Queryable, org: string, t: DriftTable, tag?: string): Promise<Array<{ rec: Rec; doc: Rec }>> {
  const r = await q.query<{ rid: string; rdoc: Record<string, unknown>; mid: string; mdoc: Record<string, unknown> }>(
    `SELECT DISTINCT ON (p.doc->>'${t.tagField}') p.id AS rid, p.doc AS rdoc, m.id AS mid, m.doc AS mdoc
       FROM ${tableOf(t.canopy)} p JOIN ${tableOf(t.metrc)} m ON m.org = p.org AND m.doc->>'${t.labelField}' = p.doc->>'${t.tagField}'
      WHERE p.org = $1 AND coalesce(p.doc->>'${t.tagField}', '') <> '' ${tag === undefined ? '' : `AND p.doc->>'${t.tagField}' = $2`}
      ORDER BY p.doc->>'${t.tagField}', (coalesce(p.doc->>'IsUsed', '') = 'no'), p.ts DESC, (m.doc ? 'MetrcId') DESC, m.ts DESC`,
    tag === undefined ? [org] : [org, tag],
  )
  return r.rows.map((x) => ({ rec: { ...x.rdoc, _id: x.rid }, doc: { ...x.mdoc, _id: x.mid } }))
}

/** The differences of one pair, field by field (only the fields compared for it). */
export function differences(t: DriftTable, rec: Rec, doc: Rec, lk: Lookups): Array<{ field: string; canopy: string | null; metrc: string | null }> {
  const out: Array<{ field: string; canopy: string | null; metrc: string | null }> = []
  for (const f of t.fields) {
    if (f.applies && !f.applies(rec, doc, lk)) continue
    const c = f.canopy(rec, lk, doc)
    const m = f.metrc(doc)
    out.push({ field: f.key, canopy: c, metrc: m })
  }
  return out
}

type OpenRow = { id: string; tag: string; field: string; record_id: string; metrc_doc: string; canopy_value: string | null; synced_value: string | null; metrc_value: string | null }

/** Compares one table of one facility and brings metrc_drift up to date. */
export async function checkDrift(database: Database, org: string, t: DriftTable): Promise<DriftCheck> {
  return database.db.transaction(async (tx) => {
    const lk = await lookups(tx, org)
    const pairs = await pairsOf(tx, org, t)
    const base = new Map((await tx.query<{ tag: string; vals: Record<string, string | null> }>('SELECT tag, vals FROM metrc_drift_base WHERE org = $1 AND tbl = $2', [org, t.key])).rows.map((r) => [r.tag, r.vals]))
    const open = new Map((await tx.query<OpenRow>(`SELECT id, tag, field, record_id, metrc_doc, canopy_value, synced_value, metrc_value FROM metrc_drift WHERE org = $1 AND tbl = $2 AND status = 'open'`, [org, t.key])).rows.map((r) => [key(r.tag, r.field), r]))
    // the latest decision per field that has not yet been seen in effect
    const lastResolved = new Map(
      (await tx.query<{ id: string; tag: string; field: string; canopy_value: string | null; metrc_value: string | null; status: string; settled_at: unknown }>(
        `SELECT DISTINCT ON (tag, field) id, tag, field, canopy_value, metrc_value, status, settled_at FROM metrc_drift WHERE org = $1 AND tbl = $2 AND status <> 'open' ORDER BY tag, field, resolved_at DESC NULLS LAST, detected_at DESC`,
        [org, t.key],
      )).rows.filter((r) => r.status === 'resolved' && r.settled_at === null).map((r) => [key(r.tag, r.field), r]),
    )
    const settled: string[] = []
    const inserts: Array<Record<string, unknown>> = []
    const newBase: Array<{ tag: string; vals: Record<string, string | null> }> = []
    const seen = new Set<string>()
    let opened = 0
    for (const { rec, doc } of pairs) {
      const tag = String(rec[t.tagField])
      const was = base.get(tag) ?? {}
      const vals: Record<string, string | null> = { ...was }
      for (const d of differences(t, rec, doc, lk)) {
        if (sameValue(d.canopy, d.metrc)) {
          vals[d.field] = d.metrc
          const done = lastResolved.get(key(tag, d.field))
          if (done) settled.push(done.id)
          continue
        }
        const k = key(tag, d.field)
        seen.add(k)
        const synced = was[d.field] ?? null
        const row = open.get(k)
        if (row) {
          if (row.canopy_value !== d.canopy || row.metrc_value !== d.metrc || row.record_id !== rec._id || row.metrc_doc !== doc._id || row.synced_value !== synced)
            await tx.query(`UPDATE metrc_drift SET canopy_value = $3, metrc_value = $4, synced_value = $5, record_id = $6, metrc_doc = $7, updated_at = now() WHERE org = $1 AND id = $2 AND status = 'open'`, [org, row.id, d.canopy, d.metrc, synced, rec._id, doc._id])
          continue
        }
        const done = lastResolved.get(k)
        if (done && done.canopy_value === d.canopy && done.metrc_value === d.metrc) continue
        inserts.push({ id: newId(), tag, field: d.field, record_id: rec._id, metrc_doc: doc._id, canopy_value: d.canopy, synced_value: synced, metrc_value: d.metrc })
      }
      if (JSON.stringify(vals) !== JSON.stringify(was)) newBase.push({ tag, vals })
    }
    for (let i = 0; i < inserts.length; i += 500) {
      const r = await tx.query(
        `INSERT INTO metrc_drift (org, id, tbl, tag, field, record_id, metrc_doc, canopy_value, synced_value, metrc_value)
         SELECT $1, x->>'id', $2, x->>'tag', x->>'field', x->>'record_id', x->>'metrc_doc', x->>'canopy_value', x->>'synced_value', x->>'metrc_value' FROM jsonb_array_elements($3::jsonb) x
         ON CONFLICT (org, tbl, tag, field) WHERE status = 'open' DO NOTHING`,
        [org, t.key, JSON.stringify(inserts.slice(i, i + 500))],
      )
      opened += r.rowCount
    }
    const gone = [...open.entries()].filter(([k]) => !seen.has(k)).map(([, r]) => r.id)
    if (gone.length) await tx.query(`UPDATE metrc_drift SET status = 'cleared', resolved_at = now(), resolved_by = 'metrc-sync', updated_at = now() WHERE org = $1 AND id = ANY($2::text[]) AND status = 'open'`, [org, gone])
    if (settled.length) await tx.query(`UPDATE metrc_drift SET settled_at = now() WHERE org = $1 AND id = ANY($2::text[])`, [org, settled])
    for (let i = 0; i < newBase.length; i += 500) {
      await tx.query(
        `INSERT INTO metrc_drift_base (org, tbl, tag, vals, at) SELECT $1, $2, x->>'tag', x->'vals', now() FROM jsonb_array_elements($3::jsonb) x
         ON CONFLICT (org, tbl, tag) DO UPDATE SET vals = EXCLUDED.vals, at = now()`,
        [org, t.key, JSON.stringify(newBase.slice(i, i + 500))],
      )
    }
    const n = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM metrc_drift WHERE org = $1 AND tbl = $2 AND status = 'open'`, [org, t.key])
    return { table: t.key, pairs: pairs.length, open: n.rows[0].n, opened, cleared: gone.length }
  })
}

/** After a good sync of a Metrc collection: the drift of every compared table it feeds. A failure is logged, never the sync's. */
export async function driftAfterSync(database: Database, org: string, collection: string, logger: { warn: (o: object, m: string) => void }): Promise<DriftCheck[]> {
  const out: DriftCheck[] = []
  for (const t of driftTablesOf(collection)) {
    try {
      out.push(await checkDrift(database, org, t))
    } catch (e) {
      logger.warn({ org, table: t.key, err: (e as Error).message }, 'METRC drift check failed')
    }
  }
  return out
}
