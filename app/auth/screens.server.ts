/**
 * Which screen an address names, and whether this user may open it: the route map of SPEC §2.3
 * plus the /{Module}Workflows routes of the organisation's allowed workflows.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { Database } from '../db/index.server'
import { cachedRead } from '../db/read-cache.server'
import { findRoute, MODULES, PLATFORM_ORG, type ModuleCode, type RouteEntry } from '../route-map'
import { canSeeRoute, modulesOf, type SessionUser } from './entitlements'
import { requireSession, type SignedIn } from './require.server'

export interface WorkflowItem {
  _id: string
  name: string
  description?: string
}

/** Allowed workflows of a facility, grouped by module code (SPEC §2.3 Workflows). */
export async function workflowsOf(database: Database, facility: string): Promise<Map<ModuleCode, WorkflowItem[]>> {
  // every page's menu reads these: cached (read-cache.server.ts)
  const { store } = database
  const [org] = await cachedRead(store, 'org', `id:${facility}`, () => store.find(PLATFORM_ORG, 'org', { _id: facility }, 1))
  const wid = Array.isArray(org?.wid) ? (org.wid as string[]) : []
  const out = new Map<ModuleCode, WorkflowItem[]>()
  if (!wid.length) return out
  const all = await cachedRead(store, 'auth_workflows', 'all', () => store.find(PLATFORM_ORG, 'auth_workflows', {}, 1000))
  for (const w of all) {
    if (!wid.includes(w._id)) continue
    const m = MODULES.find((x) => x.name === w.module || x.code === w.module)
    if (!m) continue
    out.set(m.code, [...(out.get(m.code) ?? []), { _id: w._id, name: String(w.name ?? w._id), description: w.description as string | undefined }])
  }
  return out
}

/** SPEC §2.3: a module's workflows are at /{Module}Workflows with the module's route prefix (/CulWorkflows, /DisWorkflows). */
export const workflowPath = (code: ModuleCode) => `/${MODULES.find((m) => m.code === code)!.prefix}Workflows`

/** An address that names a module's workflows by the module's name (/CultivationWorkflows, an old link): the address they live at, else null. */
export function workflowAlias(path: string): string | null {
  const m = /^\/([A-Za-z]+)Workflows\/?$/.exec(path)
  const mod = m && MODULES.find((x) => x.name.toLowerCase() === m[1].toLowerCase() && x.prefix.toLowerCase() !== x.name.toLowerCase())
  return mod ? workflowPath(mod.code) : null
}

export type Screen = { route: RouteEntry; workflows?: WorkflowItem[] }

/** The screen at `path` for this user: 'unknown' (404), 'forbidden' (403) or the screen. */
export async function resolveScreen(database: Database, user: SessionUser, facility: string, path: string): Promise<Screen | 'unknown' | 'forbidden'> {
  const route = findRoute(path)
  if (route) return canSeeRoute(user, facility, route) ? { route } : 'forbidden'
  const m = /^\/([A-Za-z]+)Workflows\/?$/.exec(path)
  const mod = m && MODULES.find((x) => x.prefix.toLowerCase() === m[1].toLowerCase())
  if (!mod) return 'unknown'
  const wfs = (await workflowsOf(database, facility)).get(mod.code)
  if (!wfs) return 'unknown'
  if (!modulesOf(user, facility).includes(mod.code)) return 'forbidden'
  return { route: { path: workflowPath(mod.code), title: `${mod.name} Workflows`, module: mod.code, kind: 'table', collection: 'auth_workflows', readOnly: true }, workflows: wfs }
}

/**
 * For a screen with its own route module (/MetrcOutbox, /MetrcDrift): the signed-in user, the
 * facility and the screen at `path`, or the 404 / 403 answer the catch-all route gives.
 */
export async function requireScreen(request: Request, context: AppLoadContext, path: string): Promise<{ s: SignedIn; facility: string; screen: Screen }> {
  const s = await requireSession(request, context)
  const facility = s.session.facility ?? ''
  const screen = await resolveScreen(context.database, s.user, facility, path)
  if (screen === 'unknown') throw new Response('There is no page at this address.', { status: 404, statusText: 'There is no page at this address.' })
  if (screen === 'forbidden') throw new Response('Your account is not entitled to this screen in this facility. Ask your administrator for access to its module.', { status: 403, statusText: 'Not allowed' })
  return { s, facility, screen }
}
