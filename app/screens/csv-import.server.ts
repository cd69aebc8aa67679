/**
 * CSV import on a table screen (issue 31 item 3, decision 070): /{screen}/import.
 *
 *   upload   the file is read (csv-import.ts), each reference label resolved to its record's id
 *            (one query per referenced table), every row checked by the form's own rules
 *            (records/write.server.ts checkCreates: fields, SPEC §5 save rules, rights, references)
 *            and kept in csv_imports (migration 044) under an id → the preview page
 *   import   the good rows (or all, when none is bad) checked again and created in one transaction
 *            (createChecked: an audit row each, the METRC pushes a create calls for) with the
 *            import's own audit row naming the file; the import keeps the ids it created
 *   undo     exactly those records deleted in one transaction, audited; refused when any of them
 *            changed or went since the import
 *
 * Every query names the organisation; an import belongs to its organisation and screen.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../auth/require.server'
import { requireScreen } from '../auth/screens.server'
import { audit } from '../db/store.server'
import type { Doc } from '../db/types'
import { referenceOf } from '../forms/record-schema'
import { checkCreates, createChecked, type Writer } from '../records/write.server'
import { isPlatformCollection, PLATFORM_ORG, type RouteEntry } from '../route-map'
import type { TableSchema } from '../schemas/table-schema'
import { newId } from '../utils/ids'
import { fieldOfProblem, IMPORT_MAX_ROWS, mapHeaders, readCsv, rowInput, type ImportColumn, type ReferenceIds } from './csv-import'
import { readView } from './table-page.server'

export interface ImportRow {
  /** the row's number in the file as a spreadsheet counts it (the header is row 1) */
  n: number
  cells: string[]
  input: Record<string, unknown>
  /** col: the file's column the problem is in (null: the row as a whole) */
  problems: Array<{ col: number | null; message: string }>
}

export interface ImportTarget {
  s: SignedIn
  facility: string
  route: RouteEntry
  org: string
  schema: TableSchema
  writer: Writer
}

/** The table screen behind /{screen}/import, for a user who may add its records; else the error page. */
export async function importTarget(request: Request, context: AppLoadContext, screenPath: string): Promise<ImportTarget> {
  const { s, facility, screen } = await requireScreen(request, context, screenPath)
  const route = screen.route
  if (route.kind !== 'table' || !route.collection || screen.workflows) throw new Response('There is no table at this address.', { status: 404 })
  const view = await readView(context, route, facility, new URL(`http://x${route.path}`), s.user)
  if (!view.schema || !view.editable) throw new Response('This table is read-only: records cannot be imported into it.', { status: 403 })
  const writer = { user: s.user, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }, facility }
  return { s, facility, route, org: view.org, schema: view.schema, writer }
}

/** The ids every label of the file's reference columns names: one query per referenced table. */
async function resolveLabels(context: AppLoadContext, t: ImportTarget, columns: ImportColumn[], rows: string[][]): Promise<ReferenceIds> {
  const out: ReferenceIds = new Map()
  for (const [i, c] of columns.entries()) {
    const f = c.key ? t.schema.fields.find((x) => x.key === c.key) : undefined
    const ref = f && referenceOf(f)
    if (!f || !ref || !(await context.database.schemas.hasCollection(ref.table))) continue
    const labels = rows.flatMap((r) => (f.type === 'multilist' ? (r[i] ?? '').split(';') : [r[i] ?? ''])).map((x) => x.trim()).filter(Boolean)
    out.set(f.key, await context.database.store.idsByLabel(isPlatformCollection(ref.table) ? PLATFORM_ORG : t.facility, ref.table, ref.labelField, labels))
  }
  return out
}

/** Every row checked by the form's rules; problems by the file's column. */
async function checkRows(context: AppLoadContext, t: ImportTarget, columns: ImportColumn[], rows: string[][]): Promise<ImportRow[]> {
  const refs = await resolveLabels(context, t, columns, rows)
  const read = rows.map((cells) => ({ cells, ...rowInput(t.schema, columns, cells, refs) }))
  const checked = await checkCreates(context, t.writer, t.route.collection!, read.map((r) => r.input), { via: t.route, anyMinute: true })
  const colOf = (key: string | null) => (key ? columns.findIndex((c) => c.key === key) : -1)
  return read.map((r, i) => {
    const bad = new Set(r.problems.map((p) => p.key))
    const c = checked[i]
    const more = c.ok ? [] : c.problems.filter((p) => !bad.has(fieldOfProblem(p.field) ?? ''))
    const problems = [...r.problems.map((p) => ({ key: p.key, message: p.message })), ...more.map((p) => ({ key: fieldOfProblem(p.field), message: p.message }))].map((p) => {
      const col = colOf(p.key)
      return { col: col < 0 ? null : col, message: p.message }
    })
    return { n: i + 2, cells: r.cells, input: r.input, problems }
  })
}

/** Reads and checks an uploaded file and keeps it for the preview: its id, or why it cannot be imported. */
export async function uploadImport(context: AppLoadContext, t: ImportTarget, fileName: string, text: string): Promise<{ id: string } | { error: string }> {
  const all = readCsv(text)
  if (!all.length) return { error: 'The file is empty. Its first row must name the fields; download the CSV template for the exact headers.' }
  const [header, ...rows] = all
  if (!rows.length) return { error: 'The file has a header row but no records under it.' }
  if (rows.length > IMPORT_MAX_ROWS) return { error: `The file has ${rows.length.toLocaleString('en-US')} rows; one import takes at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')}. Split it into smaller files.` }
  const { columns, error } = mapHeaders(t.schema, header)
  if (error) return { error }
  const checked = await checkRows(context, t, columns, rows)
  const id = newId()
  const db = context.database.db
  // previews nobody confirmed within a day are dropped
  await db.query(`DELETE FROM csv_imports WHERE org = $1 AND state = 'preview' AND created_at < now() - interval '1 day'`, [t.org])
  await db.query(`INSERT INTO csv_imports (org, id, collection, screen, file_name, uid, columns, rows) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)`, [
    t.org,
    id,
    t.route.collection,
    t.route.path,
    fileName.slice(0, 200) || 'upload.csv',
    t.s.user.uid,
    JSON.stringify(columns),
    JSON.stringify(checked),
  ])
  return { id }
}

export interface StoredImport {
  id: string
  fileName: string
  state: 'preview' | 'imported' | 'undone'
  columns: ImportColumn[]
  rows: ImportRow[]
  created: Array<{ id: string; ts: string }>
  importedAt: string | null
}

export async function readImport(context: AppLoadContext, t: ImportTarget, id: string): Promise<StoredImport | null> {
  type R = { id: string; file_name: string; state: StoredImport['state']; columns: ImportColumn[]; rows: ImportRow[]; created: StoredImport['created'] | null; imported_at: Date | string | null }
  const r = await context.database.db.query<R>(`SELECT id, file_name, state, columns, rows, created, imported_at FROM csv_imports WHERE org = $1 AND id = $2 AND screen = $3`, [t.org, id, t.route.path])
  const x = r.rows[0]
  if (!x) return null
  const parse = <T,>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v)
  return { id: x.id, fileName: x.file_name, state: x.state, columns: parse(x.columns), rows: parse(x.rows), created: x.created ? parse(x.created) : [], importedAt: x.imported_at ? new Date(x.imported_at).toISOString() : null }
}

/** Creates the good rows (`good`) or every row (`all`, only when none is bad) in one transaction; the message to show, or why not. */
export async function runImport(context: AppLoadContext, t: ImportTarget, id: string, choice: 'good' | 'all'): Promise<{ message: string } | { error: string }> {
  const imp = await readImport(context, t, id)
  if (!imp) return { error: 'There is no such import. Upload the file again.' }
  if (imp.state !== 'preview') return { error: imp.state === 'imported' ? 'This file has been imported already.' : 'This import was undone; upload the file again to import it.' }
  const bad = imp.rows.filter((r) => r.problems.length)
  if (choice === 'all' && bad.length) return { error: `${bad.length} rows have problems, so not every row can be imported. Fix them in the file and upload it again, or import only the good rows.` }
  const good = imp.rows.filter((r) => !r.problems.length)
  if (!good.length) return { error: 'No row of this file can be imported: every row has a problem.' }
  // checked again: a referenced record may have gone, or a rule changed, since the preview
  const again = await checkCreates(context, t.writer, t.route.collection!, good.map((r) => r.input), { via: t.route, anyMinute: true })
  const failed = again.flatMap((c, i) => (c.ok ? [] : [good[i].n]))
  if (failed.length) return { error: `Rows ${failed.slice(0, 10).join(', ')}${failed.length > 10 ? '…' : ''} no longer pass the table's checks (a record they name may have changed). Upload the file again to see why.` }
  const values = again.map((c) => (c.ok ? c.value : {}))
  try {
    await createChecked(context, t.writer, t.route.collection!, values, {
      via: t.route,
      also: async (tx, docs) => {
        const created = docs.map((d) => ({ id: d._id, ts: d.ts }))
        const u = await tx.query(`UPDATE csv_imports SET state = 'imported', created = $3::jsonb, imported_at = now(), imported_by = $4 WHERE org = $1 AND id = $2 AND state = 'preview' RETURNING id`, [t.org, id, JSON.stringify(created), t.s.user.uid])
        if (!u.rows.length) throw new ImportRace()
        const after = { _id: id, file: imp.fileName, collection: t.route.collection, screen: t.route.path, count: docs.length, rows: imp.rows.length, skipped: bad.length } as unknown as Doc
        await audit(tx, t.writer.actor, t.org, 'csv_imports', id, 'insert', null, after)
      },
    })
  } catch (e) {
    if (e instanceof ImportRace) return { error: 'This file has been imported already.' }
    throw e
  }
  return { message: `Imported ${good.length.toLocaleString('en-US')} records from ${imp.fileName}${bad.length ? `; ${bad.length} rows with problems were left out` : ''}.` }
}

class ImportRace extends Error {}

/** Deletes exactly the records an import created, in one transaction; refused when any changed or went since. */
export async function undoImport(context: AppLoadContext, t: ImportTarget, id: string): Promise<{ message: string } | { error: string }> {
  const imp = await readImport(context, t, id)
  if (!imp || imp.state !== 'imported') return { error: imp?.state === 'undone' ? 'This import has been undone already.' : 'This import created no records to undo.' }
  const store = context.database.store
  const collection = t.route.collection!
  const ids = imp.created.map((c) => c.id)
  const outcome = await store.db.transaction(async (tx) => {
    const rows = await store.lockRows(tx, t.org, collection, ids)
    const ts = new Map(imp.created.map((c) => [c.id, c.ts]))
    const changed = rows.filter((r) => new Date(r.ts).getTime() !== new Date(ts.get(r._id) ?? 0).getTime())
    const gone = ids.length - rows.length
    if (changed.length || gone) {
      const parts = [changed.length ? `${changed.length} of its records were changed since the import` : '', gone ? `${gone} were deleted` : ''].filter(Boolean).join(' and ')
      return { error: `The import cannot be undone: ${parts}, and an undo would lose that work. Delete the records you no longer want from the table instead.` }
    }
    const removed = await store.removeRows(tx, t.writer.actor, t.org, collection, ids)
    const u = await tx.query(`UPDATE csv_imports SET state = 'undone', undone_at = now(), undone_by = $3 WHERE org = $1 AND id = $2 AND state = 'imported' RETURNING id`, [t.org, id, t.s.user.uid])
    if (!u.rows.length) throw new ImportRace()
    const before = { _id: id, file: imp.fileName, collection, count: removed.length } as unknown as Doc
    await audit(tx, t.writer.actor, t.org, 'csv_imports', id, 'delete', before, null)
    return { message: `Undone: the ${removed.length.toLocaleString('en-US')} records imported from ${imp.fileName} were deleted.` }
  }).catch((e) => {
    if (e instanceof ImportRace) return { error: 'This import has been undone already.' }
    throw e
  })
  if ('message' in outcome) store.changed(t.writer.actor, t.org, collection, 'delete')
  return outcome
}

/** What the import page shows: the upload form, or one import's preview / result. */
export interface ImportPage {
  screen: string
  table: string
  maxMb: number
  template: string
  back: string
  imp: null | {
    id: string
    fileName: string
    state: StoredImport['state']
    total: number
    good: number
    bad: number
    created: number
    ignored: Array<{ header: string; note: string }>
    /** the problems, row by row, the first ERRORS_SHOWN of them */
    errors: Array<{ row: number; column: string; value: string; message: string }>
    moreErrors: number
    /** the first good rows, as read from the file */
    headers: string[]
    sample: Array<{ row: number; cells: string[] }>
  }
}

export const ERRORS_SHOWN = 200
export const GOOD_SHOWN = 20

export async function importPage(context: AppLoadContext, t: ImportTarget, id: string | null, maxMb: number): Promise<ImportPage> {
  const base = { screen: t.route.path, table: t.schema.label || t.route.title, maxMb, template: `/import-template${t.route.path}`, back: t.route.path }
  const imp = id ? await readImport(context, t, id) : null
  if (id && !imp) throw new Response('There is no such import.', { status: 404 })
  if (!imp) return { ...base, imp: null }
  const bad = imp.rows.filter((r) => r.problems.length)
  const errors = bad.flatMap((r) => r.problems.map((p) => ({ row: r.n, column: p.col === null ? '' : imp.columns[p.col]?.header ?? '', value: p.col === null ? '' : (r.cells[p.col] ?? '').slice(0, 80), message: p.message })))
  const used = imp.columns.flatMap((c, i) => (c.key ? [i] : []))
  return {
    ...base,
    imp: {
      id: imp.id,
      fileName: imp.fileName,
      state: imp.state,
      total: imp.rows.length,
      good: imp.rows.length - bad.length,
      bad: bad.length,
      created: imp.created.length,
      ignored: imp.columns.flatMap((c) => (c.key ? [] : [{ header: c.header, note: c.note ?? '' }])),
      errors: errors.slice(0, ERRORS_SHOWN),
      moreErrors: Math.max(0, errors.length - ERRORS_SHOWN),
      headers: used.map((i) => imp.columns[i].header),
      sample: imp.rows.filter((r) => !r.problems.length).slice(0, GOOD_SHOWN).map((r) => ({ row: r.n, cells: used.map((i) => r.cells[i] ?? '') })),
    },
  }
}
