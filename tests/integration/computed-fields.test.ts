/**
 * SPEC §2.6 `function` fields on both databases: the seeded Harvests' Dry Yield (% of wet) is
 * computed by the store on every path that writes (the seed, the write path the form and the API
 * share, a row action), recomputed only when an input changes, and never taken as typed.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import { loadEnv } from '#app/config/env.server'
import { actionContext, runRowAction } from '#app/records/row-actions.server'
import { createRecord, updateRecord } from '#app/records/write.server'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const ORG = 'greenleaf'
let t: TestDatabase
const context = () => ({ database: t, logger: pino({ level: 'silent' }), requestId: 'fn' }) as unknown as AppLoadContext
const user = { uid: 'u-fn', email: 'fn@x.test', role: 'user', org: ORG, props: { modules: { [ORG]: ['cul'] } } } as unknown as SessionUser
const w = { user, actor: { uid: 'u-fn' }, facility: ORG }
const auditCount = async (id: string) => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log WHERE org = $1 AND doc_id = $2', [ORG, id])).rows[0].n)

beforeAll(async () => {
  t = await openTestDatabase()
  await seedDemo(t, loadEnv({ DATA_DIR: tmpDir() }), { force: true })
}, 120_000)
afterAll(async () => {
  await t?.cleanup()
})

describe('a computed field (Harvests: Dry Yield, % of wet)', () => {
  it('the seeded harvests carry it, computed from their own weights', async () => {
    const rows = await t.store.find(ORG, 'fac_harvests', {}, 100)
    const weighed = rows.filter((h) => (h.dryWeight as { qty?: number })?.qty && (h.wetWeight as { qty?: number })?.qty)
    expect(weighed.length).toBeGreaterThan(0)
    for (const h of weighed) {
      const grams = (m: unknown) => {
        const { qty, unit } = m as { qty: number; unit: string }
        return qty * ({ g: 1, kg: 1000, oz: 28.3495, lb: 453.592 } as Record<string, number>)[unit]
      }
      expect(h.dryYield).toBe(Math.round((grams(h.dryWeight) / grams(h.wetWeight)) * 1000) / 10)
    }
  })

  it('a create computes it (oz over lb), an edit of another field leaves it, an edit of a weight recomputes it', async () => {
    const r = await createRecord(context(), w, 'fac_harvests', { name: 'H-FN-1', wetWeight: { qty: 2, unit: 'lb' }, dryWeight: { qty: 8, unit: 'oz' }, harvested: '2026-12-01T16:00:00.000Z' }, { anyMinute: true })
    expect(r.doc).toMatchObject({ dryYield: 25 })
    const id = r.doc!._id
    const u1 = await updateRecord(context(), w, 'fac_harvests', id, { notes: 'checked' }, { partial: true })
    expect(u1.doc).toMatchObject({ dryYield: 25, notes: 'checked' })
    const u2 = await updateRecord(context(), w, 'fac_harvests', id, { dryWeight: { qty: 6, unit: 'oz' } }, { partial: true })
    expect(u2.doc).toMatchObject({ dryYield: 18.8 })
    // the audit row of the weight change holds the new result beside the new weight
    const last = (await t.db.query<{ after: Record<string, unknown> }>('SELECT after FROM audit_log WHERE org = $1 AND doc_id = $2 ORDER BY seq DESC LIMIT 1', [ORG, id])).rows[0]
    expect(last.after).toMatchObject({ dryYield: 18.8, dryWeight: { qty: 6, unit: 'oz' } })
    // a blank input makes the result blank, not 0
    const u3 = await updateRecord(context(), w, 'fac_harvests', id, { dryWeight: null }, { partial: true })
    expect(u3.doc?.dryYield).toBeNull()
  })

  it('a typed value is refused with the field named, and nothing changes', async () => {
    const r = await createRecord(context(), w, 'fac_harvests', { name: 'H-FN-2', wetWeight: { qty: 1000, unit: 'g' }, dryWeight: { qty: 200, unit: 'g' }, harvested: '2026-12-01T16:00:00.000Z' }, { anyMinute: true })
    const id = r.doc!._id
    const n = await auditCount(id)
    await expect(updateRecord(context(), w, 'fac_harvests', id, { dryYield: 99 }, { partial: true })).rejects.toMatchObject({ problems: [{ field: 'dryYield', message: 'Dry Yield (% of wet) is read-only' }] })
    await expect(createRecord(context(), w, 'fac_harvests', { name: 'H-FN-3', dryYield: 50 })).rejects.toMatchObject({ problems: [{ field: 'dryYield', message: 'Dry Yield (% of wet) is read-only' }] })
    expect((await t.store.get(ORG, 'fac_harvests', id))?.dryYield).toBe(20)
    expect(await auditCount(id)).toBe(n)
  })

  it("a row action that sets a weight (Record dry weight) recomputes it in the action's transaction", async () => {
    const r = await createRecord(context(), w, 'fac_harvests', { name: 'H-FN-4', wetWeight: { qty: 4000, unit: 'g' }, harvested: '2026-12-01T16:00:00.000Z', status: 'Drying' }, { anyMinute: true })
    expect(r.doc?.dryYield).toBeNull()
    const input = new URLSearchParams({ dry: '1000', unit: 'g', date: '2026-12-02' })
    const ctx = actionContext(t.store, ORG, ORG, user, { uid: 'u-fn', requestId: 'fn' }, 'America/Los_Angeles')
    await runRowAction(ctx, { collection: 'fac_harvests', key: 'dry', ids: [r.doc!._id], stamp: '', input: { get: (k) => (input.get(k) ?? '').trim(), getAll: (k) => input.getAll(k) }, canEdit: () => true })
    expect(await t.store.get(ORG, 'fac_harvests', r.doc!._id)).toMatchObject({ dryWeight: { qty: 1000, unit: 'g' }, dryYield: 25 })
  })
})
