/**
 * Issue 32, items 1 and 2, on both databases: a check cell's toggle goes through the one write path
 * (the SPEC §5 save rules refuse a plant marked dead without its disposal: nothing saved, nothing
 * queued for METRC, the edit form opens with the check set and the rule's message), and a form save
 * that did not touch a date-time keeps it exactly (seconds, milliseconds; Date and Created alike).
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import type { SignedIn } from '#app/auth/require.server'
import { loadEnv } from '#app/config/env.server'
import { findRoute } from '#app/route-map'
import { loadEdit, saveRecord } from '#app/screens/record-edit.server'
import { toggleCheck } from '#app/screens/table-actions.server'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
const silent = pino({ level: 'silent' })
const context = () => ({ database: t, logger: silent, requestId: 'floor', env: loadEnv({ DATA_DIR: tmpDir() }) }) as unknown as AppLoadContext
const admin = { uid: 'u-admin', email: 'admin@x.test', role: 'admin', org: 'greenleaf' } as SessionUser
const s = { id: 'sess', user: admin, session: { orig_uid: 'u-admin', id_hash: 'h', facility: 'greenleaf' } } as unknown as SignedIn
const actor = { uid: 'fixture' }
const outbox = async (id: string) => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM metrc_outbox WHERE source_id = $1', [id])).rows[0].n
const audits = async (id: string) => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE doc_id = $1', [id])).rows[0].n

/** The form post a browser makes from the values the edit form opened with (measures as name.qty / name.unit). */
function postOf(values: Record<string, unknown>, change: Record<string, string>, ts: string | null): FormData {
  const fd = new FormData()
  for (const [k, v] of Object.entries({ ...values, ...change })) {
    if (Array.isArray(v)) for (const x of v) fd.append(k, typeof x === 'object' ? JSON.stringify(x) : String(x))
    else if (v && typeof v === 'object') for (const [sub, y] of Object.entries(v)) fd.append(`${k}.${sub}`, String(y))
    else fd.append(k, String(v ?? ''))
  }
  if (ts) fd.set('__ts', ts)
  return fd
}

beforeAll(async () => {
  t = await openTestDatabase()
  await seedDemo(t, loadEnv({ DATA_DIR: tmpDir() }), { force: true })
}, 180_000)
afterAll(async () => {
  await t?.cleanup()
})

describe('a check cell runs the save rules', () => {
  it('Mark As Dead without waste method, mix material and dead weight saves nothing and opens the form for them', async () => {
    const [plant] = await t.store.find('greenleaf', 'fac_plants', { mark_as_dead: 'no' }, 1)
    const row = await t.store.update(actor, 'greenleaf', 'fac_plants', plant._id, { waste_method: null, mix_material: null, dead_weight: null, ed: 'yes' })
    const auditsBefore = await audits(plant._id)
    const form = new FormData()
    for (const [k, v] of Object.entries({ id: plant._id, field: 'mark_as_dead', value: 'yes', ts: String(row.ts) })) form.set(k, v)
    const route = findRoute('/culPlants')!
    const out = await toggleCheck(context(), s, route, 'greenleaf', new URL('http://x/culPlants?col=tag&q=1A4'), form)
    expect(out).toEqual({ saved: false, form: `/culPlants/${plant._id}/edit?col=tag&q=1A4&set.mark_as_dead=yes`, message: 'Waste Method, Mix Material and Dead Weight should all be specified' })
    const now = await t.store.get('greenleaf', 'fac_plants', plant._id)
    expect(now).toMatchObject({ mark_as_dead: 'no', ts: row.ts })
    expect(await outbox(plant._id)).toBe(0)
    expect(await audits(plant._id)).toBe(auditsBefore)

    // the form it opens: the check already set, the rule's words, back to the table's view without the preset
    const edit = await loadEdit(context(), s, route, 'greenleaf', new URL(`http://x${out.saved ? '' : out.form}`), plant._id)
    expect(edit.values.mark_as_dead).toBe('yes')
    expect(edit.need).toBe('Waste Method, Mix Material and Dead Weight should all be specified')
    expect(edit.back).toBe('/culPlants?col=tag&q=1A4')
    // without the preset the same form is the plain edit form
    const plain = await loadEdit(context(), s, route, 'greenleaf', new URL('http://x/culPlants'), plant._id)
    expect(plain).toMatchObject({ need: null, values: { mark_as_dead: 'no' } })
  })

  it('a toggle the rules accept is saved, audited, as before', async () => {
    const [w] = await t.store.find('greenleaf', 'fac_waste', {}, 1)
    const row = await t.store.update(actor, 'greenleaf', 'fac_waste', w._id, { reported: 'no', ed: 'yes' })
    const form = new FormData()
    for (const [k, v] of Object.entries({ id: w._id, field: 'reported', value: 'yes', ts: String(row.ts) })) form.set(k, v)
    expect(await toggleCheck(context(), s, findRoute('/culWaste')!, 'greenleaf', new URL('http://x/culWaste'), form)).toEqual({ saved: true })
    expect((await t.store.get('greenleaf', 'fac_waste', w._id))?.reported).toBe('yes')
  })
})

describe('an unchanged date-time is never rewritten', () => {
  it('a waste record whose Date and Created have seconds keeps them exactly when only its notes change', async () => {
    const [w] = await t.store.find('greenleaf', 'fac_waste', {}, 3)
    const wasteDate = '2026-11-20T16:41:24.000Z'
    const cts = '2026-11-20T16:38:47.000Z'
    await t.store.update(actor, 'greenleaf', 'fac_waste', w._id, { wasteDate, cts, ed: 'yes' }, { allowCts: true })
    const before = (await t.store.get('greenleaf', 'fac_waste', w._id))!
    const route = findRoute('/culWaste')!
    const url = new URL('http://x/culWaste')
    const edit = await loadEdit(context(), s, route, 'greenleaf', url, w._id)
    // shown as stored, to the second, in the facility's zone
    expect(String(edit.values.wasteDate)).toMatch(/:41:24$/)
    expect(String(edit.values.cts)).toMatch(/:38:47$/)
    const out = await saveRecord(context(), s, route, 'greenleaf', url, w._id, postOf(edit.values, { notes: 'only the notes' }, edit.ts))
    expect(out.ok).toBe(true)
    const after = (await t.store.get('greenleaf', 'fac_waste', w._id))!
    expect(after.notes).toBe('only the notes')
    expect(after.wasteDate).toBe(before.wasteDate)
    expect(new Date(String(after.wasteDate)).toISOString()).toBe(wasteDate)
    expect(new Date(String(after.cts)).toISOString()).toBe(cts)
  })

  it('a date-time the user changes is still held to the 5-minute step', async () => {
    const [w] = await t.store.find('greenleaf', 'fac_waste', {}, 3)
    const route = findRoute('/culWaste')!
    const url = new URL('http://x/culWaste')
    const edit = await loadEdit(context(), s, route, 'greenleaf', url, w._id)
    const out = await saveRecord(context(), s, route, 'greenleaf', url, w._id, postOf(edit.values, { wasteDate: '2026-11-21T09:07' }, edit.ts))
    expect(out.ok).toBe(false)
    expect(out.ok ? null : out.reply.error?.wasteDate).toEqual(['Date must be on a 5-minute step, like 2:05 or 2:10'])
  })
})
