/**
 * Every file a record links to, read from its table's schema (issue 26 item 5): the columns shown
 * as an image or a PDF (SPEC §2.5 formats, resolved as the table's cells resolve them: fileHref),
 * and file-drop fields holding a stored reference (`/getfiles/…`), in sub-table rows too. Used to
 * write the demo's files at seed time and by the test that opens every seeded link.
 */
import { fileHref } from '../../components/table/table-cells'
import type { Database } from '../../db/index.server'
import { tableOf } from '../../db/sql'
import type { FieldDef, TableSchema } from '../../schemas/table-schema'

export interface FileLink {
  collection: string
  id: string
  org: string
  field: string
  href: string
}

const formatKind = (f: FieldDef) => (f.format ?? '').split(':')[0]

/** The file fields of a schema: [path, field] with `rows.coa` for a sub-table's column. */
export function fileFields(schema: TableSchema): Array<{ path: string[]; field: FieldDef }> {
  const out: Array<{ path: string[]; field: FieldDef }> = []
  const walk = (fields: FieldDef[], path: string[]) => {
    for (const f of fields) {
      if (f.type === 'fileDND' || formatKind(f) === 'image' || formatKind(f) === 'pdf') out.push({ path: [...path, f.key], field: f })
      if (f.type === 'array' && f.array) walk(f.array, [...path, f.key])
    }
  }
  walk(schema.fields, [])
  return out
}

function valuesAt(doc: unknown, path: string[]): unknown[] {
  if (!path.length) return [doc]
  if (Array.isArray(doc)) return doc.flatMap((d) => valuesAt(d, path))
  if (!doc || typeof doc !== 'object') return []
  return valuesAt((doc as Record<string, unknown>)[path[0]], path.slice(1))
}

/** The links of one record (as the screens link them). */
export function linksOf(schema: TableSchema, org: string, doc: Record<string, unknown> & { _id: string }): FileLink[] {
  const out: FileLink[] = []
  for (const { path, field } of fileFields(schema)) {
    const shown = formatKind(field) === 'image' || formatKind(field) === 'pdf'
    for (const v of valuesAt(doc, path)) {
      for (const one of Array.isArray(v) ? v : [v]) {
        if (typeof one !== 'string' || !one.trim()) continue
        // a file drop without a display format links only what an upload stores
        if (!shown && !one.trim().startsWith('/getfiles/')) continue
        const href = fileHref(one, org)
        if (href && href.startsWith('/')) out.push({ collection: schema.key, id: doc._id, org, field: path.join('.'), href })
      }
    }
  }
  return out
}

/** Where a `/getfiles/{org}/{name}?subdir=` link points, or null for any other address. */
export function parseFileLink(href: string): { org: string; subdir: string | null; name: string } | null {
  let u: URL
  try {
    u = new URL(href, 'http://canopy.invalid')
  } catch {
    return null
  }
  const m = /^\/getfiles\/([^/]+)\/([^/]+)$/.exec(u.pathname)
  if (!m) return null
  try {
    return { org: decodeURIComponent(m[1]), name: decodeURIComponent(m[2]), subdir: u.searchParams.get('subdir') || null }
  } catch {
    return null
  }
}

/** Every file link of every record of every table with file fields, in every organisation. */
export async function allFileLinks(database: Database): Promise<FileLink[]> {
  const out: FileLink[] = []
  for (const collection of await database.schemas.listCollections()) {
    const schema = await database.schemas.get(collection)
    if (!schema || !fileFields(schema).length) continue
    const r = await database.db.query<{ org: string; id: string; doc: Record<string, unknown> }>(`SELECT org, id, doc FROM ${tableOf(collection)}`)
    for (const row of r.rows) out.push(...linksOf(schema, row.org, { ...row.doc, _id: row.id }))
  }
  return out
}
