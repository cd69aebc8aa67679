/**
 * The edit form's server side (issue 6, page mode): `/{screen}/new` and `/{screen}/{id}/edit`.
 * The loader gives the form its table schema (the browser compiles the same zod schema from it),
 * the record's values, list options and the read-only section; the action parses the post with
 * that schema, checks referenced ids exist in the organisation, runs the table's save rules, the
 * row rights and the unchanged-since check, and saves through the store (audited, one write path).
 */
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../auth/require.server'
import { resolveScreen } from '../auth/screens.server'
import { editableFields, formValuesOf, recordSchema, referenceFields, referenceOf } from '../forms/record-schema'
import { rowsToSave } from '../forms/row-ids'
import { runSaveRules } from '../forms/save-rules'
import { discardUploads, storeFormUploads, type FormUpload } from '../files/form-uploads.server'
import { maxUploadBytes } from '../files/store.server'
import { formatCell } from '../format/format'
import { PLATFORM_ORG, type RouteEntry } from '../route-map'
import type { FieldDef, TableSchema } from '../schemas/table-schema'
import { isAppError, forbidden, notFound } from '../utils/errors'
import { isPlatformCollection, readView, rowRights } from './table-page.server'
import { recordHistory } from './record-history.server'

export interface EditData {
  title: string
  /** null: a new record */
  id: string | null
  ts: string | null
  schema: TableSchema
  values: Record<string, unknown>
  /** options of list fields, by field key */
  options: Record<string, Array<{ value: string; label: string }>>
  readonly: Array<{ label: string; value: string }>
  canEditCts: boolean
  timeZone: string
  back: string
  /** the record's change history page */
  history: string | null
  /** where a fileDND field uploads (POST /files/{org}) and the largest file it takes */
  files: { org: string; maxBytes: number }
}

const MAX_OPTIONS = 1000

/** The table screen behind an edit address, or the error page the user should see. */
export async function editTarget(context: AppLoadContext, s: SignedIn, screenPath: string): Promise<{ route: RouteEntry; facility: string }> {
  const facility = s.session.facility ?? ''
  const screen = await resolveScreen(context.database, s.user, facility, screenPath)
  if (screen === 'forbidden') throw forbidden('Your account is not entitled to this screen in this facility.')
  if (screen === 'unknown' || screen.workflows || screen.route.kind !== 'table' || !screen.route.collection) throw notFound('There is no table at this address.')
  return { route: screen.route, facility }
}

async function options(context: AppLoadContext, f: FieldDef, facility: string): Promise<Array<{ value: string; label: string }>> {
  if (f.en?.list?.length) return f.en.list.map((v) => ({ value: v, label: v }))
  const ref = referenceOf(f)
  if (!ref || !(await context.database.schemas.hasCollection(ref.table))) return []
  const rows = await context.database.store.find(isPlatformCollection(ref.table) ? PLATFORM_ORG : facility, ref.table, {}, MAX_OPTIONS)
  return rows.map((r) => ({ value: r._id, label: String(r[ref.labelField] ?? r._id) })).sort((a, b) => a.label.localeCompare(b.label))
}

async function editable(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string | null) {
  const view = await readView(context, route, facility, url)
  if (!view.schema || !view.editable) throw forbidden('This table is read-only.')
  const row = id ? await context.database.store.get(view.org, route.collection!, id) : null
  if (id && !row) throw notFound('That record no longer exists. It may have been deleted.')
  if (row && !rowRights(view, s.user, row).canEdit) throw forbidden('This record is locked against changes (ed = no). Ask an administrator.')
  return { view, schema: view.schema, row }
}

const canEditCts = (s: SignedIn) => s.user.role === 'admin' || s.user.role === 'super'
const backTo = (route: RouteEntry, url: URL) => `${route.path}${url.search}`

export async function loadEdit(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string | null): Promise<EditData> {
  const { view, schema, row } = await editable(context, s, route, facility, url, id)
  const { timeZone } = view
  const opts: EditData['options'] = {}
  const walk = async (fields: FieldDef[]) => {
    for (const f of fields) {
      if ((f.type === 'list' || f.type === 'multilist') && !opts[f.key]) opts[f.key] = await options(context, f, facility)
      if (f.array) await walk(f.array)
    }
  }
  await walk(schema.fields.filter((f) => !f.ro))
  const readonly = row
    ? schema.fields
        .filter((f) => f.ro && f.type !== 'array')
        .map((f) => ({ label: f.label, value: formatCell(row[f.key], view.columns.find((c) => c.key === f.key)?.format ?? '', { timeZone }) }))
    : []
  return {
    title: `${row ? 'Edit' : 'Add'}: ${schema.label}`,
    id,
    ts: row?.ts ?? null,
    schema,
    values: formValuesOf(schema, row ?? {}, { canEditCts: canEditCts(s), timeZone }),
    options: opts,
    readonly,
    canEditCts: canEditCts(s),
    timeZone,
    back: backTo(route, url),
    history: id ? `${route.path}/${encodeURIComponent(id)}/history${url.search}` : null,
    files: { org: view.org, maxBytes: maxUploadBytes(context.env) },
  }
}

export type SaveOutcome = { ok: true; back: string } | { ok: false; reply: SubmissionResult<string[]>; status: number }

/** Where a reference field's ids are in a parsed post: the field itself, or the column in each row of its sub-table (conform's names, for the errors). */
function referencePlaces(value: Record<string, unknown>, key: string, within?: string): Array<{ name: string; ids: string[] }> {
  const idsOf = (v: unknown) => (Array.isArray(v) ? v : v ? [v] : []).map(String)
  if (!within) return [{ name: key, ids: idsOf(value[key]) }]
  // the form edits one level of sub-table; a deeper one is not posted (its key has a dot)
  const rows = within.includes('.') ? [] : value[within]
  return Array.isArray(rows) ? rows.map((r, i) => ({ name: `${within}[${i}].${key}`, ids: idsOf((r as Record<string, unknown>)?.[key]) })) : []
}

/**
 * Validates and saves a form post; field and form errors come back in conform's reply. `uploads`:
 * files posted for fileDND fields (a form without JavaScript, app/files/form-uploads.server.ts),
 * stored first so their references are what the fields hold; a refused one is its field's error.
 */
export async function saveRecord(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string | null, form: FormData, uploads: FormUpload[] = []): Promise<SaveOutcome> {
  const { view, schema, row } = await editable(context, s, route, facility, url, id).catch(async (e) => {
    await discardUploads(uploads)
    throw e
  })
  const { timeZone } = view
  const fileErrors = await storeFormUploads(context.env.DATA_DIR, view.org, schema, form, uploads)
  // __ts stays in the post: the schema drops it from the value, and conform's reply carries it back,
  // so a form re-rendered after an Add row / Remove press or a refused save still says when it was opened
  const ts = String(form.get('__ts') ?? '')
  const submission = parseWithZod(form, { schema: recordSchema(schema, { mode: id ? 'update' : 'create', canEditCts: canEditCts(s), timeZone }) })
  // no status: an Add row / Remove button (conform intent) without JavaScript; the reply re-renders the form with the rows changed, nothing saved
  if (submission.status !== 'success') {
    const reply = Object.keys(fileErrors).length ? submission.reply({ formErrors: submission.error?.[''] ?? undefined, fieldErrors: fileErrors }) : submission.reply()
    return { ok: false, reply, status: submission.status === 'error' || Object.keys(fileErrors).length ? 400 : 200 }
  }
  if (Object.keys(fileErrors).length) return { ok: false, reply: submission.reply({ fieldErrors: fileErrors }), status: 400 }
  const value = submission.value as Record<string, unknown>
  // every stored sub-table row has an id; an edited row keeps the columns the form does not post
  for (const f of editableFields(schema)) {
    if (f.type === 'array' && Array.isArray(value[f.key])) value[f.key] = rowsToSave(value[f.key] as Array<Record<string, unknown>>, row?.[f.key])
  }
  // referenced ids must be records of this organisation, in sub-table rows too (one lookup per field)
  const fieldErrors: Record<string, string[]> = {}
  for (const ref of referenceFields(schema)) {
    const places = referencePlaces(value, ref.key, ref.within)
    const ids = [...new Set(places.flatMap((p) => p.ids))]
    if (!ids.length) continue
    const found = await context.database.store.labelsOf(isPlatformCollection(ref.table) ? PLATFORM_ORG : facility, ref.table, ref.labelField, ids)
    for (const p of places) if (p.ids.some((x) => !found.has(x))) fieldErrors[p.name] = [`${ref.label}: choose one of the listed records.`]
  }
  if (Object.keys(fieldErrors).length) return { ok: false, reply: submission.reply({ fieldErrors }), status: 400 }
  const record = { ...(row ?? {}), ...value }
  const rule = runSaveRules(route.collection!, record, { mode: id ? 'update' : 'create' })
  if (rule.kind === 'error') return { ok: false, reply: submission.reply({ formErrors: [rule.message] }), status: 400 }
  if (rule.kind === 'stop') return { ok: true, back: backTo(route, url) }
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId }
  try {
    if (id) await context.database.store.update(actor, view.org, route.collection!, id, value, { expectTs: ts || undefined, allowCts: canEditCts(s) })
    else await context.database.store.insert(actor, view.org, route.collection!, value, { allowCts: canEditCts(s) })
  } catch (e) {
    if (isAppError(e) && e.code === 'CONFLICT') {
      // say what the other save changed, from the audit trail, so nobody overwrites it blindly
      const since = id && ts ? (await recordHistory(context, route, facility, url, id, ts).catch(() => null))?.entries ?? [] : []
      const what = since.flatMap((h) => h.changes.map((c) => `${c.field}: ${c.before || '—'} → ${c.after || '—'} (${h.who})`))
      const message = `Someone else saved this record after you opened it, so your changes were not saved.${what.length ? ` Their changes: ${what.join('; ')}.` : ''} Open the record again to see it as it is now, then make your changes.`
      return { ok: false, reply: submission.reply({ formErrors: [message] }), status: 409 }
    }
    if (isAppError(e) && e.code === 'BAD_INPUT') return { ok: false, reply: submission.reply({ formErrors: [e.message] }), status: 400 }
    throw e
  }
  return { ok: true, back: backTo(route, url) }
}
