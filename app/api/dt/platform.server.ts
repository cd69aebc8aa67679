/**
 * The auth server's calls of SPEC §7 that read platform data (org `auth`), plus set_preferences.
 * Who sees what (decision 009):
 * - users: everyone their own record; an admin the users of the facility the token works in;
 *   super anyone. Never a password, hash, token or secret (passwords are not in documents at all,
 *   decision 002; the filter below is a second fence).
 * - org: the facilities the user may enter (super: all), a few public fields only.
 * - auth_workflows, sup_modules, auth_phrasemap, dictionary: what every signed-in console loads.
 * - auth_provisions?org=: a facility the user may enter.
 * - sch_{table}: the schema record of a table the user may read.
 * - set_preferences: own records; super any; an admin those of the users of the token's facility
 *   (auth/preferences.server.ts mayManagePrefs, decision 055).
 */
import type { AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { facilitiesOf, worksIn } from '../../auth/entitlements'
import { mayManagePrefs } from '../../auth/preferences.server'
import type { Doc } from '../../db/types'
import { tableAccess } from '../../records/access.server'
import { PLATFORM_ORG } from '../../route-map'
import { AppError, forbidden, notFound } from '../../utils/errors'
import type { ApiCaller } from '../../auth/api-caller.server'
import { readJson } from '../respond.server'
import { filtersOf } from './records.server'
import { checkId } from '../../utils/ids'
import { parsed } from './body.server'

/** Platform tables every signed-in caller may read whole (the console loads them at sign-in, SPEC §4). */
export const OPEN_PLATFORM = new Set(['auth_workflows', 'sup_modules', 'auth_phrasemap', 'dictionary'])
/** Tables this module answers for GET (writes to them go through the generic path and its Super screens). */
export const PLATFORM_READS = new Set([...OPEN_PLATFORM, 'users', 'org', 'auth_provisions'])

const SECRET = /pass|secret|token|hash|salt|metrc|apikey|api_key/i
/** A user record without anything secret (checked on every key, nested ones too). */
function safeUser(d: Doc): Record<string, unknown> {
  const strip = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => !SECRET.test(k)).map(([k, x]) => [k, strip(x)])) : v
  return strip(d) as Record<string, unknown>
}
const ORG_FIELDS = ['_id', 'name', 'fullName', 'kind', 'state', 'timezone', 'server', 'compserver', 'fileserver', 'wid', 'IsUsed']
const safeOrg = (d: Doc) => Object.fromEntries(ORG_FIELDS.filter((k) => d[k] !== undefined).map((k) => [k, d[k]]))

export const isAdmin = (c: ApiCaller) => c.user.role === 'admin' || c.user.role === 'super'
/** Users an admin looks after: those whose home is the token's facility or who may work in it. */
export const inFacility = (u: Doc, org: string) => worksIn(u, org)

export function mayReadUser(c: ApiCaller, u: Doc): boolean {
  if (c.user.role === 'super' || u.uid === c.user.uid || u._id === c.user.uid) return true
  return c.user.role === 'admin' && inFacility(u, c.org)
}

async function allOrgs(context: AppLoadContext): Promise<Doc[]> {
  return context.database.store.find(PLATFORM_ORG, 'org', {}, 1000)
}

/** GET of a platform table (or a schema by name); null when `table` is not one of them. */
export async function platformRead(context: AppLoadContext, c: ApiCaller, table: string, id: string | null, url: URL): Promise<Response | null> {
  const store = context.database.store
  const q = url.searchParams
  if (table === 'users') {
    if (id) {
      const u = (await store.get(PLATFORM_ORG, 'users', checkId(id))) ?? (await store.find(PLATFORM_ORG, 'users', { uid: id }, 1))[0]
      if (!u || !mayReadUser(c, u)) throw notFound('There is no user with that id.')
      return Response.json(safeUser(u))
    }
    const schema = (await context.database.schemas.get('users'))!
    const where = filtersOf(q, schema, ['orgonly'])
    const rows = await store.find(PLATFORM_ORG, 'users', where, 1000)
    const mine = rows.filter((u) => mayReadUser(c, u) && (!q.has('orgonly') || inFacility(u, c.org)))
    return Response.json(mine.map(safeUser))
  }
  if (table === 'org') {
    const names = facilitiesOf(c.user, (await allOrgs(context)).map((o) => o._id))
    const orgs = (await allOrgs(context)).filter((o) => names.includes(o._id))
    if (id) {
      const o = orgs.find((x) => x._id === id)
      if (!o) throw notFound('There is no organisation with that id that your account may enter.')
      return Response.json(safeOrg(o))
    }
    const name = q.get('name')
    const ret = q.get('return')
    if (ret !== null && ret !== 'wid' && ret !== 'fullName') throw new AppError('BAD_INPUT', 'return must be wid or fullName', { field: 'return' })
    if (name === null) return Response.json(orgs.map(safeOrg))
    const o = orgs.find((x) => x.name === name || x._id === name)
    if (!o) throw notFound('There is no organisation by that name that your account may enter.')
    return Response.json(ret ? { [ret]: o[ret] ?? (ret === 'wid' ? [] : null) } : safeOrg(o))
  }
  if (table === 'auth_provisions') {
    const org = q.get('org') ?? c.org
    const names = facilitiesOf(c.user, (await allOrgs(context)).map((o) => o._id))
    if (!names.includes(org)) throw forbidden('Your account may not see the provisions of that organisation.')
    return Response.json(await store.find(PLATFORM_ORG, 'auth_provisions', { org }, 1000))
  }
  if (OPEN_PLATFORM.has(table)) {
    if (!(await context.database.schemas.hasCollection(table))) throw notFound(`There is no table named "${table}".`)
    if (id) {
      const d = await store.get(PLATFORM_ORG, table, checkId(id))
      if (!d) throw notFound('There is no record with that id.')
      return Response.json(d)
    }
    const schema = (await context.database.schemas.get(table))!
    return Response.json(await store.find(PLATFORM_ORG, table, filtersOf(q, schema), 5000))
  }
  // GET /dt/v1/sch_{table}: a table's schema by name (SPEC §7), when sch_… is not itself a table
  const m = /^sch_([a-z][a-z0-9_]{0,50})$/.exec(table)
  if (!id && m && !(await context.database.schemas.hasCollection(table))) {
    const access = await tableAccess(context, c.user, c.org, m[1])
    return Response.json(access.schema)
  }
  return null
}

// ---------------------------------------------------------------- set_preferences

export const PrefBody = z
  .object({
    uid: z.string().min(1).max(64).optional(),
    facility: z.string().max(64).optional(),
    key: z.string().max(64).optional(),
    light: z.enum(['yes', 'no']).optional(),
    lang: z.enum(['en', 'es']).optional(),
  })
  .strict()

function prefBody(raw: unknown) {
  return parsed(PrefBody, raw)
}

const mayManage = (context: AppLoadContext, c: ApiCaller, uid: unknown) => mayManagePrefs(context.database, c.user, c.org, uid)

/** set_preferences (SPEC §7): GET ?uid=, PATCH /{id}, POST {uid, key, …}. Lives under the platform org, keyed by uid and facility. */
export async function preferences(context: AppLoadContext, c: ApiCaller, method: string, id: string | null, request: Request, url: URL): Promise<Response> {
  const store = context.database.store
  const actor = c.actor
  if (method === 'GET') {
    if (id) {
      const d = await store.get(PLATFORM_ORG, 'set_preferences', checkId(id))
      if (!d || !(await mayManage(context, c, d.uid))) throw notFound('There is no preference record with that id.')
      return Response.json(d)
    }
    const uid = url.searchParams.get('uid') ?? c.user.uid
    if (!(await mayManage(context, c, uid))) throw forbidden('You may only read your own preferences, or as an admin those of the users of this facility.')
    return Response.json(await store.find(PLATFORM_ORG, 'set_preferences', { uid }, 100))
  }
  if (method === 'POST' && !id) {
    const b = prefBody(await readJson(request, 10_000))
    const uid = b.uid ?? c.user.uid
    if (!(await mayManage(context, c, uid))) throw forbidden('You may only set your own preferences, or as an admin those of the users of this facility.')
    const doc = await store.insert(actor, PLATFORM_ORG, 'set_preferences', { ...b, uid, facility: b.facility ?? c.org })
    return Response.json(doc, { status: 201 })
  }
  if ((method === 'PATCH' || method === 'PUT') && id) {
    const d = await store.get(PLATFORM_ORG, 'set_preferences', checkId(id))
    if (!d || !(await mayManage(context, c, d.uid))) throw notFound('There is no preference record with that id.')
    const b = prefBody(await readJson(request, 10_000))
    if (b.uid !== undefined && b.uid !== d.uid) throw new AppError('BAD_INPUT', 'uid: a preference record keeps its user', { field: 'uid' })
    return Response.json(await store.update(actor, PLATFORM_ORG, 'set_preferences', d._id, b))
  }
  throw new AppError('NOT_ALLOWED', `${method} is not allowed here`)
}
