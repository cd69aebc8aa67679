/**
 * A record's own page, /{screen}/{id} (issue 33 item 4): the record read-only in its form's sections,
 * the actions it offers this user (edit, history, trace, delete, the table's row actions, its label),
 * its files, its last changes, its METRC pushes, and the records of other tables that name it (a
 * harvest's processing batches, a client's orders) — only tables a screen of this user shows, in
 * the facility's rows. One read per related table, each capped; everything on the server, so the
 * page works without JavaScript.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../auth/require.server'
import { resolveScreen } from '../auth/screens.server'
import { formSections } from '../forms/form-sections'
import { referenceOf } from '../forms/record-schema'
import { recordName } from '../forms/record-title'
import { labelLinks, type LabelLinks } from '../labels/links.server'
import { rowRights } from '../records/rights'
import { hasTrace } from '../records/trace.server'
import { isPlatformCollection, ROUTES, type RouteEntry } from '../route-map'
import type { FieldDef } from '../schemas/table-schema'
import { notFound } from '../utils/errors'
import { fileHref } from '../utils/safe-url'
import { recordHistory } from './record-history.server'
import { fieldLabel, shownValue } from './record-values'
import { referenceLabels } from './reference-labels.server'
import { readView } from './table-page.server'

/** How many rows of each related table the page lists (the rest behind "All n"). */
export const RELATED_ROWS = 5
/** How many of the record's last changes it shows (the rest on its history page). */
export const RECENT_CHANGES = 5

export interface RecordPageData {
  id: string
  /** the record's name (forms/record-title.ts), else its id */
  name: string
  /** the table's name ("Harvests") */
  table: string
  sections: Array<{ title: string | null; fields: Array<{ label: string; value: string }> }>
  actions: Array<{ label: string; href: string }>
  files: Array<{ label: string; href: string; name: string }>
  related: Array<{ table: string; field: string; count: number; rows: Array<{ name: string; href: string }>; all: string }>
  changes: Array<{ at: string; who: string; action: string; fields: string[] }>
  history: string
  pushes: Array<{ endpoint: string; label: string; status: string; at: string; message: string | null }>
  label: LabelLinks | null
  timeZone: string
  back: string
}

const FILE_FORMATS = new Set(['pdf', 'image'])
const isFile = (f: FieldDef) => f.type === 'fileDND' || FILE_FORMATS.has(f.format ?? '')

/** The table screen of a collection the user may open in this facility, or null. */
async function screenFor(context: AppLoadContext, s: SignedIn, facility: string, collection: string): Promise<RouteEntry | null> {
  for (const r of ROUTES.filter((x) => x.kind === 'table' && x.collection === collection && !x.platform)) {
    const screen = await resolveScreen(context.database, s.user, facility, r.path)
    if (typeof screen === 'object' && !screen.workflows) return screen.route
  }
  return null
}

export async function recordPage(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string): Promise<RecordPageData> {
  const view = await readView(context, route, facility, url, s.user)
  const schema = view.schema
  const row = schema ? await context.database.store.get(view.org, route.collection!, id) : null
  if (!schema || !row) throw notFound('That record no longer exists. It may have been deleted.')
  const path = `${route.path}/${encodeURIComponent(id)}`
  const labelOf = await referenceLabels(context, schema, facility, [row])
  const col = (k: string) => view.columns.find((c) => c.key === k)

  // the fields, in the form's sections; sub-tables and files are listed on their own
  const shown = schema.fields.filter((f) => f.type !== 'array' && !isFile(f))
  const sections = formSections(shown).map((sec) => ({
    title: sec.title,
    fields: sec.fields.map((f) => ({ label: fieldLabel(f.key, col(f.key)) || f.label, value: shownValue(f.key, row[f.key], col(f.key), labelOf, view.timeZone) })),
  }))
  for (const f of schema.fields.filter((x) => x.type === 'array' && Array.isArray(row[x.key]) && (row[x.key] as unknown[]).length)) {
    sections.push({ title: f.label, fields: [{ label: f.label, value: shownValue(f.key, row[f.key], col(f.key), labelOf, view.timeZone) }] })
  }
  const files = schema.fields.filter(isFile).flatMap((f) => {
    const href = fileHref(row[f.key], view.org)
    return href ? [{ label: f.label, href, name: String(row[f.key]).split('/').pop() ?? '' }] : []
  })

  const rights = rowRights(view, s.user, row)
  const actions: RecordPageData['actions'] = []
  if (view.editable && rights.canEdit) actions.push({ label: 'Edit', href: `${path}/edit` })
  for (const a of view.editable ? (schema.actions ?? []) : []) {
    if ((a.min ?? 1) <= 1) actions.push({ label: a.label, href: `${route.path}/act/${a.key}?sel=${encodeURIComponent(id)}` })
  }
  if (hasTrace(route.collection)) actions.push({ label: 'Trace', href: `${path}/trace` })
  actions.push({ label: 'History', href: `${path}/history` })
  if (view.editable && rights.canDelete) actions.push({ label: 'Delete', href: `${path}/delete` })

  // the records of other tables that name this one, through a screen this user has
  const related: RecordPageData['related'] = []
  if (!isPlatformCollection(route.collection!)) {
    for (const c of await context.database.schemas.listCollections()) {
      if (isPlatformCollection(c)) continue
      const other = await context.database.schemas.get(c)
      const refs = (other?.fields ?? []).filter((f) => f.type === 'list' && referenceOf(f)?.table === route.collection)
      if (!other || !refs.length) continue
      const screen = await screenFor(context, s, facility, c)
      if (!screen) continue
      for (const f of refs) {
        const count = await context.database.store.count(facility, c, { [f.key]: id })
        if (!count) continue
        const rows = await context.database.store.find(facility, c, { [f.key]: id }, RELATED_ROWS)
        related.push({
          table: screen.title,
          field: f.label,
          count,
          rows: rows.map((r) => ({ name: recordName(other, r) ?? r._id, href: `${screen.path}/${encodeURIComponent(r._id)}` })),
          all: `${screen.path}?eq=${encodeURIComponent(`${f.key}:${id}`)}&all=1`,
        })
      }
    }
  }

  const { entries } = await recordHistory(context, route, facility, url, id).catch(() => ({ entries: [] }))
  const changes = entries
    .slice(-RECENT_CHANGES)
    .reverse()
    .map((e) => ({ at: e.at, who: e.onBehalf ? `${e.who} (${e.onBehalf})` : e.who, action: e.action, fields: e.changes.map((c) => c.field) }))
  const pushes = await context.database.db.query<{ endpoint: string; label: string; status: string; at: Date | string; message: string | null }>(
    'SELECT endpoint, label, status, updated_at AS at, message FROM metrc_outbox WHERE org = $1 AND source_collection = $2 AND source_id = $3 ORDER BY seq DESC LIMIT 10',
    [view.org, route.collection, id],
  )

  return {
    id,
    name: recordName(schema, row) ?? id,
    table: route.title,
    sections,
    actions,
    files,
    related,
    changes,
    history: `${path}/history`,
    pushes: pushes.rows.map((p) => ({ ...p, at: (p.at instanceof Date ? p.at : new Date(p.at)).toISOString() })),
    label: await labelLinks(context, view.org, schema, row._id),
    timeZone: view.timeZone,
    back: route.path,
  }
}
