/**
 * Saved views of the table screens (issue 31 item 5, decision 073; migration 045). A view is a
 * screen's settings (table-url.ts VIEW_KEYS, the canonical query string) under a name:
 *
 *   private   its owner's alone: never listed, opened, pinned or changed by anyone else
 *   shared    listed for everyone of the facility who may open the screen; changed (renamed,
 *             unshared, deleted) by its owner or an admin of the facility (super too)
 *   pinned    per user, of a view that user sees: the top of their side drawer
 *
 * Every query names the facility (`org`), so nothing crosses facilities. Names are trimmed, 1–60
 * characters, unique ignoring case among one owner's private views of a screen and among a screen's
 * shared ones. Every change is one transaction with its audit row (collection `saved_views`, or
 * `saved_view_pins` for a pin); the row keeps created_by/updated_by and both times.
 */
import type { SessionUser } from '../auth/entitlements'
import { roleOf, worksIn } from '../auth/entitlements'
import type { Database } from '../db/index.server'
import { sqlState, type Queryable } from '../db/driver.server'
import { audit } from '../db/store.server'
import type { Actor, Doc } from '../db/types'
import { newId } from '../utils/ids'
import { listQueryToSearch, VIEW_KEYS, type ListQuery } from './table-url'

export const VIEW_NAME_MAX = 60

/** Who acts: the signed-in user in the facility they work in, and the audit's actor. */
export interface ViewUser {
  user: SessionUser
  facility: string
  actor: Actor
}
/** Who looks (no change, no audit) */
export type ViewReader = Pick<ViewUser, 'user' | 'facility'>

export interface SavedView {
  id: string
  screen: string
  name: string
  /** the canonical query string, without `?` */
  query: string
  /** the address that opens it */
  href: string
  shared: boolean
  mine: boolean
  pinned: boolean
  /** may rename, unshare or delete it (its owner; for a shared view also an admin of the facility) */
  manage: boolean
}

export type ViewOutcome = { message: string; view: SavedView } | { error: string }

interface Row {
  id: string
  screen: string
  name: string
  query: string
  owner: string
  shared: boolean
  pinned: boolean
}

/** The name as kept (trimmed), or what is wrong with it. */
export function checkViewName(raw: unknown): { name: string } | { error: string } {
  const name = typeof raw === 'string' ? raw.trim().replace(/\s+/g, ' ') : ''
  if (!name) return { error: 'Give the view a name.' }
  if (name.length > VIEW_NAME_MAX) return { error: `A view's name is at most ${VIEW_NAME_MAX} characters; this one has ${name.length}.` }
  return { name }
}

/** The settings a view keeps, as its canonical query string (no `?`). */
export function viewQueryOf(query: ListQuery): string {
  const kept: ListQuery = {}
  for (const k of VIEW_KEYS) if (query[k] !== undefined) (kept as Record<string, unknown>)[k] = query[k]
  return listQueryToSearch(kept).replace(/^\?/, '')
}

export const viewHref = (screen: string, query: string) => `${screen}${query ? `?${query}` : ''}`

const isAdmin = (vu: ViewReader) => {
  const role = roleOf(vu.user)
  return role === 'super' || (role === 'admin' && worksIn(vu.user, vu.facility))
}

const mayManage = (vu: ViewReader, r: Pick<Row, 'owner' | 'shared'>) => r.owner === vu.user.uid || (r.shared && isAdmin(vu))

function toView(vu: ViewReader, r: Row): SavedView {
  return { id: r.id, screen: r.screen, name: r.name, query: r.query, href: viewHref(r.screen, r.query), shared: r.shared, mine: r.owner === vu.user.uid, pinned: !!r.pinned, manage: mayManage(vu, r) }
}

const SELECT = `SELECT v.id, v.screen, v.name, v.query, v.owner, v.shared,
  EXISTS (SELECT 1 FROM saved_view_pins p WHERE p.org = v.org AND p.view_id = v.id AND p.uid = $2) AS pinned
  FROM saved_views v WHERE v.org = $1 AND (v.owner = $2 OR v.shared)`

/** The views of a screen this user sees: their own and the facility's shared ones, by name. */
export async function listViews(database: Database, vu: ViewReader, screen: string): Promise<SavedView[]> {
  const { rows } = await database.db.query<Row>(`${SELECT} AND v.screen = $3 ORDER BY lower(v.name), v.shared, v.id`, [vu.facility, vu.user.uid, screen])
  return rows.map((r) => toView(vu, r))
}

/** The views this user pinned in this facility (that they still see), for the drawer: oldest pin first. */
export async function pinnedViews(database: Database, uid: string, facility: string): Promise<Array<{ id: string; screen: string; name: string; href: string }>> {
  const { rows } = await database.db.query<Row>(
    `SELECT v.id, v.screen, v.name, v.query FROM saved_view_pins p JOIN saved_views v ON v.org = p.org AND v.id = p.view_id
     WHERE p.org = $1 AND p.uid = $2 AND (v.owner = $2 OR v.shared) ORDER BY p.pinned_at, v.id`,
    [facility, uid],
  )
  return rows.map((r) => ({ id: r.id, screen: r.screen, name: r.name, href: viewHref(r.screen, r.query) }))
}

/** One view this user sees, or null (another's private view, another facility's, gone). */
export async function findView(database: Database | Queryable, vu: ViewReader, id: string, lock = false): Promise<SavedView | null> {
  const q = 'db' in database ? database.db : database
  const { rows } = await q.query<Row>(`${SELECT} AND v.id = $3${lock ? ' FOR UPDATE OF v' : ''}`, [vu.facility, vu.user.uid, id])
  return rows[0] ? toView(vu, rows[0]) : null
}

/** Is the name taken where this view would live (the owner's private views, or the screen's shared ones)? */
async function nameTaken(tx: Queryable, org: string, screen: string, owner: string, name: string, shared: boolean, except: string | null): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM saved_views WHERE org = $1 AND screen = $2 AND lower(name) = lower($3) AND shared = $4 AND ($4 OR owner = $5) AND id <> $6 LIMIT 1`,
    [org, screen, name, shared, owner, except ?? ''],
  )
  return rows.length > 0
}

const takenMessage = (name: string, shared: boolean) =>
  shared ? `The facility already shares a view named "${name}" on this screen. Choose another name.` : `You already have a view named "${name}" on this screen. Choose another name.`

const snapshot = (r: Record<string, unknown>) => r as unknown as Doc

/** Saves the screen's current settings under a name; shared with the facility and pinned when asked. */
export async function saveView(database: Database, vu: ViewUser, screen: string, input: { name: unknown; query: ListQuery; shared: boolean; pinned: boolean }): Promise<ViewOutcome> {
  const checked = checkViewName(input.name)
  if ('error' in checked) return checked
  const { name } = checked
  const query = viewQueryOf(input.query)
  const id = newId()
  const uid = vu.user.uid
  try {
    return await database.db.transaction(async (tx) => {
      if (await nameTaken(tx, vu.facility, screen, uid, name, input.shared, null)) return { error: takenMessage(name, input.shared) }
      await tx.query(`INSERT INTO saved_views (org, id, screen, name, query, owner, shared, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $6, $6)`, [vu.facility, id, screen, name, query, uid, input.shared])
      await audit(tx, vu.actor, vu.facility, 'saved_views', id, 'insert', null, snapshot({ _id: id, screen, name, query, owner: uid, shared: input.shared }))
      if (input.pinned) await pin(tx, vu, id, true)
      const view = (await findView(tx, vu, id))!
      return { message: `Saved the view "${name}"${input.shared ? ', shared with the facility' : ''}${input.pinned ? ', pinned to the menu' : ''}.`, view }
    })
  } catch (e) {
    // two saves at once: the unique index answers
    if (sqlState(e) === '23505') return { error: takenMessage(name, input.shared) }
    throw e
  }
}

type Change = { rename: unknown } | { share: boolean } | { pin: boolean } | { remove: true }

/** Renames, shares or unshares, pins or unpins, or deletes a view, when this user may. */
export async function changeView(database: Database, vu: ViewUser, id: string, change: Change): Promise<ViewOutcome> {
  try {
    return await database.db.transaction(async (tx): Promise<ViewOutcome> => {
      const view = await findView(tx, vu, id, true)
      if (!view) return { error: 'There is no such view, or it is not yours to see.' }
      if ('pin' in change) {
        await pin(tx, vu, id, change.pin)
        return { message: change.pin ? `Pinned "${view.name}" to the menu.` : `Unpinned "${view.name}".`, view: { ...view, pinned: change.pin } }
      }
      if (!view.manage) return { error: view.shared ? `Only the owner of "${view.name}" or an administrator of the facility may change it.` : 'Only the owner of a view may change it.' }
      const before = { _id: id, screen: view.screen, name: view.name, query: view.query, shared: view.shared }
      if ('remove' in change) {
        await tx.query('DELETE FROM saved_views WHERE org = $1 AND id = $2', [vu.facility, id])
        await audit(tx, vu.actor, vu.facility, 'saved_views', id, 'delete', snapshot(before), null)
        return { message: `Deleted the view "${view.name}".`, view }
      }
      const owner = (await tx.query<{ owner: string }>('SELECT owner FROM saved_views WHERE org = $1 AND id = $2', [vu.facility, id])).rows[0].owner
      let name = view.name
      let shared = view.shared
      if ('rename' in change) {
        const checked = checkViewName(change.rename)
        if ('error' in checked) return checked
        name = checked.name
      } else {
        // sharing is the owner's choice; an admin may take a shared view back to its owner
        if (change.share && !view.mine) return { error: 'Only the owner of a view may share it.' }
        shared = change.share
      }
      if (name === view.name && shared === view.shared) return { message: `Nothing changed in "${view.name}".`, view }
      if (await nameTaken(tx, vu.facility, view.screen, owner, name, shared, id)) return { error: takenMessage(name, shared) }
      await tx.query('UPDATE saved_views SET name = $3, shared = $4, updated_at = clock_timestamp(), updated_by = $5 WHERE org = $1 AND id = $2', [vu.facility, id, name, shared, vu.user.uid])
      // an unshared view is its owner's again: other people's pins of it go
      if (!shared && view.shared) await tx.query('DELETE FROM saved_view_pins WHERE org = $1 AND view_id = $2 AND uid <> $3', [vu.facility, id, owner])
      await audit(tx, vu.actor, vu.facility, 'saved_views', id, 'update', snapshot(before), snapshot({ ...before, name, shared }))
      const after = (await findView(tx, vu, id)) ?? { ...view, name, shared, manage: false }
      const message = 'rename' in change ? `Renamed the view to "${name}".` : shared ? `Shared "${name}" with the facility.` : `"${name}" is no longer shared: only its owner sees it.`
      return { message, view: after }
    })
  } catch (e) {
    if (sqlState(e) === '23505') return { error: 'That name is taken on this screen. Choose another name.' }
    throw e
  }
}

async function pin(tx: Queryable, vu: ViewUser, id: string, on: boolean) {
  const done = on
    ? await tx.query('INSERT INTO saved_view_pins (org, uid, view_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING view_id', [vu.facility, vu.user.uid, id])
    : await tx.query('DELETE FROM saved_view_pins WHERE org = $1 AND uid = $2 AND view_id = $3 RETURNING view_id', [vu.facility, vu.user.uid, id])
  if (done.rows.length) await audit(tx, vu.actor, vu.facility, 'saved_view_pins', id, on ? 'insert' : 'delete', on ? null : snapshot({ _id: id, uid: vu.user.uid }), on ? snapshot({ _id: id, uid: vu.user.uid }) : null)
}
