/**
 * Saved views on both databases (decision 073): the name's rules, the view kept as its canonical
 * settings, privacy across users and facilities, who may change a shared view, pins, the audit
 * rows, and a view naming a column the table no longer has opening with a notice that names it.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import { loadEnv } from '#app/config/env.server'
import { findRoute } from '#app/route-map'
import { changeView, findView, listViews, pinnedViews, saveView, type ViewUser } from '#app/screens/saved-views.server'
import { readView } from '#app/screens/table-page.server'
import { parseListQuery } from '#app/screens/table-query'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
const SCREEN = '/CulPlants'
const silent = pino({ level: 'silent' })
const context = () => ({ database: t, logger: silent, requestId: 'views' }) as unknown as AppLoadContext

function as(uid: string, role: 'user' | 'admin' | 'super' = 'user', facility = 'greenleaf'): ViewUser {
  const user = { uid, email: `${uid}@x.test`, role, org: facility } as SessionUser
  return { user, facility, actor: { uid, requestId: 'views' } }
}
const maria = as('u-maria')
const james = as('u-james')
const boss = as('u-boss', 'admin')
const harborAdmin = as('u-harbor', 'admin', 'harbor')

const q = (s: string) => parseListQuery(new URLSearchParams(s)).query
const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: string }>(sql, params)).rows[0].n)
const names = async (vu: ViewUser, screen = SCREEN) => (await listViews(t, vu, screen)).map((v) => v.name)

async function save(vu: ViewUser, name: string, opts: { shared?: boolean; pinned?: boolean; query?: string; screen?: string } = {}) {
  const out = await saveView(t, vu, opts.screen ?? SCREEN, { name, query: q(opts.query ?? 'sort=tag'), shared: !!opts.shared, pinned: !!opts.pinned })
  if ('error' in out) throw new Error(out.error)
  return out.view
}

beforeAll(async () => {
  t = await openTestDatabase()
  await seedDemo(t, loadEnv({ DATA_DIR: tmpDir() }), { force: true })
}, 120_000)
afterAll(async () => {
  await t?.cleanup()
})

describe('saved views', () => {
  it('a name is required, trimmed and at most 60 characters; a refused save changes nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM saved_views')
    expect(await saveView(t, maria, SCREEN, { name: '   ', query: {}, shared: false, pinned: false })).toEqual({ error: 'Give the view a name.' })
    expect(await saveView(t, maria, SCREEN, { name: 7, query: {}, shared: false, pinned: false })).toEqual({ error: 'Give the view a name.' })
    expect(await saveView(t, maria, SCREEN, { name: 'x'.repeat(61), query: {}, shared: false, pinned: true })).toEqual({ error: "A view's name is at most 60 characters; this one has 61." })
    expect(await count('SELECT count(*) AS n FROM saved_views')).toBe(before)
    expect(await count('SELECT count(*) AS n FROM saved_view_pins')).toBe(0)
    const v = await save(maria, `  ${'y'.repeat(60)}  `)
    expect(v.name).toBe('y'.repeat(60))
  })

  it('keeps the settings of the view, canonical, without page, cursors, size or expanded rows', async () => {
    const v = await save(maria, 'Kush by tag', { query: 'open=a1&page=3&size=40&q=kush&col=strain&hide=notes&dir=desc&sort=tag&font=12' })
    expect(v.query).toBe('sort=tag&dir=desc&col=strain&q=kush&hide=notes&font=12')
    expect(v.href).toBe(`${SCREEN}?sort=tag&dir=desc&col=strain&q=kush&hide=notes&font=12`)
    expect(v).toMatchObject({ mine: true, shared: false, pinned: false, manage: true })
  })

  it('a private view is its owner’s alone: not listed, found, pinned, renamed or deleted by anyone else', async () => {
    const v = await save(maria, 'Mine only')
    expect(await names(maria)).toContain('Mine only')
    for (const other of [james, boss, harborAdmin]) {
      expect(await names(other)).not.toContain('Mine only')
      expect(await findView(t, other, v.id)).toBeNull()
      for (const change of [{ pin: true }, { rename: 'Taken' }, { share: true }, { remove: true as const }]) expect(await changeView(t, other, v.id, change)).toEqual({ error: 'There is no such view, or it is not yours to see.' })
    }
    expect(await pinnedViews(t, james.user.uid, 'greenleaf')).toEqual([])
    expect((await findView(t, maria, v.id))?.name).toBe('Mine only')
  })

  it('names are unique (ignoring case) among one owner’s private views and among a screen’s shared ones', async () => {
    await save(maria, 'Flowering')
    expect(await saveView(t, maria, SCREEN, { name: 'FLOWERING', query: {}, shared: false, pinned: false })).toEqual({ error: 'You already have a view named "FLOWERING" on this screen. Choose another name.' })
    // another person, another screen, or the shared list may use it
    await save(james, 'Flowering')
    await save(maria, 'Flowering', { screen: '/CulStrains' })
    await save(maria, 'Flowering', { shared: true })
    expect(await saveView(t, james, SCREEN, { name: 'flowering', query: {}, shared: true, pinned: false })).toEqual({ error: 'The facility already shares a view named "flowering" on this screen. Choose another name.' })
    // james's private "Flowering" cannot be shared under that name either, and stays private
    const jv = (await listViews(t, james, SCREEN)).find((v) => v.name === 'Flowering' && v.mine)!
    expect(await changeView(t, james, jv.id, { share: true })).toEqual({ error: 'The facility already shares a view named "Flowering" on this screen. Choose another name.' })
    expect((await findView(t, james, jv.id))?.shared).toBe(false)
  })

  it('a shared view: everyone of the facility sees and pins it; only its owner or an admin of the facility changes it; other facilities see nothing', async () => {
    const v = await save(maria, 'Veg room', { shared: true, query: 'sort=tag&hide=notes' })
    expect(await names(james)).toContain('Veg room')
    expect(await names(harborAdmin)).toEqual([])
    expect(await listViews(t, { user: maria.user, facility: 'harbor' }, SCREEN)).toEqual([])
    const seen = (await listViews(t, james, SCREEN)).find((x) => x.id === v.id)!
    expect(seen).toMatchObject({ mine: false, shared: true, manage: false })
    expect(await changeView(t, james, v.id, { rename: 'Hijacked' })).toEqual({ error: 'Only the owner of "Veg room" or an administrator of the facility may change it.' })
    expect(await changeView(t, james, v.id, { share: false })).toEqual({ error: 'Only the owner of "Veg room" or an administrator of the facility may change it.' })
    expect(await changeView(t, james, v.id, { remove: true })).toEqual({ error: 'Only the owner of "Veg room" or an administrator of the facility may change it.' })
    expect(await changeView(t, harborAdmin, v.id, { remove: true })).toEqual({ error: 'There is no such view, or it is not yours to see.' })
    // james pins it for himself: his drawer lists it, maria's does not
    expect(await changeView(t, james, v.id, { pin: true })).toMatchObject({ message: 'Pinned "Veg room" to the menu.' })
    expect(await pinnedViews(t, james.user.uid, 'greenleaf')).toEqual([{ id: v.id, screen: SCREEN, name: 'Veg room', href: `${SCREEN}?sort=tag&hide=notes` }])
    expect(await pinnedViews(t, maria.user.uid, 'greenleaf')).toEqual([])
    expect(await pinnedViews(t, james.user.uid, 'harbor')).toEqual([])
    // the facility's admin renames it; its owner takes it back to private: james's pin goes with it
    expect(await changeView(t, boss, v.id, { rename: '  Veg   room A ' })).toMatchObject({ message: 'Renamed the view to "Veg room A".' })
    expect(await changeView(t, maria, v.id, { share: false })).toMatchObject({ message: '"Veg room A" is no longer shared: only its owner sees it.' })
    expect(await names(james)).not.toContain('Veg room A')
    expect(await pinnedViews(t, james.user.uid, 'greenleaf')).toEqual([])
    // an admin cannot share someone's private view (nor see it)
    expect(await changeView(t, boss, v.id, { share: true })).toEqual({ error: 'There is no such view, or it is not yours to see.' })
    expect(await changeView(t, maria, v.id, { share: true })).toMatchObject({ message: 'Shared "Veg room A" with the facility.' })
    expect(await changeView(t, boss, v.id, { remove: true })).toMatchObject({ message: 'Deleted the view "Veg room A".' })
    expect(await findView(t, maria, v.id)).toBeNull()
  })

  it('pins are per user, and a deleted view leaves no pin behind', async () => {
    const v = await save(james, 'Pinned at save', { pinned: true })
    expect((await pinnedViews(t, james.user.uid, 'greenleaf')).map((p) => p.name)).toEqual(['Pinned at save'])
    expect((await changeView(t, james, v.id, { pin: false })) as { view: { pinned: boolean } }).toMatchObject({ view: { pinned: false } })
    expect(await pinnedViews(t, james.user.uid, 'greenleaf')).toEqual([])
    await changeView(t, james, v.id, { pin: true })
    await changeView(t, james, v.id, { remove: true })
    expect(await count('SELECT count(*) AS n FROM saved_view_pins WHERE view_id = $1', [v.id])).toBe(0)
  })

  it('every save, share, rename and delete is audited; the row keeps who created and last changed it', async () => {
    const v = await save(maria, 'Audited')
    await changeView(t, maria, v.id, { share: true })
    await changeView(t, boss, v.id, { rename: 'Audited 2' })
    const [row] = (await t.db.query<{ created_by: string; updated_by: string; later: boolean }>('SELECT created_by, updated_by, updated_at > created_at AS later FROM saved_views WHERE org = $1 AND id = $2', ['greenleaf', v.id])).rows
    expect(row).toEqual({ created_by: 'u-maria', updated_by: 'u-boss', later: true })
    await changeView(t, maria, v.id, { remove: true })
    const audit = (await t.db.query<{ action: string; uid: string; name: string | null; shared: boolean | null }>(
      `SELECT action, uid, coalesce(after, before)->>'name' AS name, (coalesce(after, before)->>'shared')::boolean AS shared FROM audit_log WHERE org = 'greenleaf' AND collection = 'saved_views' AND doc_id = $1 ORDER BY seq`,
      [v.id],
    )).rows
    expect(audit).toEqual([
      { action: 'insert', uid: 'u-maria', name: 'Audited', shared: false },
      { action: 'update', uid: 'u-maria', name: 'Audited', shared: true },
      { action: 'update', uid: 'u-boss', name: 'Audited 2', shared: true },
      { action: 'delete', uid: 'u-maria', name: 'Audited 2', shared: true },
    ])
  })

  it('a view naming a column the table no longer has opens with a notice that names it', async () => {
    const v = await save(maria, 'Old columns', { query: 'sort=tag&q=kush&col=strain&hide=notes' })
    // the schema changed: the columns it names are gone (as if renamed)
    await t.db.query(`UPDATE saved_views SET query = 'sort=tag_old&q=kush&col=strain&hide=notes,room_old' WHERE org = 'greenleaf' AND id = $1`, [v.id])
    const opened = (await findView(t, maria, v.id))!
    const view = await readView(context(), findRoute(SCREEN)!, 'greenleaf', new URL(`http://x${opened.href}`), maria.user)
    expect(view.notices).toEqual(['Ignored sort="tag_old": this table has no such column.', 'Ignored hide="room_old": this table has no such column.'])
    expect(view.query).toMatchObject({ q: 'kush', col: 'strain', hide: ['notes'] })
    expect(view.query.sort).toBeUndefined()
  })
})
