/**
 * Scenario "rows" (issue 23, decision 038): moving 5,000 plants to another room in one row action
 * (runRowAction: lock the rows, the stale check, the save rules on every row, the set-based UPDATE
 * with its audit rows, the planners' look at METRC) against one hand-written set-based UPDATE of the
 * same rows with their audit rows in the same statement. Target: within 3×. Each iteration moves
 * every plant to the other of two rooms, so both sides change 5,000 rows each time. The facility is
 * not linked to METRC (the baseline queues nothing either); a second row, linked, adds the 5,000
 * outbox items and has no target. `BENCH_ROW_ACTION_PLANTS` changes the size.
 */
import type { SessionUser } from '../app/auth/entitlements'
import { installServerAreas } from '../app/areas/index.server'
import { loadEnv } from '../app/config/env.server'
import { actionContext, runRowAction } from '../app/records/row-actions.server'
import { ensurePlatform } from '../app/seed/index.server'
import { comparePair, type BenchRow, type Scenario, type Stats } from './lib'

const PLANTS = Number(process.env.BENCH_ROW_ACTION_PLANTS ?? 5_000)
const NONE: Stats = { p50: NaN, p95: NaN, n: 0 }

export const rowActionsScenario: Scenario = {
  name: 'rows',
  legend: [
    `rows: move ${PLANTS.toLocaleString('en-US')} plants to another room in one row action (store) vs one hand-written UPDATE … with the audit rows in the same statement (hand); target <=3x at p50.`,
    'rows (linked): the same action in a facility linked to METRC, with its outbox items (one PUT /plants/v2/location each); no target.',
  ],
  async run(ctx) {
    installServerAreas()
    const rows: BenchRow[] = []
    const iterations = Math.max(6, Math.min(20, ctx.secondaryIterations))
    for (const engine of ctx.engines) {
      const { database } = engine
      await ensurePlatform(database, loadEnv({ DATA_DIR: '/tmp', LOG_LEVEL: 'warn' }))
      for (const linked of [false, true]) {
        const org = `bench-rows-${linked ? 'l' : 'u'}-${Date.now().toString(36)}`
        const actor = { uid: 'bench', requestId: 'bench' }
        const rooms = await Promise.all(['Veg Bench', 'Flower Bench'].map(async (name) => (await database.store.insert(actor, org, 'set_rooms', { name })).
          _id))
        const ids = Array.from({ length: PLANTS }, (_, i) => `bp${String(i).padStart(6, '0')}`)
        await database.store.insertMany(actor, org, 'fac_plants', ids.map((id, i) => ({ _id: id, tag: `1A4BENCH${String(i).padStart(16, '0')}`, room: rooms[0], phase: 'Vegetative', alive: 'yes' })))
        if (linked) await database.db.query(`INSERT INTO metrc_links (org, state, license, key_sealed, status, updated_by) VALUES ($1, 'CA', 'BENCH', 'x', 'ok', 'bench') ON CONFLICT DO NOTHING`, [org]).catch((e: Error) => ctx.log(`rows: could not link (${e.message})`))
        const user = { uid: 'bench', email: 'bench@x.test', role: 'admin', org } as SessionUser
        const c = actionContext(database.store, org, org, user, actor, 'America/Los_Angeles')
        let a = 1
        let b = 0
        const action = async () => {
          const room = rooms[a++ % 2]
          await runRowAction(c, { collection: 'fac_plants', key: 'move', ids, stamp: '', input: { get: (k) => (k === 'room' ? room : ''), getAll: () => [] }, canEdit: () => true })
        }
        const hand = async () => {
          const room = rooms[b++ % 2]
          await database.db.transaction(async (tx) => {
            await tx.query(
              `WITH cur AS (SELECT id, doc, cts, ts FROM c_fac_plants WHERE org = $1 AND id = ANY($2::text[]) FOR UPDATE),
               up AS (UPDATE c_fac_plants c SET doc = jsonb_set(c.doc, '{room}', to_jsonb($3::text)), ts = now() FROM cur WHERE c.org = $1 AND c.id = cur.id RETURNING c.id, c.doc, c.cts, c.ts)
               INSERT INTO audit_log (org, collection, doc_id, action, uid, orig_uid, request_id, before, after)
               SELECT $1, 'fac_plants', up.id, 'update', 'bench', 'bench', 'bench', cur.doc, up.doc FROM up JOIN cur ON cur.id = up.id`,
              [org, ids, room],
            )
          })
        }
        ctx.log(`rows: moving ${PLANTS} plants on ${engine.name}${linked ? ' (linked to METRC)' : ''}…`)
        const r = await comparePair(action, hand, { iterations, warmup: 2, budgetSec: ctx.rowBudgetSec })
        const queued = linked ? Number((await database.db.query<{ n: string }>('SELECT count(*) AS n FROM metrc_outbox WHERE org = $1', [org])).rows[0].n) : 0
        const ratio = r.a.p50 / r.b.p50
        rows.push({
          scenario: `rows: move ${PLANTS} plants${linked ? ' (linked)' : ''}`,
          engine: engine.name,
          docs: PLANTS,
          store: r.a,
          hand: linked ? NONE : r.b,
          target: linked ? '-' : '<=3x',
          met: linked ? null : ratio <= 3,
          notes: [linked ? `rows (linked, ${engine.name}): ${queued.toLocaleString('en-US')} outbox items queued over ${r.a.n + 2} actions; the unlinked hand-written UPDATE took p50 ${r.b.p50.toFixed(0)} ms` : `rows (${engine.name}): action/hand = ${ratio.toFixed(2)}x at p50`],
        })
        await database.db.query('DELETE FROM metrc_outbox WHERE org = $1', [org])
        await database.db.query('DELETE FROM metrc_links WHERE org = $1', [org])
        await database.db.query('DELETE FROM c_fac_plants WHERE org = $1', [org])
        await database.db.query('DELETE FROM c_set_rooms WHERE org = $1', [org])
      }
    }
    return rows
  },
}
