/**
 * Who may read and write a collection outside a screen (the JSON API): exactly what the screens
 * allow, never more. A collection is open to a user in a facility when one of the screens the
 * user may open there (route map + entitlements, SPEC §2.3 and §6) shows it as a table; it is
 * writable when one of those screens edits it (`routeEditable`, the table screen's own rule: a
 * screen that edits records, not read-only, an editable schema; a dashboard edits nothing). Platform
 * collections live under the platform organisation and are only behind Super screens, so only
 * super reaches them here (decision 009).
 */
import type { AppLoadContext } from '@remix-run/node'
import { roleOf, visibleRoutes, type SessionUser } from '../auth/entitlements'
import { isCollectionName } from '../db/sql'
import { PLATFORM_ORG, type RouteEntry, type ScreenKind } from '../route-map'
import type { TableSchema } from '../schemas/table-schema'
import { forbidden, notFound } from '../utils/errors'

export interface TableAccess {
  collection: string
  schema: TableSchema
  /** the organisation the rows live under: the facility, or the platform's */
  org: string
  /** the screen that grants it (the first editable one when there is one) */
  route: RouteEntry
  /** Add, edit and delete are allowed on this table (row flags still apply) */
  editable: boolean
}

/** Screen kinds that show a collection's rows (a table page); /DisplayHTML shows only published documents, so it grants nothing here. */
const SHOWS_ROWS = new Set(['table', 'dashboard', 'calendar', 'form', 'prefs'])

/** Screen kinds whose screen adds, edits and deletes its table's records. A dashboard shows rows and edits none. */
const EDITS_ROWS: ReadonlySet<ScreenKind> = new Set<ScreenKind>(['table', 'calendar', 'form', 'prefs'])

/**
 * May a user who opens this screen write its table? The one rule for "may write" (decision 055):
 * the table screen (readView: Add Item, the pencil, delete, check toggles), the edit pages and the
 * JSON API (`tableAccess`, so /dt/v1 and every write through records/write.server.ts) all ask it,
 * so the API is never wider than the screens.
 */
export const routeEditable = (route: RouteEntry, schema: TableSchema | null | undefined, user?: Pick<SessionUser, 'role' | 'origRole'>): boolean =>
  EDITS_ROWS.has(route.kind) && !route.readOnly && !!schema && schema.editable !== false && mayWriteRoute(route, user)

/** A screen whose table only some write (`writers`, e.g. the release notes: super): the others read it. No user known: nobody writes it. */
export const mayWriteRoute = (route: RouteEntry, user?: Pick<SessionUser, 'role' | 'origRole'>): boolean =>
  route.writers !== 'super' || (!!user && roleOf(user) === 'super')

/**
 * The user's access to `collection` in `facility`: 404 for a name that is no table (or not a
 * valid name at all), 403 when no screen of the user shows it. `via`: the screen a form post came
 * through (its entitlement already checked): its own rule decides, as before the API existed.
 */
export async function tableAccess(context: AppLoadContext, user: SessionUser, facility: string, collection: string, via?: RouteEntry): Promise<TableAccess> {
  if (!isCollectionName(collection) || !(await context.database.schemas.hasCollection(collection))) throw notFound(`There is no table named "${collection.slice(0, 60)}".`)
  const schema = await context.database.schemas.get(collection)
  if (!schema) throw notFound(`There is no table named "${collection.slice(0, 60)}".`)
  const routes = via ? [via] : visibleRoutes(user, facility).filter((r) => r.collection === collection && SHOWS_ROWS.has(r.kind))
  if (!routes.length) throw forbidden(`Your account may not use the table "${collection}" in this facility.`)
  const route = routes.find((r) => routeEditable(r, schema, user)) ?? routes[0]
  return { collection, schema, org: route.platform ? PLATFORM_ORG : facility, route, editable: routeEditable(route, schema, user) }
}

/**
 * The collections whose rows the user can see in this facility: who gets a table's change events.
 * The same screens as `tableAccess` (route map, entitlements, screens that show rows), and only
 * names that are tables. Platform tables are left out: their rows live under the platform's
 * organisation, whose changes never reach a facility's stream.
 */
export async function readableCollections(context: AppLoadContext, user: SessionUser, facility: string): Promise<Set<string>> {
  const names = new Set(visibleRoutes(user, facility).flatMap((r) => (r.collection && SHOWS_ROWS.has(r.kind) && !r.platform ? [r.collection] : [])))
  const tables = new Set(await context.database.schemas.listCollections())
  return new Set([...names].filter((c) => tables.has(c)))
}
