/**
 * Bulk edit (issue 31 item 4, decision 072) on both databases: the room of 50 plants set in one
 * transaction (audit rows and METRC location pushes for exactly the rows that changed), previewed
 * first; a bad value, a save rule or a locked row refuses the whole action and changes nothing.
 */
import type { SessionUser } from '#app/auth/entitlements'
import { loadEnv } from '#app/config/env.server'
import { GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { DEMO_USER_KEY } from '#app/metrc/emulator/model'
import { saveLink } from '#app/metrc/sync/links.server'
import { BULK_EDIT, bulkFields } from '#app/records/bulk-edit.server'
import { actionContext, rowActionOf, runRowAction } from '#app/records/row-actions.server'
import type { Doc } from '#app/db/types'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let emu: RunningEmulator
let t: TestDatabase
const ORG = 'greenleaf'
const user = { uid: 'u-bulk', email: 'bulk@x.test', role: 'user', org: ORG } as SessionUser
const ctx = () => actionContext(t.store, ORG, ORG, user, { uid: 'u-bulk', requestId: 'bulk' }, 'America/Los_Angeles')
const input = (o: Record<string, string>) => {
  const f = new URLSearchParams(o)
  return { get: (k: string) => (f.get(k) ?? '').trim(), getAll: (k: string) => f.getAll(k) }
}
const bulk = (rows: Doc[], o: Record<string, string>, canEdit: (r: Doc) => boolean = () => true) =>
  runRowAction(ctx(), { collection: 'fac_plants', key: BULK_EDIT.key, ids: rows.map((r) => r._id), stamp: '', input: input(o), canEdit })
const count = async (sql: string, params: unknown[] = [ORG]) => Number((await t.db.query<{ n: string }>(sql, params)).rows[0].n)
const audits = () => count(`SELECT count(*) AS n FROM audit_log WHERE org = $1 AND collection = 'fac_plants' AND uid = 'u-bulk'`)
const roomId = async (name: string) => (await t.store.find(ORG, 'set_rooms', { name }, 1))[0]._id
const plants = async () => (await t.store.page(ORG, 'fac_plants', { offset: 0, limit: 50, sort: { key: 'tag', dir: 'asc' }, activeOnly: true })).rows

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 10, packages: 2 } })
  t = await openTestDatabase()
  const env = { ...loadEnv({ DATA_DIR: tmpDir() }), METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
  await seedDemo(t, env, { force: true })
  await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin' }, ORG, { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
}, 120_000)
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})

describe('bulk edit', () => {
  it('offers the scalar fields one value can set, never the tag, and every editable table has it', async () => {
    const schema = (await t.store.schemas.get('fac_plants'))!
    const keys = bulkFields(schema).map((f) => f.key)
    expect(keys).toEqual(expect.arrayContaining(['room', 'strain', 'phase', 'mark_as_dead', 'notes']))
    expect(keys).not.toContain('tag')
    expect(keys).not.toContain('dead_weight')
    expect(rowActionOf('fac_harvests', BULK_EDIT.key)).toBeDefined()
    const rows = await plants()
    const ask = await rowActionOf('fac_plants', BULK_EDIT.key)!.ask!(ctx(), rows)
    const room = ask.find((a) => a.key === 'bulk.room')!
    expect(room).toMatchObject({ kind: 'select', blank: 'Leave unchanged' })
    expect(room.options!.map((o) => o.label)).toContain('Flower Room 2')
  })

  it('sets the room of 50 plants in one transaction, previewed first: audit rows and METRC location pushes for the rows that changed', async () => {
    const rows = await plants()
    expect(rows).toHaveLength(50)
    const target = await roomId('Flower Room 2')
    const already = rows.filter((r) => r.room === target).length
    const def = rowActionOf('fac_plants', BULK_EDIT.key)!
    const preview = await def.describe(ctx(), rows, input({ 'bulk.room': target }))
    expect(preview).toEqual([`Room → Flower Room 2 on 50 rows${already ? ` (${already} already ${already === 1 ? 'has' : 'have'} it)` : ''}.`])
    const [a0, o0] = [await audits(), await count(`SELECT count(*) AS n FROM metrc_outbox WHERE org = $1 AND endpoint LIKE '%/plants/v2/location%'`)]

    const message = await bulk(rows, { 'bulk.room': target, 'bulk.notes': '' })
    expect(message).toBe(`Room → Flower Room 2: ${50 - already} of 50 rows changed${already ? ` (${already} already had it)` : ''}.`)
    const after = await Promise.all(rows.map((r) => t.store.get(ORG, 'fac_plants', r._id)))
    expect(after.every((r) => r?.room === target)).toBe(true)
    // untouched fields stay as they were
    expect(after.map((r) => r?.notes ?? null)).toEqual(rows.map((r) => r.notes ?? null))
    expect(await audits()).toBe(a0 + 50 - already)
    const pushed = (await t.db.query<{ source_id: string }>(`SELECT source_id FROM metrc_outbox WHERE org = $1 AND endpoint LIKE '%/plants/v2/location%' ORDER BY seq`, [ORG])).rows.slice(o0)
    expect(pushed.map((p) => p.source_id).sort()).toEqual(rows.filter((r) => r.room !== target).map((r) => r._id).sort())
  })

  it('refuses bad values, a save rule on any row, or a locked row: nothing changes', async () => {
    const rows = (await plants()).slice(0, 5)
    const a0 = await audits()
    await expect(bulk(rows, {})).rejects.toThrow('Choose a value for at least one field')
    await expect(bulk(rows, { 'bulk.room': 'no-such-room' })).rejects.toThrow('Room: choose one of the listed records. Nothing was changed.')
    // the preview says it, with what was typed kept on the page
    const def = rowActionOf('fac_plants', BULK_EDIT.key)!
    expect(await def.describe(ctx(), rows, input({ 'bulk.room': 'no-such-room' }))).toEqual(['Room: choose one of the listed records. Nothing was changed.'])
    expect((await def.ask!(ctx(), rows, input({ 'bulk.room': 'no-such-room' }))).find((a) => a.key === 'bulk.room')?.value).toBe('no-such-room')
    await expect(bulk(rows, { 'bulk.phase': 'Sprouting' })).rejects.toThrow(/Growth Phase/)
    // a dead plant needs how it was destroyed (SPEC §5): the preview names the rows, the action refuses them all
    const preview = await rowActionOf('fac_plants', BULK_EDIT.key)!.describe(ctx(), rows, input({ 'bulk.mark_as_dead': 'yes' }))
    expect(preview[1]).toContain('5 of the rows would be refused by the table\'s rules')
    await expect(bulk(rows, { 'bulk.mark_as_dead': 'yes' })).rejects.toThrow('Waste Method, Mix Material and Dead Weight should all be specified')
    await expect(bulk(rows, { 'bulk.room': await roomId('Veg Room 1') }, (r) => r._id !== rows[2]._id)).rejects.toThrow('locked against changes')
    expect(await audits()).toBe(a0)
    const now = await Promise.all(rows.map((r) => t.store.get(ORG, 'fac_plants', r._id)))
    expect(now.map((r) => r?.ts)).toEqual(rows.map((r) => r.ts))
  })
})
