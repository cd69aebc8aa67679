/**
 * What each kind of mapped screen needs from the server: a page of a table, the /Table
 * directory, an HTML document for /DisplayHTML, a help guide. The catch-all route ($.tsx)
 * calls `loadScreen` after the entitlement check; the component renders by `kind`.
 */
import type { AppLoadContext } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { SCAN_PARAM } from './table-url'
import type { SessionUser } from '../auth/entitlements'
import { visibleRoutes } from '../auth/entitlements'
import type { Screen } from '../auth/screens.server'
import { helpPage, type HelpPage } from '../help/content'
import { PLATFORM_ORG } from '../route-map'
import { metrcPanel, type MetrcPanel } from '../metrc/sync/panel.server'
import { sensorBoard, type SensorBoard } from '../sensors/board.server'
import { tablePage, type TableData } from './table-page.server'
import { listViews } from './saved-views.server'
import { tableScanSetting } from '../devices/scan-record.server'
import type { ScannerField } from '../forms/scanner-setting'
import type { DeleteConfirm } from './record-delete.server'

export type { TableData }

export interface HtmlDoc {
  name: string
  title: string
  html: string
}

export type ScreenData =
  | { kind: 'workflows'; title: string; path: string; workflows: NonNullable<Screen['workflows']> }
  | { kind: 'help'; title: string; path: string; help: HelpPage | null }
  | { kind: 'tables'; title: string; path: string; tables: Array<{ name: string; title: string }> }
  | { kind: 'html'; title: string; path: string; doc: HtmlDoc | null; docs: Array<{ name: string; title: string }> }
  | { kind: 'delete'; title: string; path: string; confirm: DeleteConfirm }
  | { kind: 'table' | 'dashboard' | 'calendar' | 'form' | 'prefs'; title: string; path: string; table: TableData; intro: HtmlDoc | null; sensors?: SensorBoard; metrc?: MetrcPanel; scan?: ScannerField }

const notFound = (text: string) => new Response(text, { status: 404, statusText: text })

export async function loadScreen(context: AppLoadContext, user: SessionUser, facility: string, screen: Screen, url: URL): Promise<ScreenData> {
  const { route } = screen
  const base = { title: route.title, path: route.path }
  if (screen.workflows) return { ...base, kind: 'workflows', workflows: screen.workflows }
  if (route.kind === 'help') return { ...base, kind: 'help', help: helpPage(route.path) ?? null }
  if (route.kind === 'html') return displayHtml(context, url, base)
  if (route.kind === 'tables') return tableDirectory(context, user, facility, url, base)
  const kind = route.kind as 'table' | 'dashboard' | 'calendar' | 'form' | 'prefs'
  const intro = route.path === '/SupportTicket' ? await htmlDoc(context, { used_on: 'Support' }) : null
  // the Sensors dashboard: gauges and a day of history above its device table
  const sensors = route.path === '/DshSensors' ? await sensorBoard(context, facility) : undefined
  // a Metrc table: its link to METRC, when it was last synced, Sync now
  const metrc = route.collection ? await metrcPanel(context, user, facility, route.collection, url) : null
  const table = await tablePage(context, user, route, facility, url)
  // a table of the route map keeps named views of itself (decision 073)
  if (route.collection && route.path !== '/Table') table.views = await listViews(context.database, { user, facility }, route.path)
  // a scanned code (components/keyboard-shortcuts.tsx): the one record it matches opens, else the filtered table shows
  if (url.searchParams.get(SCAN_PARAM) === '1' && kind === 'table' && table.total === 1 && table.rows.length === 1) throw redirect(`${route.path}/${encodeURIComponent(table.rows[0].id)}`)
  // a scanner setting `id:prt` / `tag:more` for this table: the Scan button (SPEC §3; devices/scan-record.server.ts)
  const scan = kind === 'table' && route.collection ? await tableScanSetting(context, table.org, route.collection) : null
  return { ...base, kind, table, intro, ...(sensors ? { sensors } : {}), ...(metrc ? { metrc } : {}), ...(scan ? { scan } : {}) }
}

/** /Table?name=<collection>: any table the user can already open through the route map. */
async function tableDirectory(context: AppLoadContext, user: SessionUser, facility: string, url: URL, base: { title: string; path: string }): Promise<ScreenData> {
  const mine = visibleRoutes(user, facility).filter((r) => r.kind === 'table' && r.collection)
  const name = url.searchParams.get('name')
  if (!name) {
    const seen = new Map<string, string>()
    for (const r of mine) if (!seen.has(r.collection!)) seen.set(r.collection!, r.title)
    const tables = [...seen].map(([n, title]) => ({ name: n, title })).sort((a, b) => a.title.localeCompare(b.title))
    return { ...base, kind: 'tables', tables }
  }
  const route = mine.find((r) => r.collection === name)
  if (!route) throw new Response('There is no table by that name that your account may open here.', { status: 404, statusText: 'No such table' })
  const schema = await context.database.schemas.get(name)
  return { kind: 'table', title: schema?.label ?? route.title, path: base.path, table: await tablePage(context, user, route, facility, url), intro: null }
}

/** /DisplayHTML?name=<document>: a published document of the HTML editor meant for display. */
async function displayHtml(context: AppLoadContext, url: URL, base: { title: string; path: string }): Promise<ScreenData> {
  const name = url.searchParams.get('name') ?? url.searchParams.get('id')
  if (name) {
    const doc = await htmlDoc(context, { used_on: 'DisplayHTML', name })
    if (!doc) throw notFound('There is no published document by that name.')
    return { ...base, title: doc.title, kind: 'html', doc, docs: [] }
  }
  const rows = await context.database.store.find(PLATFORM_ORG, 'sup_html', { used_on: 'DisplayHTML', published: 'yes' }, 200)
  const docs = rows.map((r) => ({ name: String(r.name), title: String(r.title ?? r.name) })).sort((a, b) => a.title.localeCompare(b.title))
  return { ...base, kind: 'html', doc: null, docs }
}

async function htmlDoc(context: AppLoadContext, where: Record<string, string>): Promise<HtmlDoc | null> {
  const [r] = await context.database.store.find(PLATFORM_ORG, 'sup_html', { ...where, published: 'yes' }, 1)
  return r ? { name: String(r.name), title: String(r.title ?? r.name), html: String(r.html ?? '') } : null
}
