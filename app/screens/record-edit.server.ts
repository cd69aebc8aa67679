/**
 * The edit form's server side (issue 6, page mode): `/{screen}/new` and `/{screen}/{id}/edit`.
 * The loader gives the form its table schema (the browser compiles the same zod schema from it),
 * the record's values, list options and the read-only section; the action parses the post with
 * that schema (conform: field names, Add row / Remove intents) and hands the value to the one write
 * path, app/records/write.server.ts, which the JSON API uses too.
 */
import { fieldDevices, printersFor, type FieldDevice } from '../devices/lookup.server'
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../auth/require.server'
import { resolveScreen } from '../auth/screens.server'
import { formValuesOf, isEditable, recordSchema } from '../forms/record-schema'
import { runSaveRules } from '../forms/save-rules'
import { presetsOf, withoutPresets } from './record-presets'
import { canEditCts as canEditUserCts, canLockRows as canLockUserRows, createRecord, problemsOf, updateRecord } from '../records/write.server'
import { discardUploads, storeFormUploads, type FormUpload } from '../files/form-uploads.server'
import { maxUploadBytes } from '../files/store.server'
import { formatCell } from '../format/format'
import type { RouteEntry } from '../route-map'
import type { FieldDef, TableSchema } from '../schemas/table-schema'
import type { Doc } from '../db/types'
import { formulaOf } from '../schemas/computed'
import { formulaFields, numberOf } from '../schemas/formula'
import { withMetrcPickLists } from '../metrc/pick-lists.server'
import { isAppError, forbidden, notFound } from '../utils/errors'
import { readView } from './table-page.server'
import { listOptions } from '../records/list-options.server'
import { rowRights } from '../records/rights'
import { recordHistory } from './record-history.server'
import { labelLinks, type LabelLinks } from '../labels/links.server'
import { recordName, recordTitle } from '../forms/record-title'

export interface EditData {
  title: string
  /** the record's name for the breadcrumbs (forms/record-title.ts recordName); null for a new one */
  name: string | null
  /** null: a new record */
  id: string | null
  ts: string | null
  schema: TableSchema
  values: Record<string, unknown>
  /** options of list fields, by field key */
  options: Record<string, Array<{ value: string; label: string }>>
  readonly: Array<{ label: string; value: string }>
  /** the stored values of the computed (function) fields, by key (the form shows them live with JavaScript) */
  computed: Record<string, number | null>
  /** the stored values of read-only fields a formula reads (the form has no input for them) */
  inputs: Record<string, unknown>
  canEditCts: boolean
  /** admin and super: the form offers the row locks ed and delete (SPEC §3, §6) */
  canLockRows: boolean
  timeZone: string
  back: string
  /** the record's change history page */
  history: string | null
  /** the record's own page (/{screen}/{id}, screens/record-page.server.ts) */
  page: string | null
  /** where a fileDND field uploads (POST /files/{org}) and the largest file it takes */
  files: { org: string; maxBytes: number }
  /** the screen this form belongs to (device requests name it) */
  screen: string
  /** the devices that can fill a field (scale, RFID), by field key */
  devices: Record<string, FieldDevice[]>
  /** label printers for this table's records (a print button for a stored record) */
  printers: Array<{ id: string; name: string; online: boolean }>
  /** the record's label (app/labels/) when a printer serves this table: preview (SVG), PDF and ZPL addresses */
  label: LabelLinks | null
  /** opened by a check cell's tap the save rules refused (record-presets.ts): what they need, in their words */
  need: string | null
}

/** The table screen behind an edit address, or the error page the user should see. */
export async function editTarget(context: AppLoadContext, s: SignedIn, screenPath: string): Promise<{ route: RouteEntry; facility: string }> {
  const facility = s.session.facility ?? ''
  const screen = await resolveScreen(context.database, s.user, facility, screenPath)
  if (screen === 'forbidden') throw forbidden('Your account is not entitled to this screen in this facility.')
  if (screen === 'unknown' || screen.workflows || screen.route.kind !== 'table' || !screen.route.collection) throw notFound('There is no table at this address.')
  return { route: screen.route, facility }
}

async function editable(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string | null) {
  const view = await readView(context, route, facility, url, s.user)
  if (!view.schema || !view.editable) throw forbidden('This table is read-only.')
  const row = id ? await context.database.store.get(view.org, route.collection!, id) : null
  if (id && !row) throw notFound('That record no longer exists. It may have been deleted.')
  if (row && !rowRights(view, s.user, row).canEdit) throw forbidden('This record is locked against changes (ed = no). Ask an administrator.')
  // the editable Metrc tables pick from the facility's METRC values (item categories, units, waste methods…)
  return { view, schema: await withMetrcPickLists(context.database, view.org, view.schema, row), row }
}

const canEditCts = (s: SignedIn) => canEditUserCts(s.user)
const canLockRows = (s: SignedIn) => canLockUserRows(s.user)
const backTo = (route: RouteEntry, url: URL) => `${route.path}${withoutPresets(url.search)}`

/** A check cell's tap set here (`set.{field}=yes`): yes/no fields the user may edit, on a stored record. */
function presetValues(schema: TableSchema, url: URL, row: Record<string, unknown> | null): Record<string, string> {
  if (!row) return {}
  const wanted = presetsOf(url.searchParams)
  return Object.fromEntries(Object.entries(wanted).filter(([k]) => schema.fields.some((f) => f.key === k && isEditable(f) && (f.type === 'check' || f.type === 'status'))))
}

export async function loadEdit(context: AppLoadContext, s: SignedIn, route: RouteEntry, facility: string, url: URL, id: string | null): Promise<EditData> {
  const { view, schema, row } = await editable(context, s, route, facility, url, id)
  const { timeZone } = view
  const preset = presetValues(schema, url, row)
  const rule = Object.keys(preset).length ? runSaveRules(route.collection!, { ...row, ...preset }, { mode: 'update' }) : null
  const opts: EditData['options'] = {}
  const walk = async (fields: FieldDef[]) => {
    for (const f of fields) {
      if ((f.type === 'list' || f.type === 'multilist') && !opts[f.key]) opts[f.key] = await listOptions(context.database.store, facility, f)
      if (f.array) await walk(f.array)
    }
  }
  await walk(schema.fields.filter((f) => !f.ro))
  const readonly = row
    ? schema.fields
        .filter((f) => f.ro && f.type !== 'array' && f.type !== 'function')
        .map((f) => ({ label: f.label, value: formatCell(row[f.key], view.columns.find((c) => c.key === f.key)?.format ?? '', { timeZone }) }))
    : []
  return {
    title: recordTitle(schema, !!row),
    name: recordName(schema, row),
    id,
    ts: row?.ts ?? null,
    schema,
    values: formValuesOf(schema, { ...(row ?? {}), ...preset }, { canEditCts: canEditCts(s), canLockRows: canLockRows(s), timeZone }),
    options: opts,
    readonly,
    computed: Object.fromEntries(schema.fields.filter((f) => f.type === 'function').map((f) => [f.key, numberOf(row?.[f.key])])),
    inputs: computedInputs(schema, row),
    canEditCts: canEditCts(s),
    canLockRows: canLockRows(s),
    timeZone,
    back: backTo(route, url),
    history: id ? `${route.path}/${encodeURIComponent(id)}/history${withoutPresets(url.search)}` : null,
    page: id ? `${route.path}/${encodeURIComponent(id)}` : null,
    files: { org: view.org, maxBytes: maxUploadBytes(context.env) },
    screen: route.path,
    devices: await fieldDevices(context, view.org, route.collection!, schema),
    printers: id ? (await printersFor(context, view.org, schema)).map(({ id: pid, name, online }) => ({ id: pid, name, online })) : [],
    label: row ? await labelLinks(context, view.org, schema, row._id) : null,
    need: rule?.kind === 'error' ? rule.message : null,
  }
}

/** The read-only fields the computed fields read, as stored (a formula over an input the form does not hold). */
function computedInputs(schema: TableSchema, row: Doc | null): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of schema.fields) {
    if (f.type !== 'function' || !f.formula) continue
    for (const n of formulaFields(formulaOf(f))) {
      const g = schema.fields.find((x) => x.key === n)
      if (g?.ro && row && row[n] !== undefined) out[n] = row[n]
    }
  }
  return out
}

export type SaveOutcome = { ok: true; back: string } | { ok: false; reply: SubmissionResult<string[]>; status: number }

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
  const submission = parseWithZod(form, { schema: recordSchema(schema, { mode: id ? 'update' : 'create', canEditCts: canEditCts(s), canLockRows: canLockRows(s), timeZone, stored: row ?? undefined }) })
  // no status: an Add row / Remove button (conform intent) without JavaScript; the reply re-renders the form with the rows changed, nothing saved
  if (submission.status !== 'success') {
    const reply = Object.keys(fileErrors).length ? submission.reply({ formErrors: submission.error?.[''] ?? undefined, fieldErrors: fileErrors }) : submission.reply()
    return { ok: false, reply, status: submission.status === 'error' || Object.keys(fileErrors).length ? 400 : 200 }
  }
  if (Object.keys(fileErrors).length) return { ok: false, reply: submission.reply({ fieldErrors: fileErrors }), status: 400 }
  // the one write path (app/records/write.server.ts): it checks the parsed value again as the API's
  // JSON would be, then referenced ids, sub-table row ids, save rules, row rights, unchanged-since
  const writer = { user: s.user, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }, facility }
  const value = submission.value as Record<string, unknown>
  try {
    const opts = { via: route, expectTs: ts || undefined }
    const r = id ? await updateRecord(context, writer, route.collection!, id, value, opts) : await createRecord(context, writer, route.collection!, value, opts)
    if (r.stopped) return { ok: true, back: backTo(route, url) }
  } catch (e) {
    if (isAppError(e) && e.code === 'CONFLICT') {
      // say what the other save changed, from the audit trail, so nobody overwrites it blindly
      const since = id && ts ? (await recordHistory(context, route, facility, url, id, ts).catch(() => null))?.entries ?? [] : []
      const what = since.flatMap((h) => h.changes.map((c) => `${c.field}: ${c.before || '—'} → ${c.after || '—'} (${h.who})`))
      const message = `Someone else saved this record after you opened it, so your changes were not saved.${what.length ? ` Their changes: ${what.join('; ')}.` : ''} Open the record again to see it as it is now, then make your changes.`
      return { ok: false, reply: submission.reply({ formErrors: [message] }), status: 409 }
    }
    const problems = problemsOf(e)
    if (problems) {
      const fieldErrors: Record<string, string[]> = {}
      for (const p of problems.filter((x) => x.field)) (fieldErrors[p.field!] ??= []).push(p.message)
      const formErrors = problems.filter((x) => !x.field).map((x) => x.message)
      return { ok: false, reply: submission.reply({ ...(formErrors.length ? { formErrors } : {}), ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}) }), status: 400 }
    }
    throw e
  }
  return { ok: true, back: backTo(route, url) }
}
